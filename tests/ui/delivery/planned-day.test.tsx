import { beforeEach, describe, expect, it, vi } from "vitest";
import { TEXT } from "../../../domain/texts.ts";
import { screen, within } from "@testing-library/react";
import { makeOrder, makePharmacy, makeVisit, orderToDeliver } from "../../support/order-fixtures.ts";
import { mockFetchPerTest, rowNames } from "../../support/ui-fixtures.ts";
import { expectPath, itineraryWith, renderDelivery, resetHarness } from "./delivery-harness.tsx";
import { offlineEntries } from "./delivery-mocks.ts";

vi.mock("../../../src/shell/offline-queue.ts", async (original) => ({ ...(await original()), ...(await import("./delivery-mocks.ts")).offlineQueueMock }));

/**
 * Issue 28: the courier's phone follows dispatch's plan, and shows the window
 * promised to each patient. (The itinerary's own order and planned places:
 * tests/api/plans.test.ts.)
 */

const routed = makePharmacy({ id: 1, name: "Riverside Community Pharmacy", routing_enabled: true });
const market = makePharmacy({ id: 2, name: "Market Street Apothecary" });
const fetchMock = mockFetchPerTest();

beforeEach(() => {
  resetHarness();
  offlineEntries.length = 0;
});

describe("the delivery list on a planned day", () => {
  const planned = (id: number, first: string, last: string, position: number, window: [string, string] | null = null) =>
    orderToDeliver(id, first, last, {
      pharmacy: routed,
      planned_position: position,
      planned_pickup_position: 1,
      delivery_window_start: window?.[0] ?? null,
      delivery_window_end: window?.[1] ?? null,
    });

  it("lists the deliveries by planned_position without asking the optimiser, each with its promised window", async () => {
    const orders = [planned(11, "Ann", "Adams", 4), planned(12, "Ben", "Brown", 2, ["14:00", "16:00"]), planned(13, "Cy", "Clark", 3)];
    renderDelivery(itineraryWith(orders), "/pharmacies/1/deliver_orders");
    await screen.findByRole("heading", { name: "Deliveries" });
    expect(rowNames("Orders to deliver")).toEqual(["Ben Brown", "Cy Clark", "Ann Adams"]);
    expect(screen.getByRole("link", { name: /Ben Brown/ })).toHaveTextContent("Deliver 14:00–16:00");
    expect(screen.getByRole("link", { name: /Ann Adams/ })).not.toHaveTextContent("Deliver 1");
    expect(screen.queryByText(TEXT.routing)).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe("the pharmacies list on a planned day", () => {
  // The plan: Riverside (orders 21, 22), deliver them, Market Street (23), deliver, Riverside again (24), deliver.
  const stop = (id: number, pharmacy: typeof routed, pickup: number, status: "submitted_to_courier" | "picked_up" | "delivered" = "submitted_to_courier") =>
    makeOrder({ id, pharmacy, status, copay: "0.00", planned_pickup_position: pickup, planned_position: pickup + 1 });
  const day = (orders: ReturnType<typeof makeOrder>[]) => ({
    ...itineraryWith(orders),
    // The itinerary names each pharmacy once: one visit, to confirm and check in once.
    pharmacy_visits: [makeVisit({ id: 5, pharmacy: routed, confirmed: true }), makeVisit({ id: 6, pharmacy: market, confirmed: true })],
  });
  const pickups = () =>
    within(screen.getByRole("region", { name: TEXT.pickupSection }))
      .getAllByRole("link")
      .map((link) => link.textContent);

  it("lists each pickup in plan order, a pharmacy the plan returns to twice, each with its own count", async () => {
    const { user } = renderDelivery(day([stop(21, routed, 1), stop(22, routed, 1), stop(23, market, 4), stop(24, routed, 6)]), "/pharmacies");
    await screen.findByRole("heading", { name: "Pharmacies" });
    expect(pickups()).toEqual([
      "Riverside Community PharmacyPickup 1 of 2Verify 2",
      "Market Street ApothecaryVerify 1",
      "Riverside Community PharmacyPickup 2 of 2Verify 1",
    ]);
    expect(screen.getByRole("link", { name: /Pickup 2 of 2/ })).toHaveAccessibleName(/1 orders awaiting verification/);
    // The return opens the pharmacy's one check-in list, as the first pickup does.
    await user.click(screen.getByRole("link", { name: /Pickup 2 of 2/ }));
    await expectPath("/pharmacies/1/verify_orders");
  });

  it("drops a pickup once its orders are picked up; the return keeps its place and the deliveries are listed once", async () => {
    renderDelivery(day([stop(21, routed, 1, "picked_up"), stop(22, routed, 1, "delivered"), stop(23, market, 4), stop(24, routed, 6)]), "/pharmacies");
    await screen.findByRole("heading", { name: "Pharmacies" });
    expect(pickups()).toEqual(["Market Street ApothecaryVerify 1", "Riverside Community PharmacyPickup 2 of 2Verify 1"]);
    expect(rowNames(TEXT.deliverSection)).toEqual(["Riverside Community Pharmacy"]);
  });
});
