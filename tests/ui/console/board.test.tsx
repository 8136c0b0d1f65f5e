import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, useLocation } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { StaffSessionResponse } from "../../../domain/contract/staff.ts";
import type { BoardData, ConsoleBoardEvent } from "../../../machines/console-board.machine.ts";
import { consoleSessionMachine } from "../../../machines/console-session.machine.ts";
import { ConsoleApp } from "../../../src/console/ConsoleApp.tsx";
import { localToday } from "../../../src/console/today.ts";
import { boardLogic, boardOrder } from "./board-fixtures.ts";

const SESSION: StaffSessionResponse = { staff: { id: 3, first_name: "Morgan", last_name: "Reyes", role: "dispatcher", pharmacy_id: null }, csrf_token: "csrf-1" };
const DANA = { id: 7, first_name: "Dana", last_name: "Whitfield" };
const SAM = { id: 8, first_name: "Sam", last_name: "Okafor" };
const DAY: BoardData = {
  orders: [
    boardOrder(1, "Ada Lovelace", "new", null),
    boardOrder(2, "Grace Hopper", "submitted_to_courier", DANA.id),
    boardOrder(3, "Alan Turing", "delivered", DANA.id),
    boardOrder(4, "Edsger Dijkstra", "delivery_attempted", SAM.id),
    boardOrder(5, "Barbara Liskov", "cancelled", null),
  ],
  couriers: [DANA, SAM],
};

function Where() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

function renderBoard(load: (serviceDate: string) => Promise<BoardData>) {
  const stream: { send?: (event: ConsoleBoardEvent) => void } = {};
  const loadSpy = vi.fn(load);
  const session = consoleSessionMachine.provide({
    actors: {
      fetchCurrentStaffSession: fromPromise<StaffSessionResponse | null>(async () => SESSION),
      logInStaff: fromPromise(async () => SESSION),
      logOutStaff: fromPromise<void, { csrfToken: string | null }>(async () => undefined),
    },
  });
  render(
    <MemoryRouter initialEntries={["/dispatch"]}>
      <ConsoleApp logic={session} boardLogic={boardLogic(loadSpy, stream)} />
      <Where />
    </MemoryRouter>,
  );
  return { stream, load: loadSpy, user: userEvent.setup() };
}

describe("the day board (issue 27, first slice)", () => {
  it("shows today's orders: counts by status, 'Unassigned', a region per courier with each order's status in words", async () => {
    const { load } = renderBoard(async () => DAY);
    const unassigned = await screen.findByRole("region", { name: /^Unassigned/ });
    expect(load).toHaveBeenCalledWith(localToday());
    expect(screen.getByRole("heading", { name: "Day board" })).toBeInTheDocument();
    expect(screen.getByLabelText("Service date")).toHaveValue(localToday());
    // A cancelled order with no courier is not waiting for one.
    expect(within(unassigned).getByText("Ada Lovelace")).toBeInTheDocument();
    expect(within(unassigned).queryByText("Barbara Liskov")).not.toBeInTheDocument();
    const dana = screen.getByRole("region", { name: /^Courier Dana Whitfield/ });
    expect(within(dana).getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "Grace HopperRX-2 · Riverside Community PharmacyReady for pickup",
      "Alan TuringRX-3 · Riverside Community PharmacyDelivered",
    ]);
    const sam = screen.getByRole("region", { name: /^Courier Sam Okafor/ });
    expect(within(sam).getByText("Delivery attempted")).toBeInTheDocument();
    const counts = within(screen.getByRole("region", { name: "Counts by status" })).getAllByRole("listitem").map((item) => item.textContent);
    expect(counts).toEqual(["5 Orders", "1 New", "1 Ready for pickup", "1 Delivered", "1 Delivery attempted", "1 Cancelled"]);
  });

  it("shows the connection ('Connecting…', 'Live', 'Reconnecting…') and reloads the board on a live event without a reload of the page", async () => {
    let day = DAY;
    const { stream, load } = renderBoard(async () => day);
    await screen.findByRole("region", { name: /^Unassigned/ });
    expect(screen.getByText("Connecting…")).toBeInTheDocument();
    act(() => stream.send!({ type: "STREAM_OPEN" }));
    expect(screen.getByText("Live")).toBeInTheDocument();
    day = { ...DAY, orders: DAY.orders.map((order) => (order.id === 2 ? boardOrder(2, "Grace Hopper", "picked_up", DANA.id) : order)) };
    act(() => stream.send!({ type: "STREAM_EVENT" }));
    const dana = screen.getByRole("region", { name: /^Courier Dana Whitfield/ });
    expect(await within(dana).findByText("Picked up")).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
    act(() => stream.send!({ type: "STREAM_ERROR" }));
    expect(screen.getByText("Reconnecting…")).toBeInTheDocument();
  });

  it("loads another day from 'Service date'", async () => {
    const { load } = renderBoard(async (day) => (day === "2026-12-01" ? { orders: [boardOrder(9, "Katherine Johnson", "new", null)], couriers: [] } : DAY));
    await screen.findByRole("region", { name: /^Unassigned/ });
    // A date input's picker is the browser's own: jsdom takes the value it sets.
    fireEvent.change(screen.getByLabelText("Service date"), { target: { value: "2026-12-01" } });
    expect(await screen.findByText("Katherine Johnson")).toBeInTheDocument();
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
