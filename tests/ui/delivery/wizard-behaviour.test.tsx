import { act, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Order } from "../../../domain/contract/entities.ts";
import { TEXT } from "../../../domain/texts.ts";
import { SIGNATURE_REFUSAL_REASONS } from "../../../domain/vocabulary.ts";
import { isLocalHost, knownLocation, requestLocation } from "../../../src/shell/geolocation.ts";
import { makeOrder, makePharmacy } from "../../support/order-fixtures.ts";
import {
  callOf,
  clickEnabled,
  currentDayOrders,
  expectPath,
  itineraryWith,
  renderDelivery,
  resetHarness,
  SIGNATURE_SVG,
  signPad,
  TODAY,
} from "./delivery-harness.tsx";

vi.mock("../../../src/api/deliveries.ts", async (original) => ({ ...(await original()), ...(await import("./delivery-mocks.ts")).deliveryMocks.deliveries }));
vi.mock("../../../src/api/payments.ts", async (original) => ({ ...(await original()), ...(await import("./delivery-mocks.ts")).deliveryMocks.payments }));
vi.mock("signature_pad", async () => ({ default: (await import("./delivery-mocks.ts")).FakeSignaturePad }));

/** The wizard's own behaviour around the machine: URLs, reloads, what each step shows, and the day afterwards. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const riverside = makePharmacy({ id: 1, dob_verification_enabled: true, can_skip_signature: true, routing_enabled: true });

const abernathy = makeOrder({
  id: 41,
  status: "picked_up",
  copay: "0.00",
  delivery_fee: "0.00",
  patient_date_of_birth: "1948-03-14",
  signature_required: true,
  signature_refusal_reasons: SIGNATURE_REFUSAL_REASONS.map((reason) => ({ ...reason })),
  delivery_notes: [
    { courier_note: false, delivery_instruction: "Leave with doorman if patient is out.", superuser_note: false },
    { courier_note: true, delivery_instruction: "Dog in yard, friendly.", superuser_note: false },
    { courier_note: false, delivery_instruction: "Controlled substance: check the label.", superuser_note: true },
  ],
  pharmacy: riverside,
});
const johnsons = [51, 52, 53].map((id, index) =>
  makeOrder({
    id,
    status: "picked_up",
    copay: "0.00",
    delivery_fee: index === 0 ? null : "0.00",
    patient_first_name: ["Timothy", "Harold", "Margaret"][index]!,
    patient_last_name: "Johnson",
    patient_date_of_birth: ["2008-05-09", "1961-02-27", "1963-10-15"][index]!,
    address: { street_address: "1200 Spruce St", street_address_2: "Apt 4B", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19107", latitude: null, longitude: null },
    pharmacy: riverside,
  }),
);
const idOrder = makeOrder({ id: 61, status: "picked_up", copay: "0.00", collect_identification: true, pharmacy: makePharmacy({ id: 2 }) });

const pathOf = (order: Order, step = "") => `/pharmacies/${order.pharmacy.id}/deliver_orders/${order.id}${step ? `/${step}` : ""}`;

async function start(orders: Order[], order: Order, step = "address") {
  const view = renderDelivery(itineraryWith(orders), pathOf(order, step));
  await screen.findByRole("heading", { level: 1 });
  return view;
}

beforeEach(() => resetHarness());
afterEach(() => vi.clearAllMocks());

describe("URLs (spec §2)", () => {
  it("sends the bare order URL to its address step", async () => {
    renderDelivery(itineraryWith([abernathy]), pathOf(abernathy));
    await expectPath(pathOf(abernathy, "address"));
    await waitFor(() => expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Confirm the address"));
  });

  it("keeps a deep link to a step not reached yet at the machine's step", async () => {
    const view = renderDelivery(itineraryWith([abernathy]), pathOf(abernathy, "signature"));
    await expectPath(pathOf(abernathy, "address"));
    view.unmount();
    renderDelivery(itineraryWith([abernathy]), pathOf(abernathy, "finished"));
    await expectPath(pathOf(abernathy, "address"));
    await waitFor(() => expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Confirm the address"));
  });

  it("shows the outcome of an order already delivered or attempted, and nothing to do for one not picked up", async () => {
    const delivered = makeOrder({ ...abernathy, id: 42, status: "delivered" });
    const attempted = makeOrder({ ...abernathy, id: 43, status: "delivery_attempted" });
    const waiting = makeOrder({ ...abernathy, id: 44, status: "submitted_to_courier" });
    const view = renderDelivery(itineraryWith([delivered, attempted, waiting]), pathOf(delivered, "signature"));
    await expectPath(pathOf(delivered, "finished"));
    await waitFor(() => expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent(TEXT.delivered));
    expect(screen.getByRole("link", { name: TEXT.backToOrders })).toHaveAttribute("href", "/pharmacies/1/deliver_orders");
    view.unmount();
    const second = renderDelivery(itineraryWith([delivered, attempted, waiting]), pathOf(attempted, "address"));
    await expectPath(pathOf(attempted, "attempted"));
    await waitFor(() => expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent(TEXT.attempted));
    second.unmount();
    renderDelivery(itineraryWith([delivered, attempted, waiting]), pathOf(waiting, "address"));
    await waitFor(() => expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Not out for delivery"));
  });

  it("shows a not-found view for an order that is not the courier's", async () => {
    renderDelivery(itineraryWith([abernathy]), "/pharmacies/1/deliver_orders/999/address");
    await waitFor(() => expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Not found"));
  });
});

describe("the steps", () => {
  it("address: the patient, delivery instructions but never courier notes, and a call link that is recorded", async () => {
    const { user } = await start([abernathy], abernathy);
    expect(screen.getByText("Leave with doorman if patient is out.")).toBeInTheDocument();
    expect(screen.getByText("Controlled substance: check the label.")).toBeInTheDocument();
    expect(screen.queryByText("Dog in yard, friendly.")).toBeNull();
    expect(screen.getByText(/If you are not sure, call the patient at \(215\) 555-0101/)).toBeInTheDocument();
    const call = screen.getByRole("link", { name: /Call the patient/ });
    expect(call).toHaveAttribute("href", "tel:+12155550101");
    await user.click(call);
    await clickEnabled(user, TEXT.presentAtAddress);
    await expectPath(pathOf(abernathy, "verify-dob"));
    expect(screen.getByText("03/14/1948")).toBeInTheDocument();
    await clickEnabled(user, TEXT.dobVerified);
    await user.click(await screen.findByRole("radio", { name: "Patient" }));
    await clickEnabled(user, TEXT.continue);
    await signPad();
    await clickEnabled(user, TEXT.continue);
    const completion = await callOf("submitDelivery");
    expect(completion.input).toMatchObject({ order_ids: [41], dob_verified: true, recipient_called_at: expect.any(String), signature_svg: SIGNATURE_SVG });
  });

  it("date of birth: 'Not available' when the order has none, and only 'Did not verify date of birth' is offered", async () => {
    const noDob = makeOrder({ ...abernathy, id: 45, status: "picked_up", patient_date_of_birth: null });
    const { user } = await start([noDob], noDob);
    await clickEnabled(user, TEXT.presentAtAddress);
    expect(await screen.findByText(TEXT.dobNotAvailable)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: TEXT.dobVerified })).toBeNull();
    await clickEnabled(user, TEXT.dobNotVerified);
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "OK" }));
    const failure = await callOf("submitFailure");
    expect(failure.input).toMatchObject({ failure_reason: "Date of Birth Not Verified", order_ids: [45] });
  });

  it("recipient: Patient first and No Recipient last when offered, Patient's names locked, Other limited to 32", async () => {
    const { user } = await start([abernathy], abernathy, "address");
    await clickEnabled(user, TEXT.presentAtAddress);
    await clickEnabled(user, TEXT.dobVerified);
    const radios = within(await screen.findByRole("radiogroup")).getAllByRole("radio");
    expect(radios.map((radio) => radio.closest("label")!.textContent)).toEqual(["Patient", "Other", "No Recipient"]);
    await user.click(screen.getByRole("radio", { name: "Patient" }));
    expect(screen.getByLabelText("First name")).toHaveValue("Eleanor");
    expect(screen.getByLabelText("First name")).toHaveAttribute("readonly");
    await user.click(screen.getByRole("radio", { name: "Other" }));
    expect(screen.getByLabelText("First name")).toHaveValue("");
    expect(screen.getByLabelText("Relationship to the patient")).toHaveAttribute("placeholder", TEXT.maxThirtyTwoCharacters);
    expect(screen.getByLabelText("Relationship to the patient")).toHaveAttribute("maxlength", "32");
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeDisabled();
    expect(screen.getByText("Enter the recipient's first name, last name and relationship.")).toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "No Recipient" }));
    expect(screen.getByLabelText("Courier notes")).toHaveAttribute("placeholder", TEXT.minimumThreeCharacters);
    await user.type(screen.getByLabelText("Courier notes"), "ab");
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeDisabled();
    await user.type(screen.getByLabelText("Courier notes"), "c");
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeEnabled();
  });

  it("recipient: no 'No Recipient' when nothing requires one, and Group Orders only where orders may be grouped", async () => {
    const [timothy, ...others] = johnsons as [Order, ...Order[]];
    const { user } = await start(johnsons, timothy);
    await clickEnabled(user, TEXT.presentAtAddress);
    await clickEnabled(user, TEXT.dobVerified);
    const radios = within(await screen.findByRole("radiogroup")).getAllByRole("radio");
    expect(radios.map((radio) => radio.closest("label")!.textContent)).toEqual(["Patient", "Other"]);
    const group = screen.getByRole("checkbox", { name: TEXT.groupOrders });
    expect(screen.getByText(/Harold Johnson/)).toBeInTheDocument();
    await user.click(group);
    expect(screen.getByRole("region", { name: "Order" })).toHaveTextContent("Timothy Johnson, Harold Johnson, Margaret Johnson");
    await user.click(screen.getByRole("radio", { name: "Patient" }));
    // Grouped: whoever signs for all of them types their name.
    expect(screen.getByLabelText("First name")).not.toHaveAttribute("readonly");
    await user.type(screen.getByLabelText("First name"), "Margaret");
    await user.type(screen.getByLabelText("Last name"), "Johnson");
    await clickEnabled(user, TEXT.continue);
    await signPad();
    await clickEnabled(user, TEXT.continue);
    const completion = await callOf("submitDelivery");
    expect(completion.input).toMatchObject({ order_ids: [51, ...others.map((o) => o.id)], signed_by: "Margaret Johnson" });
    expect(completion.options).toEqual({ idempotencyKey: expect.stringMatching(UUID), storedOn: TODAY });
    await act(async () => completion.resolve({ queued: false, delivery: { id: 9, status: "delivered", order_ids: [51, 52, 53] } }));
    await expectPath(pathOf(timothy, "finished"));
    // Every grouped order is delivered in the day the other screens read.
    await waitFor(() => expect(currentDayOrders().map((order) => order.status.name)).toEqual(["delivered", "delivered", "delivered"]));
    expect(currentDayOrders()[0]).toMatchObject({ recipient_relationship_id: 1, recipient_first_name: "Margaret" });
  });

  it("ID: state disabled for passport and military, expiry masked MM/DD/YYYY, an expired ID refused", async () => {
    const { user } = await start([idOrder], idOrder);
    await clickEnabled(user, TEXT.presentAtAddress);
    await user.click(await screen.findByRole("radio", { name: "Patient" }));
    await clickEnabled(user, TEXT.continue);
    await expectPath(pathOf(idOrder, "idverification"));
    const options = within(screen.getByLabelText("ID type")).getAllByRole("option").map((option) => option.textContent);
    expect(options).toEqual(["Choose…", "Driver license", "Military id", "Passport", "State id"]);
    await user.selectOptions(screen.getByLabelText("ID type"), "military");
    expect(screen.getByLabelText("State")).toBeDisabled();
    await user.selectOptions(screen.getByLabelText("ID type"), "driver");
    expect(screen.getByLabelText("State")).toBeEnabled();
    await user.selectOptions(screen.getByLabelText("State"), "NJ");
    await user.type(screen.getByLabelText("ID number"), "D-445 12");
    await user.type(screen.getByLabelText("Expiration date"), "01012020");
    expect(screen.getByLabelText("Expiration date")).toHaveValue("01/01/2020");
    expect(screen.getByText("This ID has expired.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeDisabled();
    await user.clear(screen.getByLabelText("Expiration date"));
    await user.type(screen.getByLabelText("Expiration date"), "13312031");
    // The mask refuses a thirteenth month.
    expect(screen.getByLabelText("Expiration date")).not.toHaveValue("13/31/2031");
    await user.clear(screen.getByLabelText("Expiration date"));
    await user.type(screen.getByLabelText("Expiration date"), "12312031");
    await clickEnabled(user, TEXT.continue);
    await expectPath(pathOf(idOrder, "signature"));
  });

  it("signature: Continue needs the pad signed, a reason with notes, or 'physically_unable'", async () => {
    const { user } = await start([abernathy], abernathy);
    await clickEnabled(user, TEXT.presentAtAddress);
    await clickEnabled(user, TEXT.dobVerified);
    await user.click(await screen.findByRole("radio", { name: "Patient" }));
    await clickEnabled(user, TEXT.continue);
    await expectPath(pathOf(abernathy, "signature"));
    const canvas = await screen.findByRole("img", { name: /Signature pad/ });
    await waitFor(() => expect(canvas.style.width).toBe(`${window.innerWidth - 36}px`));
    expect(canvas.style.height).toBe("200px");
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeDisabled();
    await signPad();
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeEnabled();
    await user.click(screen.getByRole("button", { name: "Clear" }));
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeDisabled();

    await user.click(screen.getByRole("checkbox", { name: "The recipient did not sign" }));
    expect(screen.queryByRole("img", { name: /Signature pad/ })).toBeNull();
    await user.selectOptions(screen.getByLabelText("Reason"), "other");
    expect(screen.getByLabelText(/^Notes/)).toHaveAttribute("placeholder", TEXT.minimumThreeCharacters);
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeDisabled();
    await user.type(screen.getByLabelText(/^Notes/), "Gloves on, asked not to sign");
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeEnabled();
    await user.clear(screen.getByLabelText(/^Notes/));
    await user.selectOptions(screen.getByLabelText("Reason"), "physically_unable");
    expect(screen.getByLabelText(/^Notes/)).toHaveAccessibleName("Notes (optional)");
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeEnabled();
    await clickEnabled(user, TEXT.continue);
    // Nobody signed: the photo of the drop-off comes next (issue 19), optional for this pharmacy.
    await screen.findByRole("heading", { name: "Photo of the drop-off" });
    await clickEnabled(user, TEXT.continue);
    expect((await callOf("submitDelivery")).input).toMatchObject({ signature_svg: null, signed_by: null, signature_refusal_reason: "physically_unable", photo: null });
  });

  it("signature: no way around signing where the pharmacy cannot skip it", async () => {
    const strict = makeOrder({ ...idOrder, id: 62, status: "picked_up", collect_identification: false });
    const { user } = await start([strict], strict);
    await clickEnabled(user, TEXT.presentAtAddress);
    await user.click(await screen.findByRole("radio", { name: "Patient" }));
    await clickEnabled(user, TEXT.continue);
    await screen.findByRole("img", { name: /Signature pad/ });
    expect(screen.queryByRole("checkbox", { name: "The recipient did not sign" })).toBeNull();
  });
});

describe("a reload in the middle of a delivery", () => {
  it("resumes at the same step with what was entered, and forgets the flow once it is done", async () => {
    const view = await start([abernathy], abernathy);
    const { user } = view;
    await clickEnabled(user, TEXT.presentAtAddress);
    await clickEnabled(user, TEXT.dobVerified);
    await user.click(await screen.findByRole("radio", { name: "Other" }));
    await user.type(screen.getByLabelText("First name"), "Ruth");
    await user.type(screen.getByLabelText("Last name"), "Abernathy");
    await user.type(screen.getByLabelText("Relationship to the patient"), "Daughter");
    view.unmount();

    const again = renderDelivery(itineraryWith([abernathy]), pathOf(abernathy, "recipient"));
    await screen.findByRole("radiogroup");
    expect(screen.getByRole("radio", { name: "Other" })).toBeChecked();
    expect(screen.getByLabelText("Relationship to the patient")).toHaveValue("Daughter");
    await clickEnabled(again.user, TEXT.continue);
    await signPad();
    await clickEnabled(again.user, TEXT.continue);
    const first = await callOf("submitDelivery");
    again.unmount();

    // Reloaded while the completion was being sent: it is sent again as the same request.
    const third = renderDelivery(itineraryWith([abernathy]), pathOf(abernathy, "signature"));
    const resent = await callOf("submitDelivery");
    expect(resent.input).toEqual(first.input);
    expect(resent.options).toEqual(first.options);
    resent.reject({ kind: "server", status: 500, message: "boom", code: null });
    expect(await screen.findByRole("alert")).toHaveTextContent(TEXT.serverError);
    // Try again is a new tap: a new Idempotency-Key.
    await clickEnabled(third.user, TEXT.tryAgain);
    const retried = await callOf("submitDelivery");
    expect(retried.input).toEqual(first.input);
    expect((retried.options as { idempotencyKey: string }).idempotencyKey).not.toBe((first.options as { idempotencyKey: string }).idempotencyKey);
    await act(async () => retried.resolve({ queued: true }));
    await expectPath(pathOf(abernathy, "finished"));
    expect(screen.getByText(TEXT.incompleteOrderBanner)).toBeInTheDocument();
    expect(window.localStorage.getItem(`rxc-delivery-flow:${abernathy.id}`)).toBeNull();
  });

  it("keeps a signature drawn before the reload until it is cleared", async () => {
    const view = await start([abernathy], abernathy);
    await clickEnabled(view.user, TEXT.presentAtAddress);
    await clickEnabled(view.user, TEXT.dobVerified);
    await view.user.click(await screen.findByRole("radio", { name: "Patient" }));
    await clickEnabled(view.user, TEXT.continue);
    await signPad();
    view.unmount();

    const again = renderDelivery(itineraryWith([abernathy]), pathOf(abernathy, "signature"));
    const kept = await screen.findByRole("img", { name: "The recipient's signature" });
    expect(kept.getAttribute("src")).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(SIGNATURE_SVG)}`);
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeEnabled();
    await again.user.click(screen.getByRole("button", { name: "Clear" }));
    expect(await screen.findByRole("img", { name: /Signature pad/ })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: TEXT.continue })).toBeDisabled();
  });

  it("does not resume another courier's or another day's flow", async () => {
    window.localStorage.setItem(
      `rxc-delivery-flow:${abernathy.id}`,
      JSON.stringify({ version: 1, courierId: 99, day: TODAY, snapshot: { value: { steps: "signature" } }, memo: {} }),
    );
    await start([abernathy], abernathy, "signature");
    await expectPath(pathOf(abernathy, "address"));
  });
});

describe("location (spec §7)", () => {
  it("is never asked for or sent from the local host", async () => {
    expect(["localhost", "127.0.0.1", "app.localhost", "[::1]"].every(isLocalHost)).toBe(true);
    expect(["courier.example.com", "10.0.0.5"].some(isLocalHost)).toBe(false);
    const getCurrentPosition = vi.fn();
    vi.stubGlobal("navigator", { ...navigator, geolocation: { getCurrentPosition } });
    try {
      requestLocation();
      expect(getCurrentPosition).not.toHaveBeenCalled();
      expect(knownLocation()).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("failures", () => {
  it("marks the order attempted in the day once the failure is recorded", async () => {
    const { user } = await start([abernathy], abernathy);
    await clickEnabled(user, TEXT.addressIncorrect);
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "OK" }));
    const call = await callOf("submitFailure");
    expect(call.input).toMatchObject({ failure_reason: "Incorrect Address", order_ids: [41] });
    expect(screen.getByText("Recording the failed delivery (Incorrect Address)…")).toBeInTheDocument();
    await act(async () => call.resolve({ queued: false, delivery: { id: 3, status: "delivery_attempted", order_ids: [41] } }));
    await expectPath(pathOf(abernathy, "attempted"));
    await waitFor(() => expect(currentDayOrders()[0]!.status.name).toBe("delivery_attempted"));
  });
});
