import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TEXT } from "../../../domain/texts.ts";
import { screen, within } from "@testing-library/react";
import { makeOrder, makePharmacy } from "../../support/order-fixtures.ts";
import { itineraryWith, renderDelivery, resetHarness } from "./delivery-harness.tsx";
import { offlineEntries } from "./delivery-mocks.ts";

vi.mock("../../../src/app/offline-queue.ts", async (original) => ({ ...(await original()), ...(await import("./delivery-mocks.ts")).offlineQueueMock }));

/**
 * Issue 28: the courier's phone follows dispatch's plan, and shows the window
 * promised to each patient. (The pharmacies come in plan order from the
 * itinerary itself: tests/api/plans.test.ts.)
 */

const routed = makePharmacy({ id: 1, name: "Riverside Community Pharmacy", routing_enabled: true });
const fetchMock = vi.fn<(request: Request) => Promise<Response>>();

const rowNames = (section: string) =>
  within(screen.getByRole("region", { name: section }))
    .getAllByRole("listitem")
    .map((item) => item.querySelector(".row-link__name")!.textContent);

beforeEach(() => {
  resetHarness();
  offlineEntries.length = 0;
  fetchMock.mockReset();
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe("the delivery list on a planned day", () => {
  const planned = (id: number, first: string, last: string, position: number, window: [string, string] | null = null) =>
    makeOrder({
      id,
      patient_first_name: first,
      patient_last_name: last,
      status: "picked_up",
      copay: "0.00",
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
