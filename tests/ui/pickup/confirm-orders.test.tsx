import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import * as api from "../../../src/api/pickup.ts";
import { COURIER_ID, currentDay, makeDay, makeVisit, NO_COLLECTION, order, renderPickup, RIVERSIDE } from "./harness.tsx";

vi.mock("../../../src/api/pickup.ts");

const VERIFIED = order(1, "Eleanor", "Abernathy", { status: "picked_up", copay: "12.50" });
const NO_COPAY = order(2, "Walter", "Brennan", { status: "picked_up", copay: "0.00" });
const CANCELLED = order(3, "Grace", "Kowalski", { status: "cancelled" });
const ARRIVED = makeVisit({ id: 5, pharmacy: RIVERSIDE, confirmed: true, arrived_at: "2026-11-21T14:00:00.000Z" });
const OFFLINE: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };

const path = `/pharmacies/${RIVERSIDE.id}/confirm_orders`;
const section = (name: RegExp) => screen.getByRole("region", { name });

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(api.markArrived).mockResolvedValue(ARRIVED);
});

describe("confirm_orders review (spec §2)", () => {
  it("lists the verified and the cancelled orders; 'Start order deliveries' goes to the delivery list", async () => {
    const user = userEvent.setup();
    const view = renderPickup(path, makeDay({ orders: [VERIFIED, NO_COPAY, CANCELLED] }));
    await screen.findByRole("heading", { name: "confirm orders" });
    const verified = section(/Verified orders/);
    expect(verified).toHaveAccessibleName("Verified orders (2)");
    expect(within(verified).getAllByRole("listitem").map((item) => item.querySelector(".order-row__name")?.textContent)).toEqual([
      "Eleanor Abernathy",
      "Walter Brennan",
    ]);
    // Spec §4 row indicators: a payable copay not yet collected, otherwise the complete mark.
    expect(within(verified).getByText("not collected")).toBeInTheDocument();
    expect(within(verified).getByRole("img", { name: "complete" })).toBeInTheDocument();
    const cancelled = section(/Cancelled orders/);
    expect(within(cancelled).getByText("Grace Kowalski")).toBeInTheDocument();
    expect(within(cancelled).getByText("cancelled")).toBeInTheDocument();

    // The arrival is recorded on the way in; the day learns of it.
    await waitFor(() => expect(api.markArrived).toHaveBeenCalledWith(COURIER_ID, ARRIVED.id));
    await waitFor(() => expect(currentDay()!.pharmacy_visits.find((visit) => visit.id === ARRIVED.id)?.arrived_at).toBe(ARRIVED.arrived_at));

    expect(screen.queryByRole("button", { name: "Continue" })).toBeNull();
    const start = screen.getByRole("button", { name: "Start order deliveries" });
    await waitFor(() => expect(start).toBeEnabled());
    await user.click(start);
    await waitFor(() => expect(view.location()).toBe(`/pharmacies/${RIVERSIDE.id}/deliver_orders`));
  });

  it("with only cancelled orders the button is 'Continue' and goes home", async () => {
    const user = userEvent.setup();
    const view = renderPickup(path, makeDay({ orders: [CANCELLED] }));
    await screen.findByRole("heading", { name: "confirm orders" });
    expect(screen.getByText("No verified orders.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Start order deliveries" })).toBeNull();
    const proceed = screen.getByRole("button", { name: "Continue" });
    await waitFor(() => expect(proceed).toBeEnabled());
    await user.click(proceed);
    await waitFor(() => expect(view.location()).toBe("/pharmacies"));
  });

  it("a failed arrival shows its alert with Try again, and the courier may still go on", async () => {
    vi.mocked(api.markArrived).mockRejectedValueOnce(OFFLINE);
    const user = userEvent.setup();
    renderPickup(path, makeDay({ orders: [VERIFIED] }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(
      'Your device does not currently have internet access. Please select "try again" on the next page once you have internet access.',
    );
    expect(screen.getByRole("button", { name: "Start order deliveries" })).toBeEnabled();
    await user.click(within(alert).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(api.markArrived).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
  });

  it("a pharmacy without a visit today records no arrival", async () => {
    const user = userEvent.setup();
    const other = order(9, "Nadia", "Haddad", { pharmacy: NO_COLLECTION, status: "picked_up" });
    const view = renderPickup(`/pharmacies/${NO_COLLECTION.id}/confirm_orders`, makeDay({ orders: [other], pharmacy_visits: [] }));
    await screen.findByRole("heading", { name: "confirm orders" });
    await user.click(screen.getByRole("button", { name: "Start order deliveries" }));
    await waitFor(() => expect(view.location()).toBe(`/pharmacies/${NO_COLLECTION.id}/deliver_orders`));
    expect(api.markArrived).not.toHaveBeenCalled();
  });

  it("the back link returns to check-in, and the list is live again", async () => {
    const user = userEvent.setup();
    const view = renderPickup(path, makeDay({ orders: [VERIFIED] }));
    await screen.findByRole("heading", { name: "confirm orders" });
    await user.click(screen.getByRole("link", { name: "check-in" }));
    await screen.findByRole("heading", { name: "check-in" });
    expect(view.location()).toBe(`/pharmacies/${RIVERSIDE.id}/verify_orders`);
    // Back in the check-in state: Continue leads to the review again.
    await user.click(document.getElementById("all-orders-verified")!);
    await screen.findByRole("heading", { name: "confirm orders" });
  });
});
