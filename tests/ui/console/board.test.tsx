import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, useLocation } from "react-router";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { fromPromise } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { OpsOrder } from "../../../domain/contract/ops.ts";
import type { StaffSessionResponse } from "../../../domain/contract/staff.ts";
import { calendarDate } from "../../../domain/dates.ts";
import type { AssignInput, BoardData, ConsoleBoardEvent } from "../../../machines/console-board.machine.ts";
import { consoleSessionMachine } from "../../../machines/console-session.machine.ts";
import { ConsoleApp } from "../../../src/console/ConsoleApp.tsx";
import { boardLogic, boardOrder, type BoardCalls } from "./board-fixtures.ts";

const ZONE = "America/New_York";
const DISPATCHER: StaffSessionResponse = {
  staff: { id: 3, first_name: "Morgan", last_name: "Reyes", role: "dispatcher", pharmacy_id: null },
  csrf_token: "csrf-1",
  service_time_zone: ZONE,
};
const PHARMACIST: StaffSessionResponse = {
  staff: { id: 4, first_name: "Priya", last_name: "Shah", role: "pharmacist", pharmacy_id: 1 },
  csrf_token: "csrf-2",
  service_time_zone: ZONE,
};
const DANA = { id: 7, first_name: "Dana", last_name: "Whitfield" };
const SAM = { id: 8, first_name: "Sam", last_name: "Okafor" };
const DAY: BoardData = {
  orders: [
    boardOrder(1, "Ada Lovelace", "new", null),
    boardOrder(2, "Grace Hopper", "submitted_to_courier", DANA),
    boardOrder(3, "Alan Turing", "delivered", DANA),
    boardOrder(4, "Edsger Dijkstra", "delivery_attempted", SAM),
    boardOrder(5, "Barbara Liskov", "cancelled", null),
    boardOrder(6, "Katherine Johnson", "new", null),
    boardOrder(9, "Frances Allen", "new", null),
  ],
  couriers: [DANA, SAM],
};

function Where() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

function renderBoard(load: (serviceDate: string) => Promise<BoardData>, options: { session?: StaffSessionResponse; calls?: BoardCalls } = {}) {
  const stream: { send?: (event: ConsoleBoardEvent) => void } = {};
  const loadSpy = vi.fn(load);
  const staffSession = options.session ?? DISPATCHER;
  const session = consoleSessionMachine.provide({
    actors: {
      fetchCurrentStaffSession: fromPromise<StaffSessionResponse | null>(async () => staffSession),
      logInStaff: fromPromise(async () => staffSession),
      logOutStaff: fromPromise<void, { csrfToken: string | null }>(async () => undefined),
    },
  });
  render(
    <MemoryRouter initialEntries={["/dispatch"]}>
      <ConsoleApp logic={session} boardLogic={boardLogic(loadSpy, stream, options.calls)} />
      <Where />
    </MemoryRouter>,
  );
  return { stream, load: loadSpy, user: userEvent.setup() };
}

/** A call the test answers when it chooses: the board's state in between is the optimistic one. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const region = (name: RegExp) => screen.getByRole("region", { name });
const namesIn = (element: HTMLElement) => within(element).queryAllByRole("listitem").map((item) => item.querySelector(".console-order__who")?.textContent);

afterEach(() => vi.useRealTimers());

describe("the day board (issue 27)", () => {
  it("shows today's orders: counts by status, 'Unassigned', a region per courier with each order's status in words", async () => {
    const { load } = renderBoard(async () => DAY);
    const unassigned = await screen.findByRole("region", { name: /^Unassigned/ });
    const today = calendarDate(new Date(), ZONE);
    expect(load).toHaveBeenCalledWith(today);
    expect(screen.getByRole("heading", { name: "Day board" })).toBeInTheDocument();
    expect(screen.getByLabelText("Service date")).toHaveValue(today);
    // A cancelled order with no courier is not waiting for one.
    expect(namesIn(unassigned)).toEqual(["Ada Lovelace RX-1", "Katherine Johnson RX-6", "Frances Allen RX-9"]);
    const dana = region(/^Courier Dana Whitfield/);
    expect(namesIn(dana)).toEqual(["Grace Hopper RX-2", "Alan Turing RX-3"]);
    expect(within(dana).getByText("Ready for pickup")).toBeInTheDocument();
    expect(within(dana).getByText("Delivered")).toBeInTheDocument();
    expect(within(region(/^Courier Sam Okafor/)).getByText("Delivery attempted")).toBeInTheDocument();
    const counts = within(screen.getByRole("region", { name: "Counts by status" })).getAllByRole("listitem").map((item) => item.textContent);
    expect(counts).toEqual(["7 Orders", "3 New", "1 Ready for pickup", "1 Delivered", "1 Delivery attempted", "1 Cancelled"]);
  });

  it("takes today in the service's time zone, not the browser's", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    // 03:00 UTC on the 27th is still the 26th in Los Angeles.
    vi.setSystemTime(new Date("2026-11-27T03:00:00Z"));
    const { load } = renderBoard(async () => DAY, { session: { ...DISPATCHER, service_time_zone: "America/Los_Angeles" } });
    await screen.findByRole("region", { name: /^Unassigned/ });
    expect(load).toHaveBeenCalledWith("2026-11-26");
    expect(screen.getByLabelText("Service date")).toHaveValue("2026-11-26");
  });

  it("lists a courier's orders in the driving order: the plan's places first, then the rest as the courier's day lists them", async () => {
    const day: BoardData = {
      orders: [
        boardOrder(11, "Ann First", "submitted_to_courier", DANA, { planned_position: 9 }),
        boardOrder(12, "Ben Second", "submitted_to_courier", DANA, { planned_position: 3 }),
        boardOrder(13, "Cal Unplanned", "submitted_to_courier", DANA),
        boardOrder(14, "Dee Third", "picked_up", DANA, { planned_position: 5 }),
      ],
      couriers: [DANA],
    };
    renderBoard(async () => day);
    await screen.findByRole("region", { name: /^Unassigned/ });
    expect(namesIn(region(/^Courier Dana Whitfield/))).toEqual(["Ben Second RX-12", "Dee Third RX-14", "Ann First RX-11", "Cal Unplanned RX-13"]);
  });

  it("shows the connection ('Connecting…', 'Live', 'Reconnecting…') and updates the order a live event names without a reload of the page or of the day", async () => {
    let day = DAY;
    const fetched: number[][] = [];
    const fetchOrders = async (input: { serviceDate: string; orderIds: number[] }) => {
      fetched.push(input.orderIds);
      return { orderIds: input.orderIds, orders: day.orders.filter((order) => input.orderIds.includes(order.id)) };
    };
    const { stream, load } = renderBoard(async () => day, { calls: { fetchOrders } });
    await screen.findByRole("region", { name: /^Unassigned/ });
    expect(screen.getByText("Connecting…")).toBeInTheDocument();
    act(() => stream.send!({ type: "STREAM_OPEN" }));
    expect(screen.getByText("Live")).toBeInTheDocument();
    const pickedUpAt = "2026-11-26T14:00:00.000Z";
    day = { ...DAY, orders: DAY.orders.map((order) => (order.id === 2 ? boardOrder(2, "Grace Hopper", "picked_up", DANA, { updated_at: pickedUpAt }) : order)) };
    act(() => stream.send!({ type: "STREAM_EVENT", orders: [{ id: 2, updated_at: pickedUpAt }] }));
    expect(await within(region(/^Courier Dana Whitfield/)).findByText("Picked up")).toBeInTheDocument();
    // Only order 2 was asked for; the day was loaded once.
    expect(fetched).toEqual([[2]]);
    expect(load).toHaveBeenCalledTimes(1);
    // The same change announced again (the board has it as it is): nothing is asked for.
    act(() => stream.send!({ type: "STREAM_EVENT", orders: [{ id: 2, updated_at: pickedUpAt }] }));
    // An order of the day the board has not seen joins it; one moved to another day leaves it.
    day = { ...day, orders: [boardOrder(21, "Mary Jackson", "new", null, { updated_at: pickedUpAt }), ...day.orders.filter((order) => order.id !== 6)] };
    act(() => stream.send!({ type: "STREAM_EVENT", orders: [{ id: 21, updated_at: pickedUpAt }] }));
    expect(await within(region(/^Unassigned/)).findByRole("checkbox", { name: /Mary Jackson/ })).toBeInTheDocument();
    act(() => stream.send!({ type: "STREAM_EVENT", orders: [{ id: 6, updated_at: pickedUpAt }] }));
    await waitFor(() => expect(within(region(/^Unassigned/)).queryByRole("checkbox", { name: /Katherine Johnson/ })).toBeNull());
    expect(fetched).toEqual([[2], [21], [6]]);
    expect(load).toHaveBeenCalledTimes(1);
    // An event the board cannot apply loads the day again.
    act(() => stream.send!({ type: "STREAM_EVENT", orders: null }));
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    act(() => stream.send!({ type: "STREAM_ERROR" }));
    expect(screen.getByText("Reconnecting…")).toBeInTheDocument();
    // Back after a drop: the day again, so nothing missed while it was down stays missed.
    act(() => stream.send!({ type: "STREAM_OPEN" }));
    expect(screen.getByText("Live")).toBeInTheDocument();
    await waitFor(() => expect(load).toHaveBeenCalledTimes(3));
  });

  it("loads another day from 'Service date'", async () => {
    const { load } = renderBoard(async (day) => (day === "2026-12-01" ? { orders: [boardOrder(19, "Mary Jackson", "new", null)], couriers: [] } : DAY));
    await screen.findByRole("region", { name: /^Unassigned/ });
    // A date input's picker is the browser's own: jsdom takes the value it sets.
    fireEvent.change(screen.getByLabelText("Service date"), { target: { value: "2026-12-01" } });
    expect(await screen.findByText("Mary Jackson")).toBeInTheDocument();
    expect(load).toHaveBeenLastCalledWith("2026-12-01");
    expect(screen.queryByRole("region", { name: /^Courier/ })).not.toBeInTheDocument();
  });

  it("says a failed load in words with 'Try again'", async () => {
    let fail = true;
    const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
    const { user } = renderBoard(async () => (fail ? Promise.reject(offline) : DAY));
    expect(await screen.findByRole("alert")).toHaveTextContent("The server cannot be reached. Check the connection, then choose 'Try again'.");
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("region", { name: /^Unassigned/ })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("returns to the login screen when the session has ended (401)", async () => {
    const ended: ApiFailure = { kind: "unauthenticated", status: 401, message: "Log in to continue.", code: "unauthenticated" };
    renderBoard(async () => Promise.reject(ended));
    expect(await screen.findByRole("button", { name: "Log in" })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId("path")).toHaveTextContent("/dispatch/login"));
    expect(screen.getByRole("alert")).toHaveTextContent("Your session has ended. Please log in again.");
  });
});

describe("assigning on the board (issue 27)", () => {
  const answered = (input: AssignInput, courier = SAM): OpsOrder[] =>
    input.orderIds.map((id) => {
      const before = DAY.orders.find((order) => order.id === id)!;
      return boardOrder(id, `${before.patient_first_name} ${before.patient_last_name}`, "submitted_to_courier", courier);
    });

  it("assigns the checked orders to the chosen 'Courier': shown at once, kept when the server agrees", async () => {
    const call = deferred<OpsOrder[]>();
    const assign = vi.fn((_input: AssignInput) => call.promise);
    const { user } = renderBoard(async () => DAY, { calls: { assign } });
    await screen.findByRole("region", { name: /^Unassigned/ });
    await user.click(screen.getByRole("checkbox", { name: "Ada Lovelace RX-1" }));
    await user.click(screen.getByRole("checkbox", { name: "Grace Hopper RX-2" }));
    expect(screen.getByRole("checkbox", { name: "Ada Lovelace RX-1" })).toBeChecked();
    expect(within(screen.getByRole("region", { name: "Assign orders" })).getByText("selected").parentElement).toHaveTextContent("2 selected");
    await user.selectOptions(screen.getByRole("combobox", { name: "Courier" }), "Sam Okafor");
    await user.click(screen.getByRole("button", { name: "Assign" }));
    expect(assign).toHaveBeenCalledWith({ csrfToken: "csrf-1", courierId: SAM.id, serviceDate: calendarDate(new Date(), ZONE), orderIds: [1, 2] });
    // Before the answer: the board already shows them with Sam.
    expect(namesIn(region(/^Courier Sam Okafor/))).toEqual(["Ada Lovelace RX-1", "Grace Hopper RX-2", "Edsger Dijkstra RX-4"]);
    expect(namesIn(region(/^Unassigned/))).toEqual(["Katherine Johnson RX-6", "Frances Allen RX-9"]);
    await act(async () => call.resolve(answered(assign.mock.calls[0]![0])));
    expect(await screen.findByText("2 orders assigned to Sam Okafor.")).toBeInTheDocument();
    expect(namesIn(region(/^Courier Sam Okafor/))).toEqual(["Ada Lovelace RX-1", "Grace Hopper RX-2", "Edsger Dijkstra RX-4"]);
    expect(screen.getByRole("checkbox", { name: "Ada Lovelace RX-1" })).not.toBeChecked();
  });

  it("selects a range with shift-click, from the last order checked", async () => {
    const { user } = renderBoard(async () => DAY);
    await screen.findByRole("region", { name: /^Unassigned/ });
    await user.click(screen.getByRole("checkbox", { name: "Ada Lovelace RX-1" }));
    await user.keyboard("{Shift>}");
    await user.click(screen.getByRole("checkbox", { name: "Frances Allen RX-9" }));
    await user.keyboard("{/Shift}");
    for (const name of ["Ada Lovelace RX-1", "Katherine Johnson RX-6", "Frances Allen RX-9"]) expect(screen.getByRole("checkbox", { name })).toBeChecked();
    await user.click(screen.getByRole("button", { name: "Clear selection" }));
    expect(screen.getByRole("checkbox", { name: "Katherine Johnson RX-6" })).not.toBeChecked();
  });

  it("rolls the board back when the server refuses, and says why", async () => {
    const refusal: ApiFailure = { kind: "refused", status: 409, message: "Order 2 is picked up: only an order not yet picked up can be assigned.", code: "conflict" };
    const call = deferred<OpsOrder[]>();
    const { user } = renderBoard(async () => DAY, { calls: { assign: () => call.promise } });
    await screen.findByRole("region", { name: /^Unassigned/ });
    await user.click(screen.getByRole("checkbox", { name: "Ada Lovelace RX-1" }));
    await user.click(screen.getByRole("checkbox", { name: "Grace Hopper RX-2" }));
    await user.selectOptions(screen.getByRole("combobox", { name: "Courier" }), "Sam Okafor");
    await user.click(screen.getByRole("button", { name: "Assign" }));
    expect(namesIn(region(/^Courier Sam Okafor/))).toContain("Ada Lovelace RX-1");
    await act(async () => call.reject(refusal));
    expect(await screen.findByRole("alert")).toHaveTextContent("The orders were not assigned: Order 2 is picked up: only an order not yet picked up can be assigned.");
    expect(namesIn(region(/^Unassigned/))).toEqual(["Ada Lovelace RX-1", "Katherine Johnson RX-6", "Frances Allen RX-9"]);
    expect(namesIn(region(/^Courier Dana Whitfield/))).toEqual(["Grace Hopper RX-2", "Alan Turing RX-3"]);
    // Still selected, for another try.
    expect(screen.getByRole("checkbox", { name: "Ada Lovelace RX-1" })).toBeChecked();
  });

  it("will not move a delivered or picked-up order: the reason in words, nothing sent", async () => {
    const assign = vi.fn(async (input: AssignInput) => answered(input));
    const { user } = renderBoard(async () => DAY, { calls: { assign } });
    await screen.findByRole("region", { name: /^Unassigned/ });
    await user.click(screen.getByRole("checkbox", { name: "Alan Turing RX-3" }));
    await user.click(screen.getByRole("button", { name: "Assign" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Choose a courier in 'Courier', then choose 'Assign'.");
    await user.selectOptions(screen.getByRole("combobox", { name: "Courier" }), "Sam Okafor");
    await user.click(screen.getByRole("button", { name: "Assign" }));
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Nothing was assigned: Alan Turing (RX-3) is delivered: only an order not yet picked up can move to another courier.",
    );
    expect(assign).not.toHaveBeenCalled();
    // No 'Unassign' on an order already delivered; one on an order not yet picked up.
    const dana = region(/^Courier Dana Whitfield/);
    expect(within(dana).getAllByRole("button", { name: "Unassign" })).toHaveLength(1);
  });

  it("unassigns an order not yet picked up with 'Unassign'", async () => {
    const unassign = vi.fn(async ({ orderId }: { orderId: number }) => boardOrder(orderId, "Grace Hopper", "new", null));
    const { user } = renderBoard(async () => DAY, { calls: { unassign } });
    const dana = await screen.findByRole("region", { name: /^Courier Dana Whitfield/ });
    const button = within(dana).getByRole("button", { name: "Unassign" });
    expect(button).toHaveAccessibleDescription("Grace Hopper RX-2");
    await user.click(button);
    expect(unassign).toHaveBeenCalledWith({ csrfToken: "csrf-1", orderId: 2 });
    expect(await screen.findByText("1 order unassigned.")).toBeInTheDocument();
    expect(namesIn(region(/^Unassigned/))).toContain("Grace Hopper RX-2");
  });

  it("moves between orders with the arrow keys, Home and End, and checks with Space", async () => {
    const { user } = renderBoard(async () => DAY);
    await screen.findByRole("region", { name: /^Unassigned/ });
    screen.getByRole("checkbox", { name: "Ada Lovelace RX-1" }).focus();
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("checkbox", { name: "Katherine Johnson RX-6" })).toHaveFocus();
    await user.keyboard("{End}");
    expect(screen.getByRole("checkbox", { name: "Frances Allen RX-9" })).toHaveFocus();
    await user.keyboard(" ");
    expect(screen.getByRole("checkbox", { name: "Frances Allen RX-9" })).toBeChecked();
    await user.keyboard("{Home}");
    expect(screen.getByRole("checkbox", { name: "Ada Lovelace RX-1" })).toHaveFocus();
  });

  it("keeps a long region virtual: a window of its rows in the page, each saying its place of how many", async () => {
    const orders = Array.from({ length: 2000 }, (_, i) => boardOrder(1000 + i, `Patient N${i}`, "new", null));
    // jsdom lays nothing out: the region's list is given the height a browser gives it (24rem).
    const sized = (size: number) =>
      function (this: HTMLElement) {
        return this.classList.contains("console-region__scroll") ? size : 0;
      };
    vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockImplementation(sized(384));
    vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockImplementation(sized(320));
    vi.spyOn(HTMLElement.prototype, "scrollHeight", "get").mockImplementation(sized(2000 * 60));
    // Nor does it scroll: scrollTo moves the list and says so, as a browser does.
    const offsets = new WeakMap<HTMLElement, number>();
    vi.spyOn(HTMLElement.prototype, "scrollTop", "get").mockImplementation(function (this: HTMLElement) {
      return offsets.get(this) ?? 0;
    });
    const ownScrollTo = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "scrollTo");
    onTestFinished(() => {
      if (ownScrollTo) Object.defineProperty(HTMLElement.prototype, "scrollTo", ownScrollTo);
      else delete (HTMLElement.prototype as Partial<HTMLElement>).scrollTo;
      vi.restoreAllMocks();
    });
    HTMLElement.prototype.scrollTo = function (this: HTMLElement, options?: ScrollToOptions | number) {
      offsets.set(this, typeof options === "object" ? (options.top ?? 0) : 0);
      this.dispatchEvent(new Event("scroll"));
    } as typeof HTMLElement.prototype.scrollTo;
    renderBoard(async () => ({ orders, couriers: [DANA] }));
    const unassigned = await screen.findByRole("region", { name: /^Unassigned/ });
    const items = within(unassigned).getAllByRole("listitem");
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThan(60);
    expect(items[0]).toHaveAttribute("aria-setsize", "2000");
    expect(items[0]).toHaveAttribute("aria-posinset", "1");
    expect(within(unassigned).getByRole("heading")).toHaveTextContent("Unassigned (2000)");
    // End goes to the last order: the list scrolls to it and it takes the focus.
    within(unassigned).getByRole("checkbox", { name: "Patient N0 RX-1000" }).focus();
    fireEvent.keyDown(document.activeElement!, { key: "End" });
    await waitFor(() => expect(within(unassigned).getByRole("checkbox", { name: "Patient N1999 RX-2999" })).toHaveFocus());
    expect(within(unassigned).getByRole("checkbox", { name: "Patient N1999 RX-2999" }).closest("li")).toHaveAttribute("aria-posinset", "2000");
  });
});

describe("'Needs attention' (issue 27)", () => {
  it("lists attempted deliveries not yet returned and failed or voided card payments, each with what to do next", async () => {
    const day: BoardData = {
      orders: [
        boardOrder(4, "Edsger Dijkstra", "delivery_attempted", SAM),
        boardOrder(21, "Radia Perlman", "picked_up", DANA, { card_payment_status: "declined" }),
        boardOrder(22, "Hedy Lamarr", "delivery_attempted", DANA, { card_payment_status: "voided" }),
        boardOrder(23, "Joan Clarke", "delivered", DANA, { card_payment_status: "settled" }),
        boardOrder(24, "Lynn Conway", "returned_to_pharmacy", DANA),
      ],
      couriers: [DANA, SAM],
    };
    renderBoard(async () => day);
    const attention = await screen.findByRole("region", { name: /^Needs attention/ });
    const items = within(attention).getAllByRole("listitem");
    expect(items).toHaveLength(4);
    expect(items[0]).toHaveTextContent("Edsger Dijkstra RX-4");
    expect(items[0]).toHaveTextContent("Delivery attempted, not yet returned to the pharmacy.");
    expect(items[0]).toHaveTextContent("Next: The courier brings it back to the pharmacy, where staff sign for the return");
    expect(items[1]).toHaveTextContent("Radia Perlman RX-21");
    expect(items[1]).toHaveTextContent("The card payment failed.");
    expect(items[1]).toHaveTextContent("Next: Call the patient for another card");
    expect(items[3]).toHaveTextContent("The card payment was voided: the patient was not charged.");
    expect(within(attention).queryByText(/Joan Clarke|Lynn Conway/)).not.toBeInTheDocument();
  });

  it("lists orders not picked up within an hour of their pharmacy's closing time, none while it has none", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    // 17:10 in New York; Riverside closes at 18:00.
    vi.setSystemTime(new Date("2026-11-26T22:10:00Z"));
    const day: BoardData = {
      orders: [
        boardOrder(31, "Ada Lovelace", "new", null, { closing_time: "18:00" }),
        boardOrder(32, "Grace Hopper", "submitted_to_courier", DANA, { closing_time: "18:00" }),
        boardOrder(33, "Alan Turing", "picked_up", DANA, { closing_time: "18:00" }),
        boardOrder(34, "Mary Jackson", "new", null, { closing_time: "19:30" }),
        boardOrder(35, "Katherine Johnson", "new", null),
      ],
      couriers: [DANA],
    };
    renderBoard(async () => day);
    const attention = await screen.findByRole("region", { name: /^Needs attention/ });
    const items = within(attention).getAllByRole("listitem");
    expect(items.map((item) => within(item).getByRole("link").textContent)).toEqual(["Ada Lovelace", "Grace Hopper"]);
    expect(items[0]).toHaveTextContent("Not picked up, and Riverside Community Pharmacy closes at 18:00.");
    expect(items[0]).toHaveTextContent("Next: Assign a courier who can reach Riverside Community Pharmacy before 18:00.");
    expect(items[1]).toHaveTextContent("Next: Call the courier: they must pick it up before 18:00, or move it to a courier who can.");
  });

  it("says when nothing needs attention", async () => {
    renderBoard(async () => ({ orders: [boardOrder(1, "Ada Lovelace", "new", null)], couriers: [] }));
    const attention = await screen.findByRole("region", { name: /^Needs attention/ });
    expect(attention).toHaveTextContent("Nothing needs a decision right now.");
  });
});

describe("a pharmacist's board (issue 27)", () => {
  it("names the couriers carrying the pharmacy's orders, and has nothing to assign with", async () => {
    // GET couriers is dispatch only: the names come with the orders.
    renderBoard(async () => ({ orders: DAY.orders, couriers: [] }), { session: PHARMACIST });
    await screen.findByRole("region", { name: /^Unassigned/ });
    expect(region(/^Courier Dana Whitfield/)).toBeInTheDocument();
    expect(region(/^Courier Sam Okafor/)).toBeInTheDocument();
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: "Courier" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Unassign" })).not.toBeInTheDocument();
  });
});
