import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Order } from "../../../domain/contract/entities.ts";
import { TEXT } from "../../../domain/texts.ts";
import { makePharmacy, orderToDeliver } from "../../support/order-fixtures.ts";
import { mockFetchPerTest, rowNames } from "../../support/ui-fixtures.ts";
import { clickEnabled, expectPath, itineraryWith, renderDelivery, resetHarness } from "./delivery-harness.tsx";
import { offlineEntries } from "./delivery-mocks.ts";

vi.mock("../../../src/shell/offline-queue.ts", async (original) => ({ ...(await original()), ...(await import("./delivery-mocks.ts")).offlineQueueMock }));

/** Spec §2 Delivery list, §4 row indicators, §5/§9 routing. */

const routed = makePharmacy({ id: 1, name: "Riverside Community Pharmacy", routing_enabled: true });
const plain = makePharmacy({ id: 2, name: "Market Street Apothecary", routing_enabled: false });

const order = (id: number, first: string, last: string, overrides: Parameters<typeof orderToDeliver>[3] = {}) => orderToDeliver(id, first, last, { pharmacy: routed, ...overrides });

const fetchMock = mockFetchPerTest();

function answerRouting(ids: number[] | "error", orders: Order[]) {
  fetchMock.mockImplementation(async () =>
    ids === "error"
      ? new Response(JSON.stringify({ error: "boom", message: "boom" }), { status: 500, headers: { "content-type": "application/json" } })
      : new Response(JSON.stringify({ orders: ids.map((id) => orders.find((o) => o.id === id)) }), { status: 200, headers: { "content-type": "application/json" } }),
  );
}

beforeEach(() => {
  resetHarness();
  offlineEntries.length = 0;
});

describe("the delivery list", () => {
  it("lists orders to deliver, completed ones and what goes back, with their indicators", async () => {
    const orders = [
      order(1, "Walter", "Brennan", { pharmacy: plain }),
      order(2, "Eleanor", "Abernathy", { pharmacy: plain, copay: "12.50", delivery_fee: "5.00" }),
      order(3, "Rosa", "Delgado", { pharmacy: plain, status: "delivery_attempted" }),
      order(4, "Grace", "Kowalski", { pharmacy: plain, status: "delivered", copay: "8.00", payment_collected: true, payment_type: "cash" }),
      order(5, "Linda", "Park", { pharmacy: plain, status: "delivered" }),
      order(6, "Samuel", "Okafor", { pharmacy: plain, status: "submitted_to_courier" }),
      order(7, "Paul", "Other", { pharmacy: routed }),
    ];
    offlineEntries.push({ id: 5, orderIds: [5] });
    renderDelivery(itineraryWith(orders), "/pharmacies/2/deliver_orders");
    await screen.findByRole("heading", { name: "Deliveries" });
    expect(screen.getByText("Market Street Apothecary")).toBeInTheDocument();
    // No routing indicator where the pharmacy does not route.
    expect(screen.queryByText(TEXT.notRouted)).toBeNull();

    expect(rowNames("Orders to deliver")).toEqual(["Eleanor Abernathy", "Walter Brennan"]);
    const abernathy = screen.getByRole("link", { name: /Eleanor Abernathy/ });
    expect(abernathy).toHaveAttribute("href", "/pharmacies/2/deliver_orders/2");
    expect(abernathy).toHaveTextContent("not collected");
    expect(screen.getByRole("link", { name: /Walter Brennan/ })).not.toHaveTextContent("not collected");

    expect(rowNames(TEXT.itemsToReturn)).toEqual(["Rosa Delgado", "Grace Kowalski"]);
    const returns = within(screen.getByRole("region", { name: TEXT.itemsToReturn }));
    expect(returns.getByText("Return the order")).toBeInTheDocument();
    expect(returns.getByText("Cash collected: $8.00")).toBeInTheDocument();
    expect(returns.getAllByRole("img", { name: "To return to the pharmacy" })).toHaveLength(2);

    const completed = within(screen.getByRole("region", { name: TEXT.completedSection }));
    expect(rowNames(TEXT.completedSection)).toEqual(["Linda Park"]);
    expect(completed.getByText("incomplete")).toBeInTheDocument();

    expect(screen.getByRole("button", { name: TEXT.allDeliveriesAttempted })).toBeDisabled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the hint when there is nothing to deliver", async () => {
    renderDelivery(itineraryWith([order(6, "Samuel", "Okafor", { pharmacy: plain, status: "submitted_to_courier" })]), "/pharmacies/2/deliver_orders");
    expect(await screen.findByText(TEXT.emptyDeliveryList)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: TEXT.allDeliveriesAttempted })).toBeDisabled();
  });

  it("enables 'All deliveries have been attempted' once every delivery is done, and goes home", async () => {
    const done = [order(3, "Rosa", "Delgado", { pharmacy: plain, status: "delivery_attempted" }), order(5, "Linda", "Park", { pharmacy: plain, status: "delivered" })];
    const { user } = renderDelivery(itineraryWith(done), "/pharmacies/2/deliver_orders");
    await screen.findByRole("heading", { name: "Deliveries" });
    await clickEnabled(user, TEXT.allDeliveriesAttempted);
    await expectPath("/pharmacies");
  });

  it("alerts the courier first when incomplete orders are still on the device", async () => {
    offlineEntries.push({ id: 3, orderIds: [3] });
    const done = [order(3, "Rosa", "Delgado", { pharmacy: plain, status: "delivery_attempted" })];
    const { user } = renderDelivery(itineraryWith(done), "/pharmacies/2/deliver_orders");
    await screen.findByRole("heading", { name: "Deliveries" });
    await clickEnabled(user, TEXT.allDeliveriesAttempted);
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent(TEXT.incompleteOrdersReturnsAlert);
    expect(within(dialog).queryByRole("button", { name: "Cancel" })).toBeNull();
    expect(screen.getByTestId("location")).toHaveTextContent("/pharmacies/2/deliver_orders");
    await user.click(within(dialog).getByRole("button", { name: "OK" }));
    await expectPath("/pharmacies");
  });

  it("shows a not-found view for a pharmacy not in the day", async () => {
    renderDelivery(itineraryWith([]), "/pharmacies/9/deliver_orders");
    expect(await screen.findByRole("heading", { name: "Not found" })).toBeInTheDocument();
  });
});

describe("routing (spec §2, §5 Routing)", () => {
  const three = [order(11, "Ann", "Adams"), order(12, "Ben", "Brown"), order(13, "Cy", "Clark"), order(14, "Di", "Dunn", { status: "delivered" })];

  it("asks for the remaining deliveries' driving order and lists them in it: Routing... then Routed", async () => {
    let answer: (response: Response) => void = () => {};
    fetchMock.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    renderDelivery(itineraryWith(three), "/pharmacies/1/deliver_orders");
    expect(await screen.findByText(TEXT.routing)).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const url = new URL(fetchMock.mock.calls[0]![0].url);
    expect(url.pathname).toBe("/api/routed_orders");
    expect(url.searchParams.get("pharmacy_id")).toBe("1");
    expect(url.searchParams.getAll("order_ids[]")).toEqual(["11", "12", "13"]);
    answer(new Response(JSON.stringify({ orders: [three[2], three[0], three[1]] }), { status: 200, headers: { "content-type": "application/json" } }));
    expect(await screen.findByText(TEXT.routed)).toBeInTheDocument();
    expect(rowNames("Orders to deliver")).toEqual(["Cy Clark", "Ann Adams", "Ben Brown"]);
  });

  it("does not ask with one delivery left, and says Not Routed", async () => {
    const oneLeft = [order(11, "Ann", "Adams"), order(14, "Di", "Dunn", { status: "delivered" })];
    renderDelivery(itineraryWith(oneLeft), "/pharmacies/1/deliver_orders");
    expect(await screen.findByText(TEXT.notRouted)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("keeps its own order, Not Routed, when routing fails", async () => {
    answerRouting("error", three);
    renderDelivery(itineraryWith(three), "/pharmacies/1/deliver_orders");
    expect(await screen.findByText(TEXT.notRouted)).toBeInTheDocument();
    expect(rowNames("Orders to deliver")).toEqual(["Ann Adams", "Ben Brown", "Cy Clark"]);
  });
});
