import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { describe, expect, it, vi, type Mock } from "vitest";
import { fromCallback, fromPromise } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { OpsOrderDetail } from "../../../domain/contract/ops.ts";
import type { Proof } from "../../../domain/contract/ops-proof.ts";
import type { StaffSessionResponse } from "../../../domain/contract/staff.ts";
import type { OrderStatusName } from "../../../domain/vocabulary.ts";
import { consoleOrderMachine, type ConsoleOrderEvent, type OrderPageData } from "../../../machines/console-order.machine.ts";
import { consoleSessionMachine } from "../../../machines/console-session.machine.ts";
import { consoleOrderActors } from "../../../src/console/api/order.ts";
import { ConsoleApp } from "../../../src/console/ConsoleApp.tsx";
import { boardLogic } from "./board-fixtures.ts";

const DISPATCHER: StaffSessionResponse = { staff: { id: 3, first_name: "Jordan", last_name: "Reyes", role: "dispatcher", pharmacy_id: null }, csrf_token: "csrf-1", service_time_zone: "America/New_York" };
const PHARMACIST: StaffSessionResponse = { staff: { id: 4, first_name: "Priya", last_name: "Raman", role: "pharmacist", pharmacy_id: 1 }, csrf_token: "csrf-2", service_time_zone: "America/New_York" };
const DANA = { id: 7, first_name: "Dana", last_name: "Whitfield" };
const SAM = { id: 8, first_name: "Sam", last_name: "Okafor" };

function order(status: OrderStatusName, courierId: number | null): OpsOrderDetail {
  return {
    id: 12,
    status: { id: 1, name: status },
    pharmacy: { id: 1, name: "Riverside Community Pharmacy" },
    patient_first_name: "Ada",
    patient_last_name: "Lovelace",
    patient_date_of_birth: "1950-12-10",
    address: { street_address: "5 Elfreth's Alley", street_address_2: null, city: "Philadelphia", state_abbreviation: "PA", zipcode: "19106", latitude: null, longitude: null },
    phone_number: "215.555.0123",
    rx_numbers: ["RX-1", "RX-2"],
    external_id: "RIV-12",
    pickup_note: null,
    copay: "12.50",
    delivery_fee: null,
    other_items_amount_due: "0.00",
    delivery_notes: [],
    collect_identification: false,
    controlled_substance: false,
    signature_required: true,
    pid_order: false,
    courier_id: courierId,
    service_date: "2026-11-26",
    created_at: "2026-11-26T13:00:00Z",
    updated_at: "2026-11-26T13:00:00Z",
    status_history: [
      { from_status: null, to_status: "new", occurred_at: "2026-11-26T13:00:00Z", actor: "staff:3", acted_by: { type: "dispatcher", id: 3, name: "Jordan Reyes" } },
      { from_status: "picked_up", to_status: "delivered", occurred_at: "2026-11-26T16:00:01Z", actor: "courier:7", acted_by: { type: "courier", id: 7, name: "Dana Whitfield" } },
    ],
  } as unknown as OpsOrderDetail;
}

const PROOF = {
  outcome: "delivered",
  courier: { id: 7, first_name: "Dana", last_name: "Whitfield" },
  recipient: { first_name: "Ada", last_name: "Lovelace", relationship: "Patient", other_relationship_description: null },
  signed_by: "Ada Lovelace",
  signature_refusal_reason: null,
  payment: { type: "cash", amount: "12.50", card_last4: null },
  failure: null,
  returned: null,
  client_occurred_at: "2026-11-26T16:00:00Z",
  received_at: "2026-11-26T16:00:01Z",
  signature_url: "/api/ops/v1/orders/12/proof/signature.svg",
  photo_url: null,
} as unknown as Proof;

const page = (status: OrderStatusName, courierId: number | null, extra: Partial<OrderPageData> = {}): OrderPageData => ({
  order: order(status, courierId),
  custody: [{ event: "created", at: "2026-11-26T13:00:00Z", client_occurred_at: null, actor: { type: "dispatcher", id: 3, name: "Jordan Reyes" }, latitude: null, longitude: null, details: {} }] as OrderPageData["custody"],
  proof: null,
  deliveries: [
    {
      id: 1,
      event_id: "msg_1",
      event_type: "order.created",
      status: "delivered",
      attempts: [{ status_code: 200, error: null, attempted_at: "2026-11-26T13:00:01Z", duration_ms: 40 }],
      next_attempt_at: null,
      created_at: "2026-11-26T13:00:00Z",
      delivered_at: "2026-11-26T13:00:01Z",
      subscription_id: 2,
      url: "https://pharmacy.example/hooks",
    },
  ],
  couriers: [DANA, SAM],
  ...extra,
});

type Call<T = void> = (input: unknown) => Promise<T>;
interface Calls {
  load: Mock<Call<OrderPageData>>;
  update: Mock<Call>;
  cancel: Mock<Call>;
  assign: Mock<Call>;
  unassign: Mock<Call>;
  stream: { send?: (event: ConsoleOrderEvent) => void };
}

function renderOrder(
  pages: OrderPageData[],
  options: { session?: StaffSessionResponse; refuse?: Partial<Record<"cancel" | "assign", ApiFailure>>; firstLoadFails?: ApiFailure; realUpdate?: boolean } = {},
) {
  let loads = 0;
  let failed = false;
  const calls: Calls = {
    load: vi.fn<Call<OrderPageData>>(async () => {
      if (options.firstLoadFails && !failed) {
        failed = true;
        throw options.firstLoadFails;
      }
      return pages[Math.min(loads++, pages.length - 1)]!;
    }),
    update: vi.fn<Call>(async () => undefined),
    cancel: vi.fn<Call>(async () => {
      if (options.refuse?.cancel) throw options.refuse.cancel;
    }),
    assign: vi.fn<Call>(async () => {
      if (options.refuse?.assign) throw options.refuse.assign;
    }),
    unassign: vi.fn<Call>(async () => undefined),
    stream: {},
  };
  const logic = consoleOrderMachine.provide({
    actors: {
      loadOrder: fromPromise(({ input }) => calls.load(input)),
      // The console's own update (its check, then PATCH over fetch) where a test is about the check.
      updateOrder: options.realUpdate ? consoleOrderActors.updateOrder : fromPromise(({ input }) => calls.update(input)),
      cancelOrder: fromPromise(({ input }) => calls.cancel(input)),
      assignOrder: fromPromise(({ input }) => calls.assign(input)),
      unassignOrder: fromPromise(({ input }) => calls.unassign(input)),
      orderEvents: fromCallback<ConsoleOrderEvent, { orderId: number }>(({ sendBack }) => {
        calls.stream.send = sendBack;
      }),
    },
  });
  const staff = options.session ?? DISPATCHER;
  const session = consoleSessionMachine.provide({
    actors: {
      fetchCurrentStaffSession: fromPromise<StaffSessionResponse | null>(async () => staff),
      logInStaff: fromPromise(async () => staff),
      logOutStaff: fromPromise<void, { csrfToken: string | null }>(async () => undefined),
    },
  });
  render(
    <MemoryRouter initialEntries={["/dispatch/orders/12"]}>
      <ConsoleApp logic={session} boardLogic={boardLogic(async () => ({ orders: [], couriers: [] }))} orderLogic={logic} />
    </MemoryRouter>,
  );
  return { calls, user: userEvent.setup() };
}

describe("the order page (issue 27)", () => {
  it("shows the patient's name, the order's fields, status history, custody, proof and the webhooks sent", async () => {
    renderOrder([page("delivered", 7, { proof: PROOF })]);
    expect(await screen.findByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeInTheDocument();
    const fields = screen.getByRole("region", { name: "Order" });
    expect(within(fields).getByText("RIV-12")).toBeInTheDocument();
    expect(within(fields).getByText("Dana Whitfield")).toBeInTheDocument();
    expect(within(fields).getByText("$12.50")).toBeInTheDocument();
    // The phone as read (stored as the pharmacy sent it).
    expect(within(fields).getByText("(215) 555-0123")).toBeInTheDocument();
    // The status history names who acted as the chain of custody does, never by number.
    const history = screen.getByRole("region", { name: "Status history" });
    expect(within(history).getByText("New")).toBeInTheDocument();
    expect(within(history).getByText("Dispatcher: Jordan Reyes")).toBeInTheDocument();
    expect(within(history).getByText("Courier: Dana Whitfield")).toBeInTheDocument();
    expect(history).not.toHaveTextContent("#");
    expect(within(screen.getByRole("region", { name: "Chain of custody" })).getByText("Dispatcher: Jordan Reyes")).toBeInTheDocument();
    const proof = screen.getByRole("region", { name: "Proof of delivery" });
    expect(within(proof).getByText("Ada Lovelace (Patient)")).toBeInTheDocument();
    expect(within(proof).getByRole("img", { name: "Signature of Ada Lovelace" })).toHaveAttribute("src", "/api/ops/v1/orders/12/proof/signature.svg");
    expect(within(proof).getByRole("link", { name: "Proof PDF" })).toHaveAttribute("href", "/api/ops/v1/orders/12/proof.pdf");
    const hooks = screen.getByRole("region", { name: "Webhooks sent" });
    expect(within(hooks).getByRole("cell", { name: "https://pharmacy.example/hooks" })).toBeInTheDocument();
    expect(within(hooks).getByRole("cell", { name: "order.created" })).toBeInTheDocument();
    // Delivered: nothing may change any more, and the page says why.
    expect(screen.queryByRole("button", { name: "Edit order" })).not.toBeInTheDocument();
    expect(screen.getByText("This order was picked up: it can no longer be edited, cancelled or moved to another courier.")).toBeInTheDocument();
  });

  it("gives every time in the service's time zone, not the computer's", async () => {
    renderOrder([page("new", null)], { session: { ...DISPATCHER, service_time_zone: "America/Los_Angeles" } });
    const fields = await screen.findByRole("region", { name: "Order" });
    // Created 2026-11-26T13:00:00Z: 5:00 AM in Los Angeles (8:00 AM in New York, 1:00 PM in UTC).
    expect(within(fields).getByText(/^Nov 26, 2026, 5:00\sAM$/)).toBeInTheDocument();
  });

  it("an attempted delivery says what happens next: back to the pharmacy, signed for by its staff", async () => {
    renderOrder([page("delivery_attempted", 7)]);
    const next = await screen.findByRole("region", { name: "What happens next" });
    expect(next).toHaveTextContent("The courier brings the order back to the pharmacy, where a member of the pharmacy's staff signs for it");
  });

  it("edits an order before pickup: only the changed field is sent, with the CSRF token, and the page reloads", async () => {
    const { calls, user } = renderOrder([page("new", null), { ...page("new", null), order: { ...order("new", null), phone_number: "(215) 555-0100" } }]);
    await user.click(await screen.findByRole("button", { name: "Edit order" }));
    expect(screen.getByLabelText("Patient first name")).toHaveFocus();
    const phone = screen.getByLabelText("Phone number");
    await user.clear(phone);
    await user.type(phone, "215-555-0100");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(calls.update).toHaveBeenCalledWith({ orderId: 12, changes: { phone_number: "215-555-0100" }, csrfToken: "csrf-1" }));
    expect(await screen.findByText("Changes saved.")).toBeInTheDocument();
    expect(within(screen.getByRole("region", { name: "Order" })).getByText("(215) 555-0100")).toBeInTheDocument();
    expect(calls.load).toHaveBeenCalledTimes(2);
  });

  it("refuses an invalid change in the rules' words and sends nothing", async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal("fetch", fetchSpy);
    const { user } = renderOrder([page("new", null)], { realUpdate: true });
    await user.click(await screen.findByRole("button", { name: "Edit order" }));
    const zip = screen.getByLabelText("ZIP code");
    await user.clear(zip);
    await user.type(zip, "1910");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The changes were not saved: zipcode must be a ZIP code: 5 digits, or 5+4.");
    expect(fetchSpy).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
    await user.click(screen.getByRole("button", { name: "Discard changes" }));
    expect(screen.getByRole("button", { name: "Edit order" })).toBeInTheDocument();
  });

  it("cancels after asking; a refusal is said in the server's words", async () => {
    const refusal: ApiFailure = { kind: "refused", status: 409, message: "Order 12 is picked up: it left the pharmacy and can no longer be cancelled.", code: "conflict" };
    const { calls, user } = renderOrder([page("submitted_to_courier", 7)], { refuse: { cancel: refusal } });
    await user.click(await screen.findByRole("button", { name: "Cancel order" }));
    const dialog = screen.getByRole("alertdialog", { name: "Cancel this order?" });
    expect(within(dialog).getByRole("button", { name: "Keep order" })).toHaveFocus();
    await user.click(within(dialog).getByRole("button", { name: "Yes, cancel order" }));
    await waitFor(() => expect(calls.cancel).toHaveBeenCalledWith({ orderId: 12, csrfToken: "csrf-1" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(refusal.message);
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
  });

  it("assigns an unassigned order to the courier chosen, for its service date", async () => {
    const { calls, user } = renderOrder([page("new", null), page("submitted_to_courier", 8)]);
    await user.selectOptions(await screen.findByLabelText("Courier"), "Sam Okafor");
    await user.click(screen.getByRole("button", { name: "Assign" }));
    await waitFor(() => expect(calls.assign).toHaveBeenCalledWith({ orderId: 12, courierId: 8, serviceDate: "2026-11-26", csrfToken: "csrf-1" }));
    expect(await screen.findByText("Order assigned.")).toBeInTheDocument();
    // Assigned now: it can be moved (to someone else) or unassigned.
    expect(screen.getByRole("button", { name: "Move to courier" })).toBeInTheDocument();
    expect(within(screen.getByLabelText("Courier")).queryByRole("option", { name: "Sam Okafor" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Unassign" }));
    await waitFor(() => expect(calls.unassign).toHaveBeenCalledWith({ orderId: 12, csrfToken: "csrf-1" }));
  });

  it("reloads when the event stream names the order", async () => {
    const { calls } = renderOrder([page("submitted_to_courier", 7), page("picked_up", 7)]);
    await screen.findByRole("heading", { level: 1, name: "Ada Lovelace" });
    calls.stream.send!({ type: "ORDER_CHANGED" });
    expect(await screen.findByText("Picked up")).toBeInTheDocument();
    expect(calls.load).toHaveBeenCalledTimes(2);
  });

  it("a pharmacist may edit and cancel their order but is offered no courier", async () => {
    renderOrder([page("new", null, { couriers: [] })], { session: PHARMACIST });
    expect(await screen.findByRole("button", { name: "Edit order" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Cancel order" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Courier")).not.toBeInTheDocument();
    expect(screen.getByText("Dispatch assigns orders to couriers.")).toBeInTheDocument();
  });

  it("says why the order could not load, and 'Try again' loads it", async () => {
    const { calls, user } = renderOrder([page("new", null)], { firstLoadFails: { kind: "refused", status: 404, message: "Order 12 was not found.", code: "not_found" } });
    expect(await screen.findByRole("alert")).toHaveTextContent("Order 12 was not found.");
    expect(screen.getByRole("heading", { level: 1, name: "Order 12" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeInTheDocument();
    expect(calls.load).toHaveBeenCalledTimes(2);
  });
});
