import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { Order } from "../../../domain/contract/entities.ts";
import { TEXT, fill } from "../../../domain/texts.ts";
import { makeOrder, makePharmacy } from "../../support/order-fixtures.ts";
import { callOf, clickEnabled, deliveryMocks, expectPath, itineraryWith, renderDelivery, resetHarness, SUPPORT_PHONE_SHOWN } from "./delivery-harness.tsx";

vi.mock("../../../src/api/deliveries.ts", async (original) => ({ ...(await original()), ...(await import("./delivery-mocks.ts")).deliveryMocks.deliveries }));
vi.mock("../../../src/api/payments.ts", async (original) => ({ ...(await original()), ...(await import("./delivery-mocks.ts")).deliveryMocks.payments }));
vi.mock("signature_pad", async () => ({ default: (await import("./delivery-mocks.ts")).FakeSignaturePad }));

/** Spec §5 Payment step, §4 Unable to pay and §8 card errors, on the screen (issue 5). */

const failure = (kind: ApiFailure["kind"], status: number | null, message: string, code: string | null = null): ApiFailure => ({ kind, status, message, code });
const future = `12${String((new Date().getFullYear() + 2) % 100).padStart(2, "0")}`;

function owedOrder(pharmacy: Partial<Order["pharmacy"]> = {}): Order {
  return makeOrder({
    id: 300,
    status: "picked_up",
    copay: "15.99",
    delivery_fee: "2.50",
    other_items_amount_due: "1.00",
    pharmacy: makePharmacy({ id: 4, name: "Market Street Apothecary", pod_recipient_config: "require_recipient", ...pharmacy }),
  });
}

const base = (order: Order) => `/pharmacies/${order.pharmacy.id}/deliver_orders/${order.id}`;

async function toPayment(order: Order) {
  const view = renderDelivery(itineraryWith([order]), `${base(order)}/address`);
  const { user } = view;
  await clickEnabled(user, TEXT.presentAtAddress);
  await user.click(await screen.findByRole("radio", { name: "Patient" }));
  await clickEnabled(user, TEXT.continue);
  await expectPath(`${base(order)}/payment`);
  await screen.findByRole("group", { name: "Payment method" });
  return view;
}

const charge = () => screen.getByRole("button", { name: /^Charge|^Authorizing/ });

async function typeCard(user: Awaited<ReturnType<typeof toPayment>>["user"], number = "4111111111111111") {
  await user.type(await screen.findByRole("textbox", { name: "Card number" }), number);
  await user.type(screen.getByRole("textbox", { name: "Expiration date (MM/YY)" }), future);
  await user.type(screen.getByRole("textbox", { name: "CVV" }), "123");
}

beforeEach(() => resetHarness());
afterEach(() => vi.clearAllMocks());

describe("the amount and the methods", () => {
  it("shows what is owed in US dollars, with its parts, and only the pharmacy's methods", async () => {
    await toPayment(owedOrder({ payment_methods: [{ type: "cash", allowed: true }, { type: "check", allowed: false }, { type: "card", allowed: true }] }));
    const amount = screen.getByRole("region", { name: "Amount owed" });
    expect(amount).toHaveTextContent("$19.49");
    expect(amount).toHaveTextContent("Copay$15.99");
    expect(amount).toHaveTextContent("Delivery fee$2.50");
    expect(amount).toHaveTextContent("Other items$1.00");
    const methods = within(screen.getByRole("group", { name: "Payment method" })).getAllByRole("radio");
    expect(methods.map((radio) => radio.closest("label")!.textContent)).toEqual(["Cash", "Card"]);
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeDisabled();
  });

  it("masks the corrected copay as dollars (the pickup copay's mask) and accepts it only with at least 3 digits and $1.00", async () => {
    const { user } = await toPayment(owedOrder());
    await user.click(screen.getByRole("radio", { name: "Cash" }));
    const corrected = screen.getByLabelText(/Corrected copay/);
    // imask arrives with its own chunk (what was typed meanwhile is replayed through it): no letters, thousands grouped.
    await user.type(corrected, "abc2000");
    await waitFor(() => expect(corrected).toHaveValue("$2,000"));
    await user.clear(corrected);
    expect(corrected).toHaveValue("");
    await user.type(corrected, "9.9");
    expect(corrected).toHaveValue("$9.9");
    expect(screen.getByText(/at least 3 digits/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeDisabled();
    await user.type(corrected, "0");
    expect(corrected).toHaveValue("$9.90");
    expect(screen.getByRole("region", { name: "Amount owed" })).toHaveTextContent("$13.40");
    expect(screen.getByRole("region", { name: "Amount owed" })).toHaveTextContent("Copay (corrected)$9.90");
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeEnabled();
  });

  it("cash: Continue collects the amount and goes to the signature", async () => {
    const order = owedOrder();
    const { user } = await toPayment(order);
    await user.click(screen.getByRole("radio", { name: "Cash" }));
    await clickEnabled(user, TEXT.continue);
    await expectPath(`${base(order)}/signature`);
  });
});

describe("unable to pay (spec §4)", () => {
  it("where the pharmacy can skip collection: the provider's phone, then the signature", async () => {
    const order = owedOrder({ can_skip_copay_collection: true });
    const { user } = await toPayment(order);
    await clickEnabled(user, "Unable to pay");
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent(fill(TEXT.unableToPaySkip, { phone: SUPPORT_PHONE_SHOWN }));
    await user.click(within(dialog).getByRole("button", { name: "OK" }));
    await expectPath(`${base(order)}/signature`);
  });

  it("otherwise: the failed-delivery confirmation, then 'Patient Could Not Provide Copayment'", async () => {
    const order = owedOrder({ can_skip_copay_collection: false });
    const { user } = await toPayment(order);
    await clickEnabled(user, "Unable to pay");
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent(TEXT.failedDeliveryConfirm);
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    await clickEnabled(user, "Unable to pay");
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "OK" }));
    const call = await callOf("submitFailure");
    expect(call.input).toMatchObject({ failure_reason: "Patient Could Not Provide Copayment", order_ids: [order.id] });
  });
});

describe("card (issue 5)", () => {
  it("sets the fields up in three labelled containers; Charge is enabled only when all are valid", async () => {
    const { user } = await toPayment(owedOrder());
    await user.click(screen.getByRole("radio", { name: "Card" }));
    const number = await screen.findByRole("textbox", { name: "Card number" });
    expect(number.closest("[data-card-container]")).toHaveAttribute("data-card-container", "number");
    expect(deliveryMocks.payments.fetchClientToken).toHaveBeenCalledTimes(1);
    expect(charge()).toBeDisabled();
    await user.type(number, "4111111111111111");
    await user.type(screen.getByRole("textbox", { name: "Expiration date (MM/YY)" }), future);
    expect(charge()).toBeDisabled();
    await user.type(screen.getByRole("textbox", { name: "CVV" }), "12");
    expect(charge()).toBeDisabled();
    await user.type(screen.getByRole("textbox", { name: "CVV" }), "3");
    await waitFor(() => expect(charge()).toBeEnabled());
    expect(charge()).toHaveTextContent("Charge $19.49");
  });

  it("shows each authorization failure in the spec's words, re-enables the form, then goes on when authorized", async () => {
    const order = owedOrder();
    const { user } = await toPayment(order);
    await user.click(screen.getByRole("radio", { name: "Card" }));
    await typeCard(user);

    const attempts: [ApiFailure, string][] = [
      [failure("unavailable", 503, "Processor Network Unavailable - Try Again", "processor_unavailable"), TEXT.processorUnavailable],
      [failure("forbidden", 403, "2000 Do Not Honor", "card_declined"), TEXT.authorizationError],
      [failure("refused", 400, "The amount 19.49 is not the 21.49 owed.", "amount_mismatch"), "The amount 19.49 is not the 21.49 owed."],
    ];
    for (const [error, text] of attempts) {
      await clickEnabled(user, "Charge $19.49");
      const call = await callOf("authorizeCard");
      // While the authorization is pending, the form is disabled.
      expect(charge()).toBeDisabled();
      expect(charge()).toHaveTextContent("Authorizing…");
      expect(call.options).toEqual({ order_id: order.id, payment_type: "credit_card", new_copay: null, total: "19.49" });
      call.reject(error);
      expect(await screen.findByRole("alert")).toHaveTextContent(text);
    }
    await clickEnabled(user, "Charge $19.49");
    (await callOf("authorizeCard")).resolve({ transaction_id: "sandbox_txn_1" });
    await expectPath(`${base(order)}/signature`);
    await waitFor(() =>
      expect(deliveryMocks.payments.saveChargeData).toHaveBeenCalledWith(order.id, {
        transaction_id: "sandbox_txn_1",
        amount: "19.49",
        new_copay: null,
        payment_type: "credit_card",
      }),
    );
  });

  it("a card client that cannot be set up resets the method (and says so when the gateway is unreachable)", async () => {
    const { user } = await toPayment(owedOrder());
    deliveryMocks.payments.fetchClientToken.mockRejectedValueOnce(failure("server", 500, "boom"));
    await user.click(screen.getByRole("radio", { name: "Card" }));
    await waitFor(() => expect(screen.getByRole("radio", { name: "Card" })).not.toBeChecked());
    expect(screen.queryByRole("textbox", { name: "Card number" })).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();

    deliveryMocks.payments.fetchClientToken.mockRejectedValueOnce(failure("network", null, "Failed to fetch"));
    await user.click(screen.getByRole("radio", { name: "Card" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(TEXT.gatewayUnreachable);
    expect(screen.getByRole("radio", { name: "Card" })).not.toBeChecked();
  });

  it("unable to pay by card: the medication can still be delivered", async () => {
    const order = owedOrder({ can_skip_copay_collection: false });
    const { user } = await toPayment(order);
    await user.click(screen.getByRole("radio", { name: "Card" }));
    await screen.findByRole("textbox", { name: "Card number" });
    await clickEnabled(user, "Unable to pay");
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent(fill(TEXT.unableToPaySkip, { phone: SUPPORT_PHONE_SHOWN }));
    await user.click(within(dialog).getByRole("button", { name: "OK" }));
    await expectPath(`${base(order)}/signature`);
  });

  it("unable to pay by card, then Cancel: back to the card form as typed, its fields still set up", async () => {
    const { user } = await toPayment(owedOrder({ can_skip_copay_collection: false }));
    await user.click(screen.getByRole("radio", { name: "Card" }));
    await typeCard(user);
    await waitFor(() => expect(charge()).toBeEnabled());
    const typed = (screen.getByRole("textbox", { name: "Card number" }) as HTMLInputElement).value;
    await clickEnabled(user, "Unable to pay");
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent(fill(TEXT.unableToPaySkip, { phone: SUPPORT_PHONE_SHOWN }));
    // The card form stays behind the dialog: the payment machine is still in its card state.
    expect(screen.getByRole("textbox", { name: "Card number" })).toHaveValue(typed);
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(screen.getByRole("radio", { name: "Card" })).toBeChecked();
    expect(screen.getByRole("textbox", { name: "Card number" })).toHaveValue(typed);
    expect(charge()).toBeEnabled();
    expect(deliveryMocks.payments.fetchClientToken).toHaveBeenCalledTimes(1);
  });

  it("never saves card data with the flow, and a reload asks for the method again", async () => {
    const order = owedOrder();
    const { user, unmount } = await toPayment(order);
    await user.click(screen.getByRole("radio", { name: "Card" }));
    await typeCard(user);
    await waitFor(() => expect(charge()).toBeEnabled());
    const saved = window.localStorage.getItem(`rxc-delivery-flow:${order.id}`)!;
    expect(saved).not.toContain("4111");
    // The draft keeps the step, and no payment until the payment step has collected one.
    expect(JSON.parse(saved).draft).toMatchObject({ place: "payment", record: { payment: null } });
    unmount();
    renderDelivery(itineraryWith([order]), `${base(order)}/payment`);
    await screen.findByRole("group", { name: "Payment method" });
    expect(screen.getByRole("radio", { name: "Card" })).not.toBeChecked();
    expect(screen.queryByRole("textbox", { name: "Card number" })).toBeNull();
  });
});
