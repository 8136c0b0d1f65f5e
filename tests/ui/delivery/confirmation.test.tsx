import { act, render, screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { createActor, fromPromise, type ActorRefFrom } from "xstate";
import { TEXT, fill } from "../../../domain/texts.ts";
import { deliveryFlowMachine } from "../../../machines/delivery-flow.machine.ts";
import { deliverySubmitMachine, type SubmissionResult } from "../../../machines/delivery-submit.machine.ts";
import type { paymentMachine } from "../../../machines/payment.machine.ts";
import { createCardSession } from "../../../src/features/delivery/card-session.ts";
import { Confirmation } from "../../../src/features/delivery/Confirmation.tsx";
import { PaymentStep } from "../../../src/features/delivery/steps/PaymentStep.tsx";
import { PATIENT } from "../../support/delivery-flow-events.ts";
import { makeOrder, makePharmacy } from "../../support/order-fixtures.ts";

/**
 * One way for every machine of the delivery flow to ask a confirmation: the
 * flow's own and its payment child's are read by one function and shown by one
 * dialog (Confirmation), which answers the machine that asked. The payment step
 * renders no dialog of its own.
 */

const PHONE = "(215) 555-0100";

function startFlow(canSkipCopayCollection: boolean) {
  const order = makeOrder({
    id: 300,
    status: "picked_up",
    copay: "15.99",
    delivery_fee: "2.50",
    pharmacy: makePharmacy({ id: 4, pod_recipient_config: "require_recipient", can_skip_copay_collection: canSkipCopayCollection }),
  });
  // A submission never answers here: these tests stop at the answer the dialog sends.
  const deliverySubmit = deliverySubmitMachine.provide({ actors: { send: fromPromise(() => new Promise<SubmissionResult>(() => {})) } });
  const logic = deliveryFlowMachine.provide({ actors: { deliverySubmit } });
  const flow = createActor(logic, { input: { order, supportPhone: PHONE, today: "2026-11-21" } }).start();
  return flow;
}

function toPayment(flow: ReturnType<typeof startFlow>) {
  flow.send({ type: "PRESENT_AT_ADDRESS" });
  flow.send({ type: "SELECT_RELATIONSHIP", relationship_id: PATIENT });
  flow.send({ type: "CONTINUE" });
  expect(flow.getSnapshot().matches({ steps: "payment" })).toBe(true);
  return flow.getSnapshot().children.payment as ActorRefFrom<typeof paymentMachine>;
}

const noCards = () =>
  createCardSession({
    fetchClientToken: () => Promise.reject(new Error("no card in this test")),
    setUpCardClient: () => Promise.reject(new Error("no card in this test")),
    postJson: () => Promise.reject(new Error("no card in this test")),
    authorize: () => Promise.reject(new Error("no card in this test")),
  });

describe("the delivery's one confirmation dialog", () => {
  it("shows the flow's own confirmation and answers the flow", async () => {
    const user = userEvent.setup();
    const flow = startFlow(false);
    render(<Confirmation actor={flow} />);
    expect(screen.queryByRole("alertdialog")).toBeNull();
    act(() => flow.send({ type: "ADDRESS_INCORRECT" }));
    const dialog = screen.getByRole("alertdialog");
    expect(dialog).toHaveTextContent(TEXT.failedDeliveryConfirm);
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(flow.getSnapshot().value).toEqual({ steps: "address" });
    act(() => flow.send({ type: "ADDRESS_INCORRECT" }));
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "OK" }));
    expect(flow.getSnapshot().value).toEqual("submitting");
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it.each([
    [true, fill(TEXT.unableToPaySkip, { phone: PHONE }), "confirmingSkip"],
    [false, TEXT.failedDeliveryConfirm, "confirmingFailure"],
  ])("shows the payment child's 'unable to pay' (can skip collection: %s) and answers the child", async (canSkip, text, confirming) => {
    const user = userEvent.setup();
    const flow = startFlow(canSkip);
    const payment = toPayment(flow);
    render(<Confirmation actor={flow} />);
    act(() => payment.send({ type: "UNABLE_TO_PAY" }));
    expect(payment.getSnapshot().value).toBe(confirming);
    const dialog = screen.getByRole("alertdialog");
    expect(dialog).toHaveTextContent(text);
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(payment.getSnapshot().value).toBe("choosing");
    expect(screen.queryByRole("alertdialog")).toBeNull();
    act(() => payment.send({ type: "UNABLE_TO_PAY" }));
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "OK" }));
    expect(payment.getSnapshot().status).toBe("done");
    expect(flow.getSnapshot().value).toEqual(canSkip ? { steps: { signature: "signing" } } : "submitting");
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("the payment step renders no dialog of its own while its machine asks", () => {
    const flow = startFlow(false);
    const payment = toPayment(flow);
    payment.send({ type: "UNABLE_TO_PAY" });
    render(<PaymentStep snapshot={flow.getSnapshot()} send={flow.send} cards={noCards()} />);
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Payment");
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });
});
