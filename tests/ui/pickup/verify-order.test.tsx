import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import * as api from "../../../src/api/pickup.ts";
import { currentDay, makeDay, NO_COLLECTION, order, renderPickup, RIVERSIDE } from "./harness.tsx";

vi.mock("../../../src/api/pickup.ts");

const failure = (kind: ApiFailure["kind"], status: number | null, message = "nope"): ApiFailure => ({ kind, status, message, code: null });

const ELEANOR = order(41, "Eleanor", "Abernathy", {
  pid_order: true,
  patient_date_of_birth: "1948-03-14",
  phone_number: "2155550101",
  rx_numbers: ["RX-400112", "RX-400113"],
  copay: "12.50",
  delivery_fee: "5.00",
  other_items_amount_due: "1.25",
  delivery_notes: [
    { courier_note: false, delivery_instruction: "Leave with doorman if patient is out.", superuser_note: false },
    { courier_note: true, delivery_instruction: "Dog in yard, friendly.", superuser_note: false },
  ],
});
const GRACE = order(42, "Grace", "Kowalski", { phone_number: "12155550105", copay: "8.00" });
const DONE = order(43, "Walter", "Brennan", { status: "picked_up" });
const CONTACTLESS = order(44, "Nadia", "Haddad", { pharmacy: NO_COLLECTION, phone_number: "555" });

const day = () => makeDay({ orders: [ELEANOR, GRACE, DONE, CONTACTLESS] });
const verifyButton = () => screen.getByRole("button", { name: "Verify order" });
const copayBox = () => screen.getByRole("textbox", { name: "Copay" });
const noCopay = () => screen.getByRole("checkbox", { name: "No copay" });

async function open(orderId: number, pharmacyId = RIVERSIDE.id) {
  const view = renderPickup(`/pharmacies/${pharmacyId}/verify_orders/${orderId}`, day());
  await screen.findByRole("heading", { name: "verify order" });
  return view;
}

/** The dd that follows a dt in the order's facts. */
const fact = (term: string) => screen.getByText(term, { selector: "dt" }).nextElementSibling as HTMLElement;

/** ActionButton ignores a second tap on the same button within 200 ms (spec §9). */
const pastDebounce = () => new Promise((resolve) => setTimeout(resolve, 250));

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(api.assertCopay).mockImplementation(async (orderId, copay) => ({ ...ELEANOR, id: orderId, copay }));
  vi.mocked(api.pickUpOrder).mockImplementation(async () => ELEANOR);
  vi.mocked(api.cancelOrder).mockImplementation(async () => GRACE);
});

describe("verify-order screen (spec §2, §5)", () => {
  it("shows recipient, date of birth, address, formatted phone, RX numbers, delivery instructions without courier notes, and Other fees", async () => {
    await open(ELEANOR.id);
    expect(fact("Recipient")).toHaveTextContent("Eleanor Abernathy");
    expect(fact("Date of birth")).toHaveTextContent("03/14/1948");
    expect(within(fact("Address")).getByRole("link")).toHaveAttribute(
      "href",
      "https://www.google.com/maps/search/?api=1&query=1012%20Pine%20St%2C%20Philadelphia%2C%20PA%2019107",
    );
    expect(fact("Phone")).toHaveTextContent("(215) 555-0101");
    expect(fact("RX numbers")).toHaveTextContent("RX-400112, RX-400113");
    expect(fact("Delivery instructions")).toHaveTextContent("Leave with doorman if patient is out.");
    expect(screen.queryByText("Dog in yard, friendly.")).toBeNull();
    // delivery_fee 5.00 + other_items_amount_due 1.25
    expect(fact("Other fees")).toHaveTextContent("$6.25");
  });

  it("date of birth is 'Not available' without pid_order; a leading 1 shows as +1", async () => {
    await open(GRACE.id);
    expect(fact("Date of birth")).toHaveTextContent("Not available");
    expect(fact("Phone")).toHaveTextContent("+1 (215) 555-0105");
  });

  it("verify is enabled only with 'No copay' ticked or a valid copay; ticking clears the amount, typing unticks", async () => {
    const user = userEvent.setup();
    await open(ELEANOR.id);
    expect(verifyButton()).toBeDisabled();

    await user.type(copayBox(), "0.50");
    expect(verifyButton()).toBeDisabled();
    expect(copayBox()).toHaveAttribute("aria-invalid", "true");

    await user.click(noCopay());
    expect(noCopay()).toBeChecked();
    await waitFor(() => expect(copayBox()).toHaveValue(""));
    expect(verifyButton()).toBeEnabled();

    await user.type(copayBox(), "12.50");
    expect(noCopay()).not.toBeChecked();
    await waitFor(() => expect(copayBox()).toHaveValue("$12.50"));
    expect(verifyButton()).toBeEnabled();
    expect(screen.getByText(/On the order: \$12\.50\./)).toBeInTheDocument();
  });

  it("verify asserts the copay, picks up, marks the order picked_up in the day and goes back to the verify list", async () => {
    const user = userEvent.setup();
    const view = await open(ELEANOR.id);
    await user.type(copayBox(), "12.50");
    await user.click(verifyButton());

    await waitFor(() => expect(view.location()).toBe(`/pharmacies/${RIVERSIDE.id}/verify_orders`));
    expect(api.assertCopay).toHaveBeenCalledWith(ELEANOR.id, "12.50");
    expect(api.pickUpOrder).toHaveBeenCalledWith(ELEANOR.id);
    const stored = currentDay()!.orders.find((candidate) => candidate.id === ELEANOR.id)!;
    expect(stored.status.name).toBe("picked_up");
    expect(stored.copay).toBe("12.50");
    const row = await screen.findByRole("article", { name: "Eleanor Abernathy" });
    expect(within(row).getByRole("img", { name: "verified" })).toBeInTheDocument();
  });

  it("'No copay' asserts 0.00", async () => {
    const user = userEvent.setup();
    const view = await open(ELEANOR.id);
    await user.click(noCopay());
    await user.click(verifyButton());
    await waitFor(() => expect(view.location()).toBe(`/pharmacies/${RIVERSIDE.id}/verify_orders`));
    expect(api.assertCopay).toHaveBeenCalledWith(ELEANOR.id, "0.00");
  });

  it("without a copay section verify is enabled at once and only picks up", async () => {
    const user = userEvent.setup();
    const view = await open(CONTACTLESS.id, NO_COLLECTION.id);
    expect(screen.queryByRole("textbox", { name: "Copay" })).toBeNull();
    expect(fact("Phone")).toHaveTextContent("Not available");
    await user.click(verifyButton());
    await waitFor(() => expect(view.location()).toBe(`/pharmacies/${NO_COLLECTION.id}/verify_orders`));
    expect(api.assertCopay).not.toHaveBeenCalled();
    expect(api.pickUpOrder).toHaveBeenCalledWith(CONTACTLESS.id);
  });

  it.each([
    ["a 500", failure("server", 500), "Error verifying order: 41"],
    ["no connection", failure("network", null), "No internet connection.  Please connect to the internet to continue"],
    ["any other refusal", failure("refused", 409, "Order 41 is cancelled."), "Something went wrong. Please try again."],
  ])("%s at pickup shows the spec §8 text and lets the courier try again", async (_name, error, text) => {
    vi.mocked(api.pickUpOrder).mockRejectedValueOnce(error);
    const user = userEvent.setup();
    const view = await open(ELEANOR.id);
    await user.click(noCopay());
    await user.click(verifyButton());
    const alert = await screen.findByRole("alert");
    // Exact text, the two spaces included.
    expect(alert.textContent).toBe(text);
    expect(view.location()).toBe(`/pharmacies/${RIVERSIDE.id}/verify_orders/${ELEANOR.id}`);
    expect(verifyButton()).toBeEnabled();
    expect(currentDay()!.orders.find((candidate) => candidate.id === ELEANOR.id)!.status.name).toBe("submitted_to_courier");
  });

  it("a failed copay assertion stops before the pickup", async () => {
    vi.mocked(api.assertCopay).mockRejectedValueOnce(failure("server", 500));
    const user = userEvent.setup();
    await open(ELEANOR.id);
    await user.click(noCopay());
    await user.click(verifyButton());
    expect((await screen.findByRole("alert")).textContent).toBe("Error verifying order: 41");
    expect(api.pickUpOrder).not.toHaveBeenCalled();
  });

  it("the verify button is disabled while the order is being recorded", async () => {
    let finish: (value: typeof ELEANOR) => void = () => undefined;
    vi.mocked(api.pickUpOrder).mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)));
    const user = userEvent.setup();
    await open(ELEANOR.id);
    await user.click(noCopay());
    await user.click(verifyButton());
    expect(await screen.findByRole("button", { name: "Verifying…" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Cancel order" })).toBeDisabled();
    finish(ELEANOR);
  });

  it("cancel asks 'Are you sure you want to cancel this order?'; No keeps the order, Yes cancels it", async () => {
    const user = userEvent.setup();
    const view = await open(GRACE.id);
    await user.click(screen.getByRole("button", { name: "Cancel order" }));
    let dialog = screen.getByRole("alertdialog");
    expect(dialog).toHaveTextContent("Are you sure you want to cancel this order?");
    await user.click(within(dialog).getByRole("button", { name: "No" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(api.cancelOrder).not.toHaveBeenCalled();

    await pastDebounce();
    await user.click(screen.getByRole("button", { name: "Cancel order" }));
    dialog = screen.getByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Yes" }));
    await waitFor(() => expect(view.location()).toBe(`/pharmacies/${RIVERSIDE.id}/verify_orders`));
    expect(api.cancelOrder).toHaveBeenCalledWith(GRACE.id);
    expect(currentDay()!.orders.find((candidate) => candidate.id === GRACE.id)!.status.name).toBe("cancelled");
    const row = await screen.findByRole("article", { name: "Grace Kowalski" });
    expect(within(row).getByText("cancelled")).toBeInTheDocument();
  });

  it("a failed cancellation shows the failure and keeps the order", async () => {
    vi.mocked(api.cancelOrder).mockRejectedValueOnce(failure("network", null));
    const user = userEvent.setup();
    await open(GRACE.id);
    await user.click(screen.getByRole("button", { name: "Cancel order" }));
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Yes" }));
    expect((await screen.findByRole("alert")).textContent).toBe("No internet connection.  Please connect to the internet to continue");
    expect(screen.getByRole("button", { name: "Cancel order" })).toBeEnabled();
  });

  it("without the day's status list, verify says 'An error occurred. Please refresh and try again.'", async () => {
    const user = userEvent.setup();
    renderPickup(`/pharmacies/${RIVERSIDE.id}/verify_orders/${ELEANOR.id}`, makeDay({ orders: [ELEANOR], statuses: [] }));
    await screen.findByRole("heading", { name: "verify order" });
    await user.click(noCopay());
    await user.click(verifyButton());
    expect((await screen.findByRole("alert")).textContent).toBe("An error occurred. Please refresh and try again.");
    expect(api.pickUpOrder).not.toHaveBeenCalled();
  });

  it("an order already picked up shows the verified state with verify and cancel disabled", async () => {
    await open(DONE.id);
    expect(screen.getByRole("status")).toHaveTextContent("Verified: this order is picked up.");
    expect(verifyButton()).toBeDisabled();
    expect(screen.getByRole("button", { name: "Cancel order" })).toBeDisabled();
    expect(screen.queryByRole("textbox", { name: "Copay" })).toBeNull();
  });

  it.each([
    ["an unknown order id", "/pharmacies/1/verify_orders/999"],
    ["another pharmacy's order", `/pharmacies/${RIVERSIDE.id}/verify_orders/${CONTACTLESS.id}`],
  ])("%s at verify redirects to /pharmacies (spec §2)", async (_name, path) => {
    const view = renderPickup(path, makeDay({ orders: [ELEANOR, CONTACTLESS] }));
    expect(await screen.findByRole("heading", { name: "Pharmacies home" })).toBeInTheDocument();
    expect(view.location()).toBe("/pharmacies");
  });

  it("back link returns to the check-in list", async () => {
    await open(ELEANOR.id);
    expect(screen.getByRole("link", { name: "check-in" })).toHaveAttribute("href", `/pharmacies/${RIVERSIDE.id}/verify_orders`);
  });
});
