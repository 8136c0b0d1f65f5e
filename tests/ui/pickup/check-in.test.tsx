import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as api from "../../../src/api/pickup.ts";
import { COURIER_ID, currentDayRef, makeDay, makeVisit, NO_COLLECTION, order, renderPickup, RIVERSIDE } from "./harness.tsx";

vi.mock("../../../src/api/pickup.ts");
// The decoder's WebAssembly is the unit and e2e tests' business; here the camera is refused before it is used.
vi.mock("../../../src/ui/scanner/wasm-decoder.ts", () => ({ loadWasmDecoder: vi.fn(async () => undefined), decodeLabels: vi.fn(async () => []) }));

const JOHNSON = order(1, "Harold", "Johnson", { pickup_note: "Ring the bell at the side counter; ask for Priya." });
const ABERNATHY = order(2, "Eleanor", "Abernathy", { rx_numbers: ["RX-400112", "RX-400113"], pickup_note: "Use the back door." });
const BRENNAN = order(3, "Walter", "Brennan", { status: "picked_up" });
const KOWALSKI = order(4, "Grace", "Kowalski", { status: "cancelled" });
const ELSEWHERE = order(5, "Nadia", "Haddad", { pharmacy: NO_COLLECTION });
const DELIVERED = order(6, "Curtis", "Mayfield", { status: "delivered" });

const path = `/pharmacies/${RIVERSIDE.id}/verify_orders`;
const rowNames = () => screen.getAllByRole("article").map((row) => row.getAttribute("aria-label"));
const continueButton = () => document.getElementById("all-orders-verified") as HTMLButtonElement;

async function open(orders = [JOHNSON, ABERNATHY, BRENNAN, KOWALSKI, ELSEWHERE, DELIVERED], dayOverrides = {}) {
  const view = renderPickup(path, makeDay({ orders, ...dayOverrides }));
  await screen.findByRole("heading", { name: "check-in" });
  return view;
}

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(api.markArrived).mockImplementation(async (_courierId, visitId) =>
    makeVisit({ id: visitId, pharmacy: RIVERSIDE, confirmed: true, arrived_at: "2026-11-21T14:00:00.000Z" }),
  );
});

describe("check-in screen (spec §2, §4)", () => {
  it("lists this pharmacy's new, submitted, picked-up and cancelled orders by patient last name, each with its action", async () => {
    await open();
    expect(screen.getByRole("link", { name: "Itinerary" })).toHaveAttribute("href", "/pharmacies");
    expect(screen.getByRole("heading", { name: "Tap check-in to pick up or cancel order(s)" })).toBeInTheDocument();
    expect(rowNames()).toEqual(["Eleanor Abernathy", "Walter Brennan", "Harold Johnson", "Grace Kowalski"]);

    const abernathy = screen.getByRole("article", { name: "Eleanor Abernathy" });
    expect(within(abernathy).getByRole("link", { name: "Check-in Eleanor Abernathy" })).toHaveAttribute(
      "href",
      `/pharmacies/${RIVERSIDE.id}/verify_orders/${ABERNATHY.id}`,
    );
    expect(within(abernathy).getByRole("link", { name: /1012 Pine St, Philadelphia, PA 19107/ })).toHaveAttribute(
      "href",
      "https://www.google.com/maps/search/?api=1&query=1012%20Pine%20St%2C%20Philadelphia%2C%20PA%2019107",
    );
    expect(abernathy).toHaveTextContent("RX-400112, RX-400113");

    const brennan = screen.getByRole("article", { name: "Walter Brennan" });
    expect(within(brennan).getByRole("img", { name: "verified" })).toBeInTheDocument();
    expect(within(brennan).queryByRole("link", { name: /Check-in/ })).toBeNull();
    const kowalski = screen.getByRole("article", { name: "Grace Kowalski" });
    expect(within(kowalski).getByText("cancelled")).toBeInTheDocument();
    expect(within(kowalski).queryByRole("link", { name: /Check-in/ })).toBeNull();
  });

  it("shows 'Pickup Instructions' from the first listed order's pickup note", async () => {
    await open();
    const block = screen.getByRole("region", { name: "Pickup Instructions" });
    // Abernathy sorts first: her note, not Johnson's.
    expect(block).toHaveTextContent("Use the back door.");
    expect(block).not.toHaveTextContent("Ring the bell");
  });

  it("has no 'Pickup Instructions' block when the first order has no pickup note", async () => {
    await open([order(9, "Eleanor", "Abernathy"), JOHNSON]);
    expect(screen.queryByRole("heading", { name: "Pickup Instructions" })).toBeNull();
  });

  it("'Search...' filters by recipient description", async () => {
    const user = userEvent.setup();
    await open();
    const search = screen.getByPlaceholderText("Search...");
    await user.type(search, "JOHN");
    expect(rowNames()).toEqual(["Harold Johnson"]);
    await user.clear(search);
    await user.type(search, "nobody");
    expect(screen.queryAllByRole("article")).toHaveLength(0);
    expect(screen.getByText("No orders match your search.")).toBeInTheDocument();
  });

  it("Continue (all-orders-verified) is disabled while any listed order is still to check in, whatever the search shows", async () => {
    const user = userEvent.setup();
    await open();
    expect(continueButton()).toHaveTextContent("Continue");
    expect(continueButton()).toBeDisabled();
    await user.type(screen.getByPlaceholderText("Search..."), "Brennan");
    expect(rowNames()).toEqual(["Walter Brennan"]);
    expect(continueButton()).toBeDisabled();
  });

  it("with every order picked up or cancelled, Continue goes to confirm_orders and records the arrival at this pharmacy's visit", async () => {
    const user = userEvent.setup();
    const view = await open([BRENNAN, KOWALSKI, ELSEWHERE]);
    expect(continueButton()).toBeEnabled();
    await user.click(continueButton());
    await waitFor(() => expect(view.location()).toBe(`/pharmacies/${RIVERSIDE.id}/confirm_orders`));
    await waitFor(() => expect(api.markArrived).toHaveBeenCalledWith(COURIER_ID, 5));
    expect(api.markArrived).toHaveBeenCalledTimes(1);
  });

  it("an order checked in elsewhere reaches the list from the day, and Continue follows", async () => {
    await open([JOHNSON, BRENNAN]);
    expect(continueButton()).toBeDisabled();
    // Another flow (verify, add-ons) tells the day; the check-in machine follows the day itself.
    currentDayRef()!.send({ type: "ORDERS_CHANGED", orders: [{ ...JOHNSON, status: { id: 3, name: "picked_up" } }] });
    await waitFor(() => expect(continueButton()).toBeEnabled());
  });

  it("a deep link to confirm_orders before every order is checked in goes back to the list", async () => {
    const view = renderPickup(`/pharmacies/${RIVERSIDE.id}/confirm_orders`, makeDay({ orders: [JOHNSON, BRENNAN] }));
    await screen.findByRole("heading", { name: "check-in" });
    expect(view.location()).toBe(path);
    expect(api.markArrived).not.toHaveBeenCalled();
  });

  it("with self-service add-ons, offers 'I have an order not listed here'", async () => {
    await open();
    expect(screen.getByRole("link", { name: "I have an order not listed here" })).toHaveAttribute("href", `/pharmacies/${RIVERSIDE.id}/addons`);
  });

  it("without them, says to refresh or go home, then have the pharmacy call the support line", async () => {
    await open(undefined, { feature_flags: { self_service_addons_enabled: false } });
    expect(screen.queryByRole("link", { name: "I have an order not listed here" })).toBeNull();
    const block = screen.getByRole("region", { name: "An order is not listed here?" });
    expect(block).toHaveTextContent("Tap refresh, or go home and come back. If it is still missing, have the pharmacy call the support line.");
    expect(within(block).getByRole("link", { name: "Call support +1 (800) 555-0199" })).toHaveAttribute("href", "tel:+18005550199");
  });

  it("an unknown pharmacy shows the not-found view", async () => {
    renderPickup("/pharmacies/999/verify_orders", makeDay({ orders: [JOHNSON] }));
    expect(await screen.findByRole("heading", { name: "Not found" })).toBeInTheDocument();
  });

  it("an unknown route under a pharmacy shows the not-found view", async () => {
    renderPickup(`/pharmacies/${RIVERSIDE.id}/nonsense`, makeDay({ orders: [JOHNSON] }));
    expect(await screen.findByRole("heading", { name: "Not found" })).toBeInTheDocument();
  });
});

describe("'Scan' without a usable camera (issue 19)", () => {
  it("permission refused: the reason in words, the typed search as before, and the camera can be tried again", async () => {
    const getUserMedia = vi.fn(async () => {
      throw new DOMException("Permission denied", "NotAllowedError");
    });
    vi.stubGlobal("isSecureContext", true);
    Object.defineProperty(navigator, "mediaDevices", { value: { getUserMedia }, configurable: true });
    try {
      await open();
      await userEvent.click(screen.getByRole("button", { name: "Scan" }));
      expect(await screen.findByRole("alert")).toHaveTextContent(
        "The camera is not allowed for this app: allow it in the browser's site settings, then try again. Search by name in the box above instead.",
      );
      expect(getUserMedia).toHaveBeenCalledWith(expect.objectContaining({ audio: false, video: expect.objectContaining({ facingMode: { ideal: "environment" } }) }));
      await userEvent.type(screen.getByPlaceholderText("Search..."), "abernathy");
      expect(rowNames()).toEqual(["Eleanor Abernathy"]);
      await userEvent.click(screen.getByRole("button", { name: "Try the camera again" }));
      await waitFor(() => expect(getUserMedia).toHaveBeenCalledTimes(2));
      await userEvent.click(await screen.findByRole("button", { name: "Stop scanning" }));
      expect(await screen.findByRole("button", { name: "Scan" })).toBeInTheDocument();
    } finally {
      Reflect.deleteProperty(navigator, "mediaDevices");
      vi.unstubAllGlobals();
    }
  });

  it("a browser without camera access says so", async () => {
    await open();
    await userEvent.click(screen.getByRole("button", { name: "Scan" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This browser cannot use the camera. Search by name in the box above instead.");
  });
});
