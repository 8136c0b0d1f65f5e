import { describe, expect, it } from "vitest";
import type { AnyMachineSnapshot } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import { correctedCopayCents } from "../../../domain/delivery-rules.ts";
import { TEXT } from "../../../domain/texts.ts";
import { authorizationErrorText, cardSetupErrorText } from "../../../domain/payment-step.ts";
import { paymentMachine, type PaymentEvent, type PaymentInput } from "../../../machines/payment.machine.ts";
import { confirmationOf as paymentConfirmation } from "../../../src/features/delivery/confirmation.ts";
import { transitionCoverPaths } from "../../support/model-coverage.ts";
import { makeOrder, makePharmacy } from "../../support/order-fixtures.ts";
import { expectFullCoverageAcross, pathName, possibleEvents, pathOfEvents, replayPath } from "../../support/replay-paths.ts";

const ACTORS = ["setUpCardClient", "authorizeCard"] as const;
const PHONE = "2155550100";

const failure = (kind: ApiFailure["kind"], status: number | null, message = "nope"): ApiFailure => ({ kind, status, message, code: null });
const UNAVAILABLE = failure("unavailable", 503);
const FORBIDDEN = failure("forbidden", 403);
const SERVER = failure("server", 500);
const NETWORK = failure("network", null);

const EVENTS: (PaymentEvent | Record<string, unknown>)[] = [
  { type: "CHOOSE_METHOD", method: "cash" },
  { type: "CHOOSE_METHOD", method: "check" },
  { type: "CHOOSE_METHOD", method: "card" },
  { type: "CORRECT_COPAY", new_copay: "$20.00" },
  { type: "CORRECT_COPAY", new_copay: "0.50" },
  { type: "CORRECT_COPAY", new_copay: null },
  { type: "CARD_FIELDS_CHANGED", number: true, cvv: true, expiration: true },
  { type: "CARD_FIELDS_CHANGED", number: true, cvv: false, expiration: true },
  { type: "CONTINUE" },
  { type: "AUTHORIZE" },
  { type: "UNABLE_TO_PAY" },
  { type: "CONFIRM" },
  { type: "CANCEL" },
  { type: "xstate.done.actor.setUpCardClient" },
  { type: "xstate.error.actor.setUpCardClient", error: NETWORK },
  { type: "xstate.done.actor.authorizeCard", output: { transaction_id: "txn_1" } },
  { type: "xstate.error.actor.authorizeCard", error: UNAVAILABLE },
  { type: "xstate.error.actor.authorizeCard", error: FORBIDDEN },
  { type: "xstate.error.actor.authorizeCard", error: SERVER },
];

const owed = { copay: "12.50", delivery_fee: "5.00", other_items_amount_due: "0.00" } as const;
const SCENARIOS: { name: string; input: PaymentInput }[] = [
  { name: "every method, copay collection required", input: { order: makeOrder({ id: 7, ...owed }), supportPhone: PHONE } },
  {
    name: "cash only, copay collection may be skipped",
    input: {
      order: makeOrder({
        id: 8,
        ...owed,
        pharmacy: makePharmacy({ can_skip_copay_collection: true, payment_methods: [{ type: "cash", allowed: true }, { type: "check", allowed: false }, { type: "card", allowed: false }] }),
      }),
      supportPhone: PHONE,
    },
  },
  {
    name: "card only",
    input: {
      order: makeOrder({ id: 9, ...owed, pharmacy: makePharmacy({ payment_methods: [{ type: "card", allowed: true }] }) }),
      supportPhone: PHONE,
    },
  },
];

/** One screen per state, method, kind of copay correction, card form validity and alert. */
const serializeState = (snapshot: AnyMachineSnapshot) => {
  const c = snapshot.context as { method: string | null; newCopay: string | null; cardFields: Record<string, boolean>; error: string | null };
  const correction = c.newCopay == null ? "none" : correctedCopayCents(c.newCopay) == null ? "invalid" : "valid";
  return JSON.stringify([snapshot.value, snapshot.status, c.method, correction, Object.values(c.cardFields).every(Boolean), c.error]);
};

const pathsOf = (input: PaymentInput) =>
  transitionCoverPaths(paymentMachine, { events: possibleEvents(EVENTS), input, serializeState });

describe("payment machine: every path", () => {
  for (const { name, input } of SCENARIOS) {
    const paths = pathsOf(input);
    it.each(paths.map((path) => [pathName(path), path] as const))(`${name}: %s`, async (_title, path) => {
      const { snapshot } = await replayPath(paymentMachine, ACTORS, input, path);
      expect(snapshot.value).toEqual(path.state.value);
      expect(snapshot.context).toEqual(path.state.context);
      expect(snapshot.status).toBe(path.state.status);
      if (snapshot.status === "done") expect(snapshot.output).toEqual(path.state.output);
    });
  }

  it("covers every state and transition", () => {
    expectFullCoverageAcross(
      paymentMachine,
      SCENARIOS.map(({ input }) => ({ input, paths: pathsOf(input) })),
    );
  });
});

const path = pathOfEvents;

const [ALL, SKIPPABLE, CARD_ONLY] = SCENARIOS.map((s) => s.input) as [PaymentInput, PaymentInput, PaymentInput];

describe("payment behaviour (spec §4, §5, §8)", () => {
  it("offers only the methods the pharmacy allows", async () => {
    const { snapshot } = await replayPath(paymentMachine, ACTORS, SKIPPABLE, path([]));
    expect(snapshot.context.allowedMethods).toEqual(["cash"]);
    expect(snapshot.can({ type: "CHOOSE_METHOD", method: "card" })).toBe(false);
    expect(snapshot.can({ type: "CHOOSE_METHOD", method: "check" })).toBe(false);
    expect(snapshot.can({ type: "CHOOSE_METHOD", method: "cash" })).toBe(true);
  });

  it("needs a method before continuing", async () => {
    const { snapshot } = await replayPath(paymentMachine, ACTORS, ALL, path([]));
    expect(snapshot.can({ type: "CONTINUE" })).toBe(false);
  });

  it("records cash with the amount owed", async () => {
    const { snapshot } = await replayPath(paymentMachine, ACTORS, ALL, path([{ type: "CHOOSE_METHOD", method: "cash" }, { type: "CONTINUE" }]));
    expect(snapshot.status).toBe("done");
    expect(snapshot.output).toEqual({ outcome: "collected", payment_type: "cash", amount: "17.50", new_copay: null, transaction_id: null, collected: true });
  });

  it("records a check with a corrected copay, and refuses an invalid correction", async () => {
    const invalid = await replayPath(paymentMachine, ACTORS, ALL, path([{ type: "CHOOSE_METHOD", method: "check" }, { type: "CORRECT_COPAY", new_copay: "000" }]));
    expect(invalid.snapshot.can({ type: "CONTINUE" })).toBe(false);
    const { snapshot } = await replayPath(paymentMachine, ACTORS, ALL, path([
      { type: "CHOOSE_METHOD", method: "check" },
      { type: "CORRECT_COPAY", new_copay: "$20.00" },
      { type: "CONTINUE" },
    ]));
    expect(snapshot.output).toEqual({ outcome: "collected", payment_type: "check", amount: "25.00", new_copay: "20.00", transaction_id: null, collected: true });
  });

  it("sets up the card client, enables the form only with every field valid, and authorizes the total", async () => {
    const partial = await replayPath(paymentMachine, ACTORS, ALL, path([
      { type: "CHOOSE_METHOD", method: "card" },
      { type: "xstate.done.actor.setUpCardClient" },
      { type: "CARD_FIELDS_CHANGED", number: true, cvv: false, expiration: true },
    ]));
    expect(partial.snapshot.can({ type: "AUTHORIZE" })).toBe(false);
    const { snapshot, calls } = await replayPath(paymentMachine, ACTORS, ALL, path([
      { type: "CHOOSE_METHOD", method: "card" },
      { type: "xstate.done.actor.setUpCardClient" },
      { type: "CORRECT_COPAY", new_copay: "15.00" },
      { type: "CARD_FIELDS_CHANGED", number: true, cvv: true, expiration: true },
      { type: "AUTHORIZE" },
      { type: "xstate.done.actor.authorizeCard", output: { transaction_id: "txn_9" } },
    ]));
    expect(calls).toEqual([
      { actor: "setUpCardClient", input: { order_id: 7 } },
      { actor: "authorizeCard", input: { order_id: 7, payment_type: "credit_card", new_copay: "15.00", total: "20.00" } },
    ]);
    expect(snapshot.output).toEqual({ outcome: "collected", payment_type: "credit_card", amount: "20.00", new_copay: "15.00", transaction_id: "txn_9", collected: true });
  });

  it("disables the form while an authorization is pending", async () => {
    const { snapshot } = await replayPath(paymentMachine, ACTORS, ALL, path([
      { type: "CHOOSE_METHOD", method: "card" },
      { type: "xstate.done.actor.setUpCardClient" },
      { type: "CARD_FIELDS_CHANGED", number: true, cvv: true, expiration: true },
      { type: "AUTHORIZE" },
    ]));
    for (const event of [{ type: "AUTHORIZE" }, { type: "CHOOSE_METHOD", method: "cash" }, { type: "CORRECT_COPAY", new_copay: "1.00" }, { type: "UNABLE_TO_PAY" }] as const) {
      expect(snapshot.can(event as PaymentEvent), event.type).toBe(false);
    }
  });

  it.each([
    [UNAVAILABLE, TEXT.processorUnavailable],
    [FORBIDDEN, TEXT.authorizationError],
    [SERVER, TEXT.serverError],
  ])("shows the authorization failure (%o) and lets the courier try again", async (error, text) => {
    const { snapshot } = await replayPath(paymentMachine, ACTORS, ALL, path([
      { type: "CHOOSE_METHOD", method: "card" },
      { type: "xstate.done.actor.setUpCardClient" },
      { type: "CARD_FIELDS_CHANGED", number: true, cvv: true, expiration: true },
      { type: "AUTHORIZE" },
      { type: "xstate.error.actor.authorizeCard", error },
    ]));
    expect(snapshot.value).toEqual({ card: "entering" });
    expect(snapshot.context.error).toBe(text);
    expect(snapshot.can({ type: "AUTHORIZE" })).toBe(true);
  });

  it("resets the method when the card client cannot be set up", async () => {
    const { snapshot } = await replayPath(paymentMachine, ACTORS, CARD_ONLY, path([
      { type: "CHOOSE_METHOD", method: "card" },
      { type: "xstate.error.actor.setUpCardClient", error: failure("other", null, "Cannot contact the gateway at this time.") },
    ]));
    expect(snapshot.value).toBe("choosing");
    expect(snapshot.context.method).toBeNull();
    expect(snapshot.context.error).toBe(TEXT.gatewayUnreachable);
    expect(cardSetupErrorText(failure("other", null, "bad token"))).toBeNull();
  });

  it("unable to pay by card: confirms the phone text and delivers without payment", async () => {
    const asking = await replayPath(paymentMachine, ACTORS, ALL, path([
      { type: "CHOOSE_METHOD", method: "card" },
      { type: "xstate.done.actor.setUpCardClient" },
      { type: "UNABLE_TO_PAY" },
    ]));
    expect(paymentConfirmation(asking.snapshot)).toBe(
      `This medication can still be delivered to the recipient. Please contact the provider at ${PHONE} to notify us that the payment was not collected.`,
    );
    const { snapshot } = await replayPath(paymentMachine, ACTORS, ALL, path([
      { type: "CHOOSE_METHOD", method: "card" },
      { type: "xstate.done.actor.setUpCardClient" },
      { type: "UNABLE_TO_PAY" },
      { type: "CONFIRM" },
    ]));
    expect(snapshot.output).toEqual({ outcome: "not_collected", payment_type: "credit_card", amount: "0.00", new_copay: null, transaction_id: null, collected: false });
  });

  it("unable to pay where copay collection may be skipped: confirms and delivers without payment", async () => {
    const { snapshot } = await replayPath(paymentMachine, ACTORS, SKIPPABLE, path([{ type: "UNABLE_TO_PAY" }, { type: "CONFIRM" }]));
    expect(snapshot.output).toMatchObject({ outcome: "not_collected", collected: false, payment_type: null });
  });

  it("unable to pay otherwise: confirms the failed delivery", async () => {
    const asking = await replayPath(paymentMachine, ACTORS, ALL, path([{ type: "CHOOSE_METHOD", method: "cash" }, { type: "UNABLE_TO_PAY" }]));
    expect(paymentConfirmation(asking.snapshot)).toBe(TEXT.failedDeliveryConfirm);
    const { snapshot } = await replayPath(paymentMachine, ACTORS, ALL, path([{ type: "CHOOSE_METHOD", method: "cash" }, { type: "UNABLE_TO_PAY" }, { type: "CONFIRM" }]));
    expect(snapshot.output).toMatchObject({ outcome: "could_not_pay", collected: false, amount: "0.00" });
    const idle = await replayPath(paymentMachine, ACTORS, ALL, path([]));
    expect(paymentConfirmation(idle.snapshot)).toBeNull();
  });

  it("maps authorization failures as spec §8 says", () => {
    expect(authorizationErrorText(UNAVAILABLE)).toBe("Processor Network Unavailable. Please try again.");
    expect(authorizationErrorText(FORBIDDEN)).toBe("There was an error authorizing the transaction. Please verify card information and try again.");
    expect(authorizationErrorText(NETWORK)).toBe(TEXT.noInternet);
  });
});
