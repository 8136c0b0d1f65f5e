import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { DISPATCHER, mapOrder, PHARMACIST, renderConsole } from "./console-fixtures.tsx";

// Leaflet's drawing is checked in Chromium (tests/e2e/console-couriers.test.ts); here, the region and its text alternative.
vi.mock("../../../src/console/map/dispatch-map.tsx", () => ({ default: () => <div data-testid="map-canvas" /> }));

const DANA = { id: 7, first_name: "Dana", last_name: "Whitfield" };
const ORDERS = [mapOrder(1, "Ada Lovelace", "delivered", 7, 1), mapOrder(2, "Grace Hopper", "picked_up", 7, 2), mapOrder(3, "Alan Turing", "new", null, 2)];

describe("the board's region 'Map' (issue 27)", () => {
  it("draws the day and says it as a list: each route in its colour, stop by stop with its status, then the stops on no route", async () => {
    renderConsole("/dispatch", { session: DISPATCHER, board: { orders: ORDERS, couriers: [DANA] } });
    const map = await screen.findByRole("region", { name: "Map" });
    expect(await within(map).findByTestId("map-canvas")).toBeInTheDocument();
    await userEvent.setup().click(within(map).getByText("The map as a list"));
    expect(within(map).getByRole("heading", { name: "Courier Dana Whitfield (blue line)" })).toBeInTheDocument();
    expect(within(map).getAllByRole("listitem").map((item) => item.textContent)).toEqual(
      expect.arrayContaining([
        "Pickup at Riverside Community Pharmacy",
        "Ada Lovelace, 1 Pine St, Philadelphia: Delivered",
        "Pickup at Market Street Apothecary",
        "Grace Hopper, 2 Pine St, Philadelphia: Picked up",
        "Alan Turing, 3 Pine St, Philadelphia: New",
      ]),
    );
  });

  it("a pharmacist's map shows their pharmacy's stops only, even if handed more", async () => {
    renderConsole("/dispatch", { session: PHARMACIST, board: { orders: ORDERS, couriers: [] } });
    const map = await screen.findByRole("region", { name: "Map" });
    await userEvent.setup().click(within(map).getByText("The map as a list"));
    expect(within(map).getByText(/Ada Lovelace/)).toBeInTheDocument();
    expect(within(map).queryByText(/Grace Hopper|Alan Turing|Market Street Apothecary/)).not.toBeInTheDocument();
  });
});
