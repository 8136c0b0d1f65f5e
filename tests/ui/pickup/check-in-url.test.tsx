import { screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as api from "../../../src/api/pickup.ts";
import { makeDay, makeVisit, order, renderPickup, RIVERSIDE } from "./harness.tsx";

vi.mock("../../../src/api/pickup.ts");
// The camera reads one bag's label as soon as it is open: what check-in's URL does with it is under test here.
vi.mock("../../../src/ui/scanner/camera-scan.ts", () => ({
  startCameraScan: (send: (event: { type: "CAMERA_READY" } | { type: "LABEL_READ"; code: string }) => void) => {
    const timer = setTimeout(() => {
      send({ type: "CAMERA_READY" });
      send({ type: "LABEL_READ", code: "rx-400112" });
    });
    return () => clearTimeout(timer);
  },
}));

const ABERNATHY = order(2, "Eleanor", "Abernathy", { rx_numbers: ["RX-400112"] });
const BRENNAN = order(3, "Walter", "Brennan", { status: "picked_up" });
const base = `/pharmacies/${RIVERSIDE.id}`;
const continueButton = () => document.getElementById("all-orders-verified") as HTMLButtonElement;

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(api.markArrived).mockImplementation(async (_courierId, visitId) =>
    makeVisit({ id: visitId, pharmacy: RIVERSIDE, confirmed: true, arrived_at: "2026-11-21T14:00:00.000Z" }),
  );
});

/** /verify_orders and /confirm_orders follow the check-in machine (src/shell/use-machine-url.ts through use-check-in-url.ts). */
describe("check-in in the URL", () => {
  it("a scanned label pushes its order's verify screen; back is the list again, its camera closed", async () => {
    const view = renderPickup(`${base}/verify_orders`, makeDay({ orders: [ABERNATHY, BRENNAN] }));
    await userEvent.click(await screen.findByRole("button", { name: "Scan" }));
    await waitFor(() => expect(view.location()).toBe(`${base}/verify_orders/${ABERNATHY.id}`));
    await view.back();
    await screen.findByRole("heading", { name: "check-in" });
    expect(view.location()).toBe(`${base}/verify_orders`);
    expect(screen.getByRole("button", { name: "Scan" })).toBeInTheDocument();
  });

  it("Continue pushes the review; the browser's back takes the machine back to the list, so Continue works again", async () => {
    const user = userEvent.setup();
    const view = renderPickup(`${base}/verify_orders`, makeDay({ orders: [BRENNAN] }));
    await screen.findByRole("heading", { name: "check-in" });
    await user.click(continueButton());
    await screen.findByRole("heading", { name: "confirm orders" });
    expect(view.location()).toBe(`${base}/confirm_orders`);
    await view.back();
    await screen.findByRole("heading", { name: "check-in" });
    expect(view.location()).toBe(`${base}/verify_orders`);
    // Left in confirmingOrders, the machine would refuse CONTINUE and the button would be disabled.
    await waitFor(() => expect(continueButton()).toBeEnabled());
    await user.click(continueButton());
    await screen.findByRole("heading", { name: "confirm orders" });
    expect(view.location()).toBe(`${base}/confirm_orders`);
  });

  it("'Start order deliveries' pushes the delivery list: back is the review's URL", async () => {
    const user = userEvent.setup();
    const view = renderPickup(`${base}/verify_orders`, makeDay({ orders: [BRENNAN] }));
    await screen.findByRole("heading", { name: "check-in" });
    await user.click(continueButton());
    const start = await screen.findByRole("button", { name: "Start order deliveries" });
    await waitFor(() => expect(start).toBeEnabled());
    await user.click(start);
    await waitFor(() => expect(view.location()).toBe(`${base}/deliver_orders`));
    await view.back();
    expect(view.location()).toBe(`${base}/confirm_orders`);
  });
});
