import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, type AnyMachineSnapshot, type SnapshotFrom } from "xstate";
import type { DraftPlace } from "../../../domain/delivery-draft.ts";
import { draftOf } from "../../../src/features/delivery/flow-storage.ts";
import type { Order } from "../../../domain/contract/entities.ts";
import { identificationComplete } from "../../../domain/delivery-rules.ts";
import { courierNotesLongEnough, recipientCountsAsSelected, type RecipientForm } from "../../../domain/recipient.ts";
import { TEXT } from "../../../domain/texts.ts";
import { SIGNATURE_REFUSAL_REASONS } from "../../../domain/vocabulary.ts";
import { DELIVERY_STEPS, FAILURE_ANSWERS, failureAskedBy } from "../../../domain/delivery-record.ts";
import {
  deliveryFlowMachine,
  type DeliveryFlowContext,
  type DeliveryFlowEvent,
  type DeliveryFlowInput,
} from "../../../machines/delivery-flow.machine.ts";
import type { DeliverySubmission } from "../../../machines/delivery-submit.machine.ts";
import { confirmationOf as deliveryConfirmation } from "../../../src/features/delivery/confirmation.ts";
import { deliveryPathOf, deliveryStepOfPath } from "../../../src/features/delivery/delivery-paths.ts";
import { paymentMachine } from "../../../machines/payment.machine.ts";
import { CONTACTLESS, deliveryFlowEvents, ID, NO_RECIPIENT, OTHER, PATIENT, PHOTO } from "../../support/delivery-flow-events.ts";
import { transitionCoverPaths } from "../../support/model-coverage.ts";
import { makeOrder, makePharmacy } from "../../support/order-fixtures.ts";
import { expectFullCoverageAcross, pathName, possibleEvents, pathOfEvents, replayPath, type ModelPath } from "../../support/replay-paths.ts";

// Every "now" in the flow (client_occurred_at) is this instant, in the model and on the live actor alike.
const NOW = "2026-11-21T15:30:00.000Z";
vi.useFakeTimers({ toFake: ["Date"], now: new Date(NOW) });

const ACTORS = ["deliverySubmit", "payment", "photoProof"] as const;
const PHONE = "2155550100";
const TODAY = "2026-11-21";
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 354 200"><path d="M 1,1 C 2,2 3,3 4,4" stroke="black" fill="none"/></svg>';




// ---------------------------------------------------------------- scenarios

const refusalReasons = SIGNATURE_REFUSAL_REASONS.map((r) => ({ ...r }));
const owed = { copay: "12.50", delivery_fee: "5.00" } as const;

const full: DeliveryFlowInput = {
  order: makeOrder({
    id: 70,
    status: "picked_up",
    ...owed,
    patient_date_of_birth: "1948-03-14",
    collect_identification: true,
    signature_required: true,
    signature_refusal_reasons: refusalReasons,
    pharmacy: makePharmacy({ dob_verification_enabled: true, can_skip_signature: true }),
  }),
  supportPhone: PHONE,
  today: TODAY,
};

// A pharmacy that checks dates of birth, and an order with none on file: the step has no date to show.
const noDob: DeliveryFlowInput = {
  order: makeOrder({ id: 120, status: "picked_up", patient_date_of_birth: null, pharmacy: makePharmacy({ dob_verification_enabled: true }) }),
  supportPhone: PHONE,
  today: TODAY,
};

const groupBase = { status: "picked_up" as const, copay: "0.00", delivery_fee: "0.00" };
const plainOrder = makeOrder({ id: 80, ...groupBase, delivery_fee: null });
const plain: DeliveryFlowInput = {
  order: plainOrder,
  otherOrders: [
    makeOrder({ id: 81, ...groupBase, patient_first_name: "Margaret" }),
    makeOrder({ id: 82, ...groupBase, patient_first_name: "Timothy" }),
    makeOrder({ id: 83, ...groupBase, copay: null }),
    makeOrder({ id: 84, ...groupBase, address: { ...plainOrder.address, street_address: "1 Elsewhere St" } }),
  ],
  supportPhone: PHONE,
  today: TODAY,
};

const covid: DeliveryFlowInput = {
  order: makeOrder({ id: 90, ...groupBase, pharmacy: makePharmacy({ pod_recipient_config: "covid19_contactless", can_skip_signature: true }) }),
  supportPhone: PHONE,
  today: TODAY,
};

// Issue 19: a pharmacy that wants a photo wherever nobody signs.
const photoRequired: DeliveryFlowInput = {
  order: makeOrder({
    id: 130,
    status: "picked_up",
    signature_required: true,
    signature_refusal_reasons: refusalReasons,
    pharmacy: makePharmacy({ can_skip_signature: true, pod_photo_required: true }),
  }),
  supportPhone: PHONE,
  today: TODAY,
};

const owedOnly: DeliveryFlowInput = {
  order: makeOrder({ id: 100, status: "picked_up", ...owed, pharmacy: makePharmacy({ pod_recipient_config: "require_recipient" }) }),
  supportPhone: PHONE,
  today: TODAY,
};

const idOnly: DeliveryFlowInput = {
  order: makeOrder({ id: 110, ...groupBase, collect_identification: true }),
  supportPhone: PHONE,
  today: TODAY,
};


const E = deliveryFlowEvents(SVG);

const goTo = DELIVERY_STEPS.map((step) => ({ type: "GO_TO_STEP", step }));

const SCENARIOS: { name: string; input: DeliveryFlowInput; events: object[] }[] = [
  {
    name: "DOB, ID, copay owed, signature may be skipped",
    input: full,
    events: [
      E.present, E.addressIncorrect, E.dobVerified, E.dobNotVerified, E.confirm, E.cancel, E.continue,
      E.patient, E.noRecipient, E.notes, E.tick, E.untick, E.called, E.id, E.noId,
      E.sign, E.clearPad, E.refuse, E.survey, E.paid, E.notCollected, E.couldNotPay,
      E.sent, E.sendCancelled,
      E.photo, E.removePhoto, E.back, E.photoContinue,
    ],
  },
  {
    name: "the pharmacy requires a photo where nobody signs",
    input: photoRequired,
    events: [E.present, E.noRecipient, E.patient, E.notes, E.continue, E.photo, E.removePhoto, E.back, E.photoContinue, E.refuse, E.sent, E.sentQueued],
  },
  {
    name: "nothing owed, grouped orders at the door",
    input: plain,
    events: [E.present, E.patient, E.other, E.otherNames, E.group, E.ungroup, E.continue, E.sign, E.sentQueued, E.sendCancelled, E.cancel],
  },
  {
    name: "covid19_contactless",
    input: covid,
    events: [E.present, E.notes, E.continue, E.photo, E.back, E.photoContinue, E.sent, E.sendCancelled, E.cancel, E.tick, E.confirm, E.sentQueued],
  },
  { name: "copay owed, no ID", input: owedOnly, events: [E.present, E.patient, E.continue, E.paid] },
  { name: "ID, nothing owed", input: idOnly, events: [E.present, E.patient, E.continue, E.id] },
  {
    name: "DOB checks, no date of birth on file",
    input: noDob,
    events: [E.present, E.dobVerified, E.dobNotVerified, E.confirm, E.cancel, E.sent, E.sendCancelled, ...goTo],
  },
  {
    name: "deep links",
    input: full,
    events: [E.present, E.dobVerified, E.patient, E.other, E.noRecipient, E.continue, E.id, E.paid, ...goTo],
  },
];

/**
 * What makes one screen behave differently from another: the state, the
 * steps reached (deep links), who the recipient is and whether they count as
 * selected, the recipient step's notes/failed/grouping, a complete ID on the
 * ID step, whether payment is recorded, the signature step's entries, and the
 * step a failure came from. Typed text of the same kind is the same screen.
 */
const serializeState = (snapshot: AnyMachineSnapshot) => {
  const c = snapshot.context as DeliveryFlowContext;
  const at = (step: string) => snapshot.matches({ steps: step });
  const r: RecipientForm = c.recipient;
  return JSON.stringify([
    snapshot.value,
    snapshot.status,
    [...c.reached].sort(),
    r.relationship_id,
    recipientCountsAsSelected(r),
    at("recipient") ? [courierNotesLongEnough(r.courier_notes), r.failed, c.groupedOrderIds.length] : null,
    at("idVerification") ? identificationComplete(c.identification, c.today) : null,
    c.payment != null,
    at("signature") ? [c.signature.svg != null, c.signature.refusal_reason] : null,
    c.failure?.step ?? null,
    at("confirmingFailure") ? c.confirming?.step : null,
    c.photo != null,
  ]);
};

// Each scenario's paths are generated once: the path tests and the coverage check share them.
const generated = new Map<DeliveryFlowInput, Map<object[], ModelPath[]>>();
const pathsOf = (input: DeliveryFlowInput, events: object[]) => {
  const byEvents = generated.get(input) ?? new Map<object[], ModelPath[]>();
  generated.set(input, byEvents);
  const paths =
    byEvents.get(events) ??
    (transitionCoverPaths(deliveryFlowMachine, { events: possibleEvents(events), input, serializeState }));
  byEvents.set(events, paths);
  return paths;
};

describe("delivery-flow machine: every path", () => {
  for (const { name, input, events } of SCENARIOS) {
    const paths = pathsOf(input, events);
    it.each(paths.map((path) => [pathName(path), path] as const))(`${name}: %s`, async (_title, path) => {
      const { snapshot } = await replayPath(deliveryFlowMachine, ACTORS, input, path);
      expect(snapshot.value).toEqual(path.state.value);
      expect(snapshot.context).toEqual(path.state.context);
      expect(snapshot.status).toBe(path.state.status);
    });
  }

  it("with no date of birth on file, no path confirms one: 'Did not verify date of birth' is the way on (docs/decisions/0011-a-date-of-birth-nobody-can-see-is-never-confirmed.md)", () => {
    const paths = pathsOf(noDob, SCENARIOS.find((scenario) => scenario.input === noDob)!.events);
    const visited = paths.flatMap((path) => path.steps.map((step) => step.state as AnyMachineSnapshot));
    expect(visited.some((snapshot) => snapshot.matches({ steps: "verifyDob" }))).toBe(true);
    expect(visited.some((snapshot) => snapshot.matches("attempted"))).toBe(true);
    const shown = (snapshots: AnyMachineSnapshot[]) => snapshots.map((snapshot) => JSON.stringify(snapshot.value));
    expect(shown(visited.filter((snapshot) => (snapshot.context as DeliveryFlowContext).dobVerified))).toEqual([]);
    expect(shown(visited.filter((snapshot) => snapshot.matches({ steps: "recipient" })))).toEqual([]);
  });

});

// ---------------------------------------------------------------- behaviour

const path = pathOfEvents;
/** The submit machine's calls named by the child that made them (submitFailure, …), with the request body it sends. */
const SUBMIT_IDS = { failure: "submitFailure", recipient: "submitRecipient", delivery: "submitDelivery" } as const;
async function run(input: DeliveryFlowInput, events: readonly object[]) {
  const { snapshot, calls } = await replayPath(deliveryFlowMachine, ACTORS, input, path(events));
  return {
    snapshot,
    calls: calls.map((call) => {
      if (call.actor !== "deliverySubmit") return call;
      const submission = call.input as DeliverySubmission;
      return { actor: SUBMIT_IDS[submission.kind], input: submission.body };
    }),
  };
}
const value = (snapshot: AnyMachineSnapshot) => snapshot.value;

// ---------------------------------------------------------------- a reload: the flow starts again from the draft

/** The courier's draft after these events (what src/features/delivery/flow-storage.ts keeps), through storage's JSON. */
async function draftAfter(input: DeliveryFlowInput, events: readonly object[], place: DraftPlace): Promise<DeliveryFlowInput> {
  const { snapshot } = await run(input, events);
  const draft = draftOf(snapshot as SnapshotFrom<typeof deliveryFlowMachine>);
  expect(draft.place, `the draft after ${events.length} events`).toBe(place);
  return { ...input, draft: JSON.parse(JSON.stringify(draft)) };
}

/** What a resumed flow is walked with (one array, so its paths are generated once). */
const RESUME_EVENTS = [E.continue];

/** One draft per place a reload can leave the courier, each started again where it names. */
const RESUMES: { place: DraftPlace; input: DeliveryFlowInput; at: object | string }[] = [
  { place: "address", input: await draftAfter(plain, [], "address"), at: { steps: "address" } },
  { place: "verifyDob", input: await draftAfter(full, [E.present], "verifyDob"), at: { steps: "verifyDob" } },
  { place: "recipient", input: await draftAfter(plain, [E.present, E.patient], "recipient"), at: { steps: { recipient: "editing" } } },
  { place: "recipientPhoto", input: await draftAfter(covid, [E.present, E.notes, E.continue, E.photo], "recipientPhoto"), at: { steps: { recipient: "photo" } } },
  { place: "idVerification", input: await draftAfter(idOnly, [E.present, E.patient, E.continue], "idVerification"), at: { steps: "idVerification" } },
  { place: "payment", input: await draftAfter(owedOnly, [E.present, E.patient, E.continue], "payment"), at: { steps: "payment" } },
  { place: "signature", input: await draftAfter(plain, [E.present, E.patient, E.continue, E.sign], "signature"), at: { steps: { signature: "signing" } } },
  {
    place: "signaturePhoto",
    input: await draftAfter(photoRequired, [E.present, E.patient, E.continue, E.refuse, E.continue], "signaturePhoto"),
    at: { steps: { signature: "photo" } },
  },
  { place: "sendingFailure", input: await draftAfter(plain, [E.addressIncorrect, E.confirm], "sendingFailure"), at: "submitting" },
  {
    place: "sendingRecipient",
    input: await draftAfter(covid, [E.present, E.notes, E.continue, E.photo, E.photoContinue], "sendingRecipient"),
    at: "submitting",
  },
  {
    place: "sendingDelivery",
    input: await draftAfter(plain, [E.present, E.patient, E.continue, E.sign, E.continue], "sendingDelivery"),
    at: "submitting",
  },
];

describe("a reload: the flow starts again from the courier's draft", () => {
  it.each(RESUMES.map((resume) => [resume.place, resume] as const))("at %s, with what was entered", async (_place, { input, at }) => {
    const paths = pathsOf(input, RESUME_EVENTS);
    for (const path of paths) {
      const { snapshot } = await replayPath(deliveryFlowMachine, ACTORS, input, path);
      expect(snapshot.value).toEqual(path.state.value);
      expect(snapshot.context).toEqual(path.state.context);
    }
    const { snapshot } = await run(input, []);
    expect(snapshot.value).toEqual(at);
    // What the courier entered is back: the draft's record is the flow's.
    expect(draftOf(snapshot as SnapshotFrom<typeof deliveryFlowMachine>).record).toEqual(input.draft!.record);
  });

  it("sends a call that was under way again with the same body (its client_occurred_at)", async () => {
    const input = RESUMES.find((resume) => resume.place === "sendingDelivery")!.input;
    const { calls } = await run(input, [E.sent]);
    expect(calls.map((call) => call.actor)).toEqual(["submitDelivery"]);
    expect((calls[0]!.input as { client_occurred_at: string }).client_occurred_at).toBe(input.draft!.record.occurredAt);
  });
});

describe("delivery-flow machine: coverage", () => {
  it("covers every state and transition (fresh deliveries and every draft)", () => {
    expectFullCoverageAcross(deliveryFlowMachine, [
      ...SCENARIOS.map(({ input, events }) => ({ input, paths: pathsOf(input, events) })),
      ...RESUMES.map(({ input }) => ({ input, paths: pathsOf(input, RESUME_EVENTS) })),
    ]);
  });
});

describe("delivery flow order (spec §4)", () => {
  it("goes address → verify-dob → recipient → idverification → payment → signature → finished, sending every field", async () => {
    const { snapshot, calls } = await run(full, [
      E.present, E.dobVerified, E.called, E.patient, E.continue, E.id, E.continue, E.paid, E.sign, E.survey, E.continue, E.sent,
    ]);
    expect(value(snapshot)).toBe("finished");
    expect(snapshot.output).toEqual({ outcome: "delivered", queued: false });
    expect(calls.map((call) => call.actor)).toEqual(["payment", "submitDelivery"]);
    expect(calls[0]!.input).toEqual({ order: full.order, supportPhone: PHONE });
    expect(calls[1]!.input).toEqual({
      order_ids: [70],
      signature_svg: SVG,
      body: null,
      signed_by: "Eleanor Abernathy",
      dob_verified: true,
      recipient_called_at: "2026-11-21T15:20:00.000Z",
      client_occurred_at: NOW,
      relationship_id: PATIENT,
      recipient_first_name: "Eleanor",
      recipient_last_name: "Abernathy",
      other_relationship_description: null,
      survey: { have_you_left_prescription_at_pharmacy: null, use_delivery_service_again: true, refill_reminder_opt_in: null },
      order_payment: { payment_type: "cash", amount: "17.50", new_copay: null, transaction_id: null },
      identification_state: "PA",
      identification_type: "driver",
      identification_number: "D1234567",
      identification_expiration: "2030-12-31",
      signature_refusal_reason: null,
      photo: null,
    });
  });

  it("skips date of birth, ID and payment when not needed", async () => {
    const { snapshot } = await run(plain, [E.present, E.patient, E.continue]);
    expect(snapshot.value).toEqual({ steps: { signature: "signing" } });
    expect(snapshot.context.reached).toEqual(["address", "recipient", "signature"]);
  });

  it("skips payment when the recipient is skipped: No Recipient is submitted at the recipient step", async () => {
    const { snapshot, calls } = await run(full, [E.present, E.dobVerified, E.noRecipient, E.notes, E.continue, E.photoContinue, E.sent]);
    expect(value(snapshot)).toBe("finished");
    expect(calls.filter((call) => call.actor !== "photoProof")).toEqual([
      {
        actor: "submitRecipient",
        input: {
          order_ids: [70],
          relationship: "No Recipient",
          relationship_id: NO_RECIPIENT,
          recipient_called_at: null,
          client_occurred_at: NOW,
          body: "Nobody answered the door",
          photo: null,
        },
      },
    ]);
  });

  it("submits contactless with notes at the recipient step, preselected for covid19_contactless", async () => {
    const start = await run(covid, [E.present]);
    expect(start.snapshot.context.recipient.relationship_id).toBe(CONTACTLESS);
    expect(start.snapshot.can({ type: "CONTINUE" })).toBe(false);
    expect(start.snapshot.can({ type: "SELECT_RELATIONSHIP", relationship_id: PATIENT })).toBe(false);
    const { snapshot, calls } = await run(covid, [E.present, E.notes, E.continue, E.photoContinue, E.sent]);
    expect(value(snapshot)).toBe("finished");
    expect(calls.at(-1)).toMatchObject({ actor: "submitRecipient", input: { relationship: "Contactless - No Signature Requested", relationship_id: CONTACTLESS } });
  });

  it("refuses a relationship the order does not offer", async () => {
    const { snapshot } = await run(plain, [E.present]);
    expect(snapshot.can({ type: "SELECT_RELATIONSHIP", relationship_id: NO_RECIPIENT })).toBe(false);
    expect(snapshot.can({ type: "SELECT_RELATIONSHIP", relationship_id: CONTACTLESS })).toBe(false);
    expect(snapshot.can({ type: "SELECT_RELATIONSHIP", relationship_id: PATIENT })).toBe(true);
  });

  it("keeps Continue disabled until the recipient counts as selected", async () => {
    const other = await run(plain, [E.present, E.other, { type: "RECIPIENT_CHANGED", changes: { first_name: "Bo", last_name: "Lee" } }]);
    expect(other.snapshot.can({ type: "CONTINUE" })).toBe(false);
    const described = await run(plain, [E.present, E.other, E.otherNames]);
    expect(described.snapshot.can({ type: "CONTINUE" })).toBe(true);
    const tooLong = await run(plain, [E.present, E.other, E.otherNames, { type: "RECIPIENT_CHANGED", changes: { other_description: "x".repeat(33) } }]);
    expect(tooLong.snapshot.can({ type: "CONTINUE" })).toBe(false);
  });

  it("payment not collected (unable to pay, confirmed) goes on to the signature and sends no payment", async () => {
    const { snapshot, calls } = await run(full, [
      E.present, E.dobVerified, E.patient, E.continue, E.id, E.continue, E.notCollected, E.sign, E.continue, E.sentQueued,
    ]);
    expect(value(snapshot)).toBe("finished");
    expect(snapshot.output).toEqual({ outcome: "delivered", queued: true });
    expect((calls.at(-1)!.input as { order_payment: unknown }).order_payment).toBeNull();
  });

  it("delivers every grouped order, with names typed (not locked) for Patient", async () => {
    const grouped = await run(plain, [E.present, E.patient, E.group]);
    expect(grouped.snapshot.context.groupedOrderIds).toEqual([81, 82]);
    expect(grouped.snapshot.context.recipient).toMatchObject({ first_name: "", last_name: "" });
    const { calls } = await run(plain, [
      E.present, E.patient, E.group, { type: "RECIPIENT_CHANGED", changes: { first_name: "Harold", last_name: "Johnson" } }, E.continue, E.sign, E.continue,
    ]);
    expect(calls.at(-1)!.input).toMatchObject({ order_ids: [80, 81, 82], signed_by: "Harold Johnson", relationship_id: PATIENT, dob_verified: null });
  });

  it("does not offer grouping where it is not allowed", async () => {
    const { snapshot } = await run(full, [E.present, E.dobVerified]);
    expect(snapshot.context.groupable).toEqual([]);
    expect(snapshot.can({ type: "SET_GROUPED", grouped: true })).toBe(false);
  });

  it("completes with a signature refusal reason and its notes", async () => {
    const { calls } = await run(full, [
      E.present, E.dobVerified, E.patient, E.continue, E.id, E.continue, E.paid, E.refuse, E.continue, E.photoContinue,
    ]);
    expect(calls.at(-1)!.input).toMatchObject({ signature_svg: null, signed_by: null, signature_refusal_reason: "refused", body: "Would not sign", photo: null });
  });

  it("needs the pad signed, or a valid refusal", async () => {
    const atSignature = [E.present, E.dobVerified, E.patient, E.continue, E.id, E.continue, E.paid];
    expect((await run(full, atSignature)).snapshot.can({ type: "CONTINUE" })).toBe(false);
    const noNotes = await run(full, [...atSignature, { type: "REFUSAL_CHANGED", reason: "other", notes: "ab" }]);
    expect(noNotes.snapshot.can({ type: "CONTINUE" })).toBe(false);
    const unable = await run(full, [...atSignature, { type: "REFUSAL_CHANGED", reason: "physically_unable", notes: "" }]);
    expect(unable.snapshot.can({ type: "CONTINUE" })).toBe(true);
    const mustSign = await run(owedOnly, [E.present, E.patient, E.continue, E.paid, E.refuse]);
    expect(mustSign.snapshot.can({ type: "CONTINUE" })).toBe(false);
  });

  it("refuses an expired or incomplete ID", async () => {
    const atId = [E.present, E.dobVerified, E.patient, E.continue];
    const expired = await run(full, [...atId, { type: "ID_CHANGED", changes: { ...ID, expiration: "11/20/2026" } }]);
    expect(expired.snapshot.can({ type: "CONTINUE" })).toBe(false);
    const passport = await run(full, [...atId, { type: "ID_CHANGED", changes: { ...ID, type: "passport", state: "" } }]);
    expect(passport.snapshot.can({ type: "CONTINUE" })).toBe(true);
  });
});

describe("photo of the drop-off", () => {
  it("comes after the recipient step where nobody signs, is shown back, and goes with the recipient submission", async () => {
    const atPhoto = await run(covid, [E.present, E.notes, E.continue]);
    expect(atPhoto.snapshot.value).toEqual({ steps: { recipient: "photo" } });
    expect(atPhoto.calls).toEqual([{ actor: "photoProof", input: expect.objectContaining({ photo: null, required: false }) }]);
    const { snapshot, calls } = await run(covid, [E.present, E.notes, E.continue, E.photo, E.photoContinue, E.sent]);
    expect(value(snapshot)).toBe("finished");
    expect(calls.at(-1)).toEqual({ actor: "submitRecipient", input: expect.objectContaining({ relationship_id: CONTACTLESS, photo: PHOTO }) });
  });

  it("comes after a refusal reason, never after a signature, and goes with the completion", async () => {
    const atSignature = [E.present, E.dobVerified, E.patient, E.continue, E.id, E.continue, E.paid];
    const signed = await run(full, [...atSignature, E.sign, E.continue]);
    expect(signed.snapshot.value).toEqual("submitting");
    const refused = await run(full, [...atSignature, E.refuse, E.continue]);
    expect(refused.snapshot.value).toEqual({ steps: { signature: "photo" } });
    const { calls } = await run(full, [...atSignature, E.refuse, E.continue, E.photo, E.photoContinue]);
    expect(calls.at(-1)).toEqual({ actor: "submitDelivery", input: expect.objectContaining({ signature_refusal_reason: "refused", photo: PHOTO }) });
  });

  it("a photo taken, then a signature after going back: the completion carries no photo", async () => {
    const { calls } = await run(full, [
      E.present, E.dobVerified, E.patient, E.continue, E.id, E.continue, E.paid, E.refuse, E.continue, E.photo, E.back, E.sign, E.continue,
    ]);
    expect(calls.at(-1)!.input).toMatchObject({ signature_svg: SVG, photo: null });
  });

  it("tells the photo machine whether the pharmacy requires a photo (pod_photo_required), and what was taken before Back", async () => {
    const atPhoto = [E.present, E.noRecipient, E.notes, E.continue];
    expect((await run(photoRequired, atPhoto)).calls).toEqual([{ actor: "photoProof", input: expect.objectContaining({ photo: null, required: true }) }]);
    const again = await run(photoRequired, [...atPhoto, E.photo, E.back, E.continue]);
    expect(again.calls.at(-1)).toEqual({ actor: "photoProof", input: expect.objectContaining({ photo: PHOTO, required: true }) });
    const refusal = await run(photoRequired, [E.present, E.patient, E.continue, E.refuse, E.continue]);
    expect(refusal.snapshot.value).toEqual({ steps: { signature: "photo" } });
    // A signature needs no photo, required or not.
    const signed = await run(photoRequired, [E.present, E.patient, E.continue, E.sign, E.continue]);
    expect(signed.snapshot.value).toEqual("submitting");
  });

  it("Back returns to the step with what was entered; the photo is kept for the next Continue", async () => {
    const { snapshot } = await run(covid, [E.present, E.notes, E.continue, E.photo, E.back]);
    expect(snapshot.value).toEqual({ steps: { recipient: "editing" } });
    expect(snapshot.context.photo).toEqual(PHOTO);
    expect(snapshot.context.recipient.courier_notes).toBe("Nobody answered the door");
  });

  it("survives a reload: the photo is plain JSON in the courier's draft, and the flow starts again at the photo", async () => {
    const { input } = RESUMES.find((resume) => resume.place === "recipientPhoto")!;
    expect(input.draft!.record.photo).toEqual(PHOTO);
    const { snapshot } = await run(input, []);
    expect(snapshot.value).toEqual({ steps: { recipient: "photo" } });
    expect(snapshot.context.photo).toEqual(PHOTO);
  });
});

describe("failures (spec §4, §5)", () => {
  const failureCall = async (input: DeliveryFlowInput, events: readonly object[]) => {
    const { snapshot, calls } = await run(input, events);
    expect(value(snapshot)).toBe("attempted");
    expect(snapshot.output).toEqual({ outcome: "attempted", queued: false });
    return calls.at(-1)!;
  };

  it.each([
    ["the address is incorrect", [E.addressIncorrect], "Incorrect Address"],
    ["date of birth not verified", [E.present, E.dobNotVerified], "Date of Birth Not Verified"],
    ["unable to provide ID", [E.present, E.dobVerified, E.patient, E.continue, E.noId], "ID Not Provided"],
  ] as const)("%s: confirms, then submits the failure", async (_name, events, reason) => {
    const asking = await run(full, events);
    expect(deliveryConfirmation(asking.snapshot)).toBe(TEXT.failedDeliveryConfirm);
    const call = await failureCall(full, [...events, E.confirm, E.sent]);
    expect(call).toEqual({ actor: "submitFailure", input: { failure_reason: reason, client_occurred_at: NOW, order_ids: [70] } });
  });

  it("asks to confirm a failure on just the courier answers the domain gives a reason for, each at the step it names", () => {
    const asking = DELIVERY_STEPS.flatMap((step) =>
      Object.entries(deliveryFlowMachine.getStateNodeById(`deliveryFlow.steps.${step}`).on)
        .filter(([, transitions]) => transitions.some((t) => t.target?.some((node) => node.id === "deliveryFlow.steps.confirmingFailure")))
        .map(([event]) => [event, step]),
    );
    expect(asking).toEqual(Object.entries(FAILURE_ANSWERS).map(([answer, asked]) => [answer, asked.step]));
    for (const [answer, asked] of Object.entries(FAILURE_ANSWERS)) expect(failureAskedBy(answer)).toBe(asked);
    expect(["CONFIRM", "CONTINUE", "toString", "constructor"].map(failureAskedBy)).toEqual([null, null, null, null]);
  });

  it("cannot pay (confirmed in the payment step): submits 'Patient Could Not Provide Copayment'", async () => {
    const call = await failureCall(full, [E.present, E.dobVerified, E.patient, E.continue, E.id, E.continue, E.couldNotPay, E.sent]);
    expect(call.input).toEqual({ failure_reason: "Patient Could Not Provide Copayment", client_occurred_at: NOW, order_ids: [70] });
  });

  it("the recipient step's tick: confirms with its own text, needs notes, submits 'Patient Not Home' for every grouped order", async () => {
    const asking = await run(plain, [E.present, E.tick]);
    expect(deliveryConfirmation(asking.snapshot)).toBe(TEXT.failedDeliveryTickConfirm);
    const ticked = await run(plain, [E.present, E.group, E.tick, E.confirm]);
    expect(ticked.snapshot.can({ type: "CONTINUE" })).toBe(false);
    const call = await failureCall(plain, [E.present, E.group, E.tick, E.confirm, E.notes, E.continue, E.sent]);
    expect(call.input).toEqual({
      failure_reason: "Patient Not Home",
      client_occurred_at: NOW,
      order_ids: [80, 81, 82],
      body: "Nobody answered the door",
    });
  });

  it("cancelling a confirmation changes nothing", async () => {
    const { snapshot, calls } = await run(full, [E.addressIncorrect, E.cancel]);
    expect(snapshot.value).toEqual({ steps: "address" });
    expect(calls).toEqual([]);
    const unticked = await run(plain, [E.present, E.tick, E.cancel]);
    expect(unticked.snapshot.context.recipient.failed).toBe(false);
  });

  it("a failed call the courier cancels goes back to the step, the failure forgotten; the completion keeps what was entered", async () => {
    const sending = await run(full, [E.present, E.dobNotVerified, E.confirm]);
    expect(sending.snapshot.value).toEqual("submitting");
    expect(deliveryPathOf(sending.snapshot)).toBe("verify-dob");
    const back = await run(full, [E.present, E.dobNotVerified, E.confirm, E.sendCancelled]);
    expect(back.snapshot.value).toEqual({ steps: "verifyDob" });
    expect(back.snapshot.context.failure).toBeNull();
    const paymentBack = await run(owedOnly, [E.present, E.patient, E.continue, E.couldNotPay, E.sendCancelled]);
    expect(deliveryPathOf(paymentBack.snapshot)).toBe("payment");
    const { snapshot } = await run(plain, [E.present, E.patient, E.continue, E.sign, E.continue, E.sendCancelled]);
    expect(snapshot.context.signature.svg).toBe(SVG);
    expect(snapshot.value).toEqual({ steps: { signature: "signing" } });
  });

  it("a failure queued offline ends at attempted all the same", async () => {
    const { snapshot } = await run(covid, [E.present, E.tick, E.confirm, E.notes, E.continue, E.sentQueued]);
    expect(snapshot.output).toEqual({ outcome: "attempted", queued: true });
  });
});

describe("deep links and the URL (spec §2, §4)", () => {
  it("maps steps to URL segments both ways", () => {
    expect(DELIVERY_STEPS.map((step) => deliveryStepOfPath(
      { address: "address", verifyDob: "verify-dob", recipient: "recipient", idVerification: "idverification", payment: "payment", signature: "signature" }[step],
    ))).toEqual([...DELIVERY_STEPS]);
    expect(deliveryStepOfPath("finished")).toBeNull();
    expect(deliveryStepOfPath("nonsense")).toBeNull();
  });

  it("keeps the courier on the current step for a step not yet reached", async () => {
    const { snapshot } = await run(full, [{ type: "GO_TO_STEP", step: "signature" }, { type: "GO_TO_STEP", step: "recipient" }]);
    expect(snapshot.value).toEqual({ steps: "address" });
    expect(deliveryPathOf(snapshot)).toBe("address");
  });

  it("goes back to a reached step and forward again", async () => {
    const back = await run(full, [E.present, E.dobVerified, { type: "GO_TO_STEP", step: "address" }]);
    expect(deliveryPathOf(back.snapshot)).toBe("address");
    const forward = await run(full, [E.present, E.dobVerified, { type: "GO_TO_STEP", step: "address" }, { type: "GO_TO_STEP", step: "recipient" }]);
    expect(deliveryPathOf(forward.snapshot)).toBe("recipient");
  });

  it("sends a signature link without a chosen relationship to recipient", async () => {
    const { snapshot } = await run(plain, [E.present, E.patient, E.continue, { type: "GO_TO_STEP", step: "recipient" }, E.other, { type: "GO_TO_STEP", step: "signature" }]);
    expect(deliveryPathOf(snapshot)).toBe("recipient");
  });

  it("sends a signature link back to recipient when the recipient is submitted there (No Recipient)", async () => {
    const { snapshot } = await run(full, [
      E.present, E.dobVerified, E.patient, E.continue, E.id, E.continue, E.paid,
      { type: "GO_TO_STEP", step: "recipient" }, E.noRecipient, { type: "GO_TO_STEP", step: "signature" },
    ]);
    expect(snapshot.value).toEqual({ steps: { recipient: "editing" } });
  });

  it("sends a payment link to signature once nothing is owed, and never takes a second payment", async () => {
    const { snapshot, calls } = await run(owedOnly, [E.present, E.patient, E.continue, E.paid, { type: "GO_TO_STEP", step: "payment" }]);
    expect(deliveryPathOf(snapshot)).toBe("signature");
    expect(calls.filter((call) => call.actor === "payment")).toHaveLength(1);
  });

  it("names each state's URL, the finished and attempted pages included", async () => {
    expect(deliveryPathOf((await run(full, [E.present])).snapshot)).toBe("verify-dob");
    expect(deliveryPathOf((await run(full, [E.present, E.dobVerified, E.patient, E.continue])).snapshot)).toBe("idverification");
    expect(deliveryPathOf((await run(owedOnly, [E.present, E.patient, E.continue])).snapshot)).toBe("payment");
    expect(deliveryPathOf((await run(covid, [E.present, E.notes, E.continue])).snapshot)).toBe("recipient");
    expect(deliveryPathOf((await run(plain, [E.present, E.patient, E.continue, E.sign, E.continue])).snapshot)).toBe("signature");
    expect(deliveryPathOf((await run(covid, [E.present, E.notes, E.continue])).snapshot)).toBe("recipient");
    expect(deliveryPathOf((await run(full, [E.present, E.dobVerified, E.patient, E.continue, E.id, E.continue, E.paid, E.refuse, E.continue])).snapshot)).toBe("signature");
    expect(deliveryPathOf((await run(covid, [E.present, E.notes, E.continue, E.photoContinue, E.sent])).snapshot)).toBe("finished");
    expect(deliveryPathOf((await run(full, [E.addressIncorrect, E.confirm, E.sent])).snapshot)).toBe("attempted");
  });
});

describe("resuming after a reload", () => {
  it("starts again at the step with what was entered, from the courier's draft (plain JSON)", async () => {
    const entered = await draftAfter(plain, [E.present, E.other, E.otherNames, E.group, E.called], "recipient");
    const { snapshot } = await run(entered, [E.continue]);
    expect(snapshot.context.recipient).toMatchObject({ relationship_id: OTHER, first_name: "Bo", other_description: "Son" });
    expect(snapshot.context.groupedOrderIds).toEqual([81, 82]);
    expect(snapshot.value).toEqual({ steps: { signature: "signing" } });
  });

  it("keeps no card data: with the card fields up, the draft names the payment step and no payment", async () => {
    const payment = paymentMachine.provide({
      actors: { setUpCardClient: fromPromise<void, { order_id: number }>(async () => {}), authorizeCard: fromPromise(async () => ({ transaction_id: "t" })) },
    });
    const actor = createActor(deliveryFlowMachine.provide({ actors: { payment } }), { input: owedOnly }).start();
    for (const event of [E.present, E.patient, E.continue] as DeliveryFlowEvent[]) actor.send(event);
    const child = actor.getSnapshot().children.payment!;
    child.send({ type: "CHOOSE_METHOD", method: "card" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    child.send({ type: "CARD_FIELDS_CHANGED", number: true, cvv: true, expiration: true });
    const draft = draftOf(actor.getSnapshot());
    actor.stop();
    expect(draft.place).toBe("payment");
    expect(draft.record.payment).toBeNull();
    expect(JSON.stringify(draft)).not.toMatch(/cardFields|cvv|"method"/);
    // Started again, the payment step asks for the method afresh.
    const resumed = createActor(deliveryFlowMachine.provide({ actors: { payment } }), { input: { ...owedOnly, draft } }).start();
    expect(resumed.getSnapshot().value).toEqual({ steps: "payment" });
    expect((resumed.getSnapshot().children.payment!.getSnapshot() as AnyMachineSnapshot).value).toBe("choosing");
    resumed.stop();
  });
});

// The scenarios' orders must be what their names say.
it("scenario orders are consistent with the rules they exercise", () => {
  const orders: Order[] = [full.order, plain.order, covid.order, owedOnly.order, idOnly.order, noDob.order, photoRequired.order];
  expect(orders.every((order) => order.status.name === "picked_up")).toBe(true);
});
