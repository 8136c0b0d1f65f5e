import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import { TEXT } from "../../../domain/texts.ts";
import * as api from "../../../src/api/returns.ts";
import { makeStoredDelivery } from "../../support/order-fixtures.ts";
import { deviceToday } from "../../../src/shell/offline-queue.ts";
import { ATTEMPTED, CASH, CHECK, COURIER_ID, currentDay, currentDayRef, currentQueue, makeDay, NEVER_ATTEMPTED, NORTHSIDE, renderReturns, SVG } from "./harness.tsx";

vi.mock("../../../src/api/returns.ts");
vi.mock("../../../src/ui/SignaturePadField.tsx", () => import("./signature-pad-stub.tsx"));

const BASE = `/pharmacies/${NORTHSIDE.id}`;
const DAY = makeDay([ATTEMPTED, NEVER_ATTEMPTED, CASH, CHECK]);
const NETWORK: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
/** Order 30's completion, stored on this device when the network failed. */
const STORED = makeStoredDelivery(30, deviceToday(), new Date().toISOString());
const RESPONSE = { return: { id: 9, order_ids: [11, 12, 30, 40], cash_collected: "12.50", check_collected: "24.00" } };

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(api.submitReturn).mockResolvedValue(RESPONSE);
});

const row = (name: RegExp) =>
  within(screen.getByRole("list", { name: "What goes back to the pharmacy" }))
    .getAllByRole("listitem")
    .find((item) => name.test(item.textContent ?? ""))!;
/** Action buttons ignore a second tap within 200 ms (spec §9). */
const pastDebounce = () => new Promise((resolve) => setTimeout(resolve, 250));

describe("/reconcile summary (spec §2, §9)", () => {
  it("shows items, cash and check with their totals in US dollars", async () => {
    renderReturns(`${BASE}/reconcile`, DAY);
    await screen.findByRole("heading", { name: "Returns" });
    expect(screen.getByText("Northside Family Drugs")).toBeInTheDocument();
    const list = screen.getByRole("list", { name: "What goes back to the pharmacy" });
    const rows = within(list).getAllByRole("listitem").map((item) => item.textContent);
    expect(rows).toEqual([
      "Item(s) to return to pharmacy2 orders$11.50Details",
      "Cash1 order$12.50Details",
      "Check1 order$24.00Details",
    ]);
    expect(screen.getByRole("link", { name: "Pharmacies" })).toHaveAttribute("href", "/pharmacies");
  });

  it("an empty kind shows $0.00 and None, and has no details to open", async () => {
    renderReturns(`${BASE}/reconcile`, makeDay([ATTEMPTED]));
    await screen.findByRole("heading", { name: "Returns" });
    expect(row(/^Cash/).textContent).toBe("CashNone$0.00");
    expect(within(row(/^Cash/)).queryByRole("button")).toBeNull();
    expect(within(row(/^Item/)).getByRole("button")).toBeInTheDocument();
  });

  it("opens the details of each kind, and goes back", async () => {
    const user = userEvent.setup();
    const view = renderReturns(`${BASE}/reconcile`, DAY);
    await user.click(await screen.findByRole("button", { name: /^Item\(s\) to return to pharmacy/ }));
    await waitFor(() => expect(view.location()).toBe(`${BASE}/reconcile_details/orders`));
    expect(screen.getByRole("heading", { name: "Item(s) to return to pharmacy" })).toBeInTheDocument();
    const lines = within(screen.getByRole("list", { name: "Item(s) to return to pharmacy" })).getAllByRole("listitem");
    expect(lines.map((line) => line.textContent)).toEqual([
      "Yolanda EvansRX-11Delivery attempted$6.50",
      "Isaac FreemanRX-12Not delivered$5.00",
    ]);
    expect(screen.getByText("Total").parentElement).toHaveTextContent("Total$11.50");

    await user.click(screen.getByRole("button", { name: "Returns" }));
    await waitFor(() => expect(view.location()).toBe(`${BASE}/reconcile`));
    await user.click(screen.getByRole("button", { name: /^Check/ }));
    await waitFor(() => expect(view.location()).toBe(`${BASE}/reconcile_details/check`));
    expect(screen.getByText("Check collected at delivery")).toBeInTheDocument();
    expect(screen.getByText("Total").parentElement).toHaveTextContent("Total$24.00");
  });

  it("a deep link to an empty kind's details is refused: the summary shows, at its own URL", async () => {
    const view = renderReturns(`${BASE}/reconcile_details/check`, makeDay([ATTEMPTED]));
    await screen.findByRole("heading", { name: "Returns" });
    await waitFor(() => expect(view.location()).toBe(`${BASE}/reconcile`));
  });

  it("a deep link to a kind that does not exist is refused too", async () => {
    const view = renderReturns(`${BASE}/reconcile_details/coupons`, DAY);
    await screen.findByRole("heading", { name: "Returns" });
    await waitFor(() => expect(view.location()).toBe(`${BASE}/reconcile`));
  });

  it("with incomplete orders stored on the device, the spec's alert replaces the return", async () => {
    const view = renderReturns(`${BASE}/reconcile_signature`, DAY, { stored: [STORED] });
    expect(await screen.findByRole("alert")).toHaveTextContent(TEXT.incompleteOrdersReturnsAlert);
    expect(screen.queryByRole("button", { name: "Continue" })).toBeNull();
    await waitFor(() => expect(view.location()).toBe(`${BASE}/reconcile`));
  });

  it("once the stored orders are resubmitted, the return shows by itself", async () => {
    renderReturns(`${BASE}/reconcile`, DAY, { stored: [STORED] });
    expect(await screen.findByRole("alert")).toHaveTextContent(TEXT.incompleteOrdersReturnsAlert);
    // The banner's 'Try again' (not on this screen): the queue resubmits, and the returns machine hears it from the queue.
    currentQueue()!.send({ type: "TRY_AGAIN", today: deviceToday() });
    expect(await screen.findByRole("button", { name: "Continue" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("a refreshed day under the summary is summed up again", async () => {
    renderReturns(`${BASE}/reconcile`, DAY);
    await screen.findByRole("heading", { name: "Returns" });
    // Another tab returned the cash: the day learns it (here, as a flow tells it), the summary follows.
    currentDayRef()!.send({ type: "ORDERS_CHANGED", orders: [{ ...CASH, status: { id: 9, name: "reconciled" }, item_returned: true }] });
    await waitFor(() => expect(row(/^Cash/).textContent).toBe("CashNone$0.00"));
  });

  it("says when nothing is left to return", async () => {
    renderReturns(`${BASE}/reconcile`, makeDay([{ ...CASH, status: { id: 9, name: "reconciled" }, item_returned: true }]));
    expect(await screen.findByRole("status")).toHaveTextContent("Nothing is left to return to Northside Family Drugs.");
    expect(screen.getByRole("link", { name: "Back to pharmacies" })).toHaveAttribute("href", "/pharmacies");
  });

  it("a pharmacy not in the day is not found", async () => {
    renderReturns("/pharmacies/999/reconcile", DAY);
    expect(await screen.findByRole("heading", { name: "Not found" })).toBeInTheDocument();
  });
});

describe("/reconcile_signature: 'sign for items' (spec §5, §7, §8)", () => {
  async function openSignature() {
    const user = userEvent.setup();
    const view = renderReturns(`${BASE}/reconcile`, DAY);
    await user.click(await screen.findByRole("button", { name: "Continue" }));
    await waitFor(() => expect(view.location()).toBe(`${BASE}/reconcile_signature`));
    await screen.findByRole("heading", { name: "sign for items" });
    return { user, view };
  }
  const submitButton = () => screen.getByRole("button", { name: /^(Submit|Try again|Submitting…)$/ });

  it("needs first name, last name and signature before it submits", async () => {
    const { user } = await openSignature();
    expect(screen.getByText("First name, last name and signature are required.")).toBeInTheDocument();
    expect(submitButton()).toBeDisabled();
    await user.type(screen.getByLabelText("First name"), "Priya");
    await user.type(screen.getByLabelText("Last name"), "Raman");
    expect(submitButton()).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Sign" }));
    expect(submitButton()).toBeEnabled();
    expect(screen.queryByText("First name, last name and signature are required.")).toBeNull();
    await user.clear(screen.getByLabelText("Last name"));
    expect(submitButton()).toBeDisabled();
    expect(screen.getByLabelText("First name")).toHaveAttribute("maxlength", "32");
  });

  it("submits the reconcile signature and goes back to /pharmacies with the orders returned", async () => {
    const { user, view } = await openSignature();
    await user.type(screen.getByLabelText("First name"), "Priya");
    await user.type(screen.getByLabelText("Last name"), "Raman");
    await user.click(screen.getByRole("button", { name: "Sign" }));
    await user.click(submitButton());
    await waitFor(() => expect(view.location()).toBe("/pharmacies"));
    expect(api.submitReturn).toHaveBeenCalledWith({
      recipient_first_name: "Priya",
      recipient_last_name: "Raman",
      signature_svg: SVG,
      courier_id: COURIER_ID,
      pharmacy_id: NORTHSIDE.id,
      cash_collected: "12.50",
      check_collected: "24.00",
      latitude: null,
      longitude: null,
      returns: [
        { type: "item", amount: "6.50", order_id: 11 },
        { type: "item", amount: "5.00", order_id: 12 },
        { type: "cash", amount: "12.50", order_id: 30 },
        { type: "check", amount: "24.00", order_id: 40 },
      ],
    });
    const statuses = currentDay()!.orders.map((o) => [o.id, o.status.name, o.item_returned]);
    expect(statuses).toEqual([
      [11, "returned_to_pharmacy", true],
      [12, "returned_to_pharmacy", true],
      [30, "reconciled", true],
      [40, "reconciled", true],
    ]);
  });

  it("without internet it shows the spec's text and keeps everything for another try", async () => {
    vi.mocked(api.submitReturn).mockRejectedValueOnce(NETWORK);
    const { user, view } = await openSignature();
    await user.type(screen.getByLabelText("First name"), "Priya");
    await user.type(screen.getByLabelText("Last name"), "Raman");
    await user.click(screen.getByRole("button", { name: "Sign" }));
    await user.click(submitButton());
    expect(await screen.findByRole("alert")).toHaveTextContent(TEXT.noInternet);
    expect(screen.getByLabelText("First name")).toHaveValue("Priya");
    expect(screen.getByLabelText("Last name")).toHaveValue("Raman");
    expect(screen.getByTestId("pad")).toHaveTextContent("signed");
    expect(view.location()).toBe(`${BASE}/reconcile_signature`);

    await pastDebounce();
    await user.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(view.location()).toBe("/pharmacies"));
    expect(api.submitReturn).toHaveBeenCalledTimes(2);
    expect(vi.mocked(api.submitReturn).mock.calls[1]).toEqual(vi.mocked(api.submitReturn).mock.calls[0]);
  });

  it("a refusal shows the server's words and stays", async () => {
    const refusal: ApiFailure = { kind: "refused", status: 409, message: "The cash handed back, $10.00, is not the $12.50 collected in cash for Northside Family Drugs. Please refresh and check the return again.", code: "return_mismatch" };
    vi.mocked(api.submitReturn).mockRejectedValueOnce(refusal);
    const { user, view } = await openSignature();
    await user.type(screen.getByLabelText("First name"), "Priya");
    await user.type(screen.getByLabelText("Last name"), "Raman");
    await user.click(screen.getByRole("button", { name: "Sign" }));
    await user.click(submitButton());
    expect(await screen.findByRole("alert")).toHaveTextContent(refusal.message);
    expect(view.location()).toBe(`${BASE}/reconcile_signature`);
  });

  it("the summary can be looked at again without losing the names or the signature", async () => {
    const { user, view } = await openSignature();
    await user.type(screen.getByLabelText("First name"), "Priya");
    await user.click(screen.getByRole("button", { name: "Sign" }));
    await user.click(screen.getByRole("button", { name: "Returns" }));
    await waitFor(() => expect(view.location()).toBe(`${BASE}/reconcile`));
    await user.click(screen.getByRole("button", { name: "Continue" }));
    await screen.findByRole("heading", { name: "sign for items" });
    expect(screen.getByLabelText("First name")).toHaveValue("Priya");
    expect(screen.getByTestId("pad")).toHaveTextContent("signed");
  });
});
