import { screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AnyMachineSnapshot, EventObject } from "xstate";
import type { Order } from "../../../domain/contract/entities.ts";
import { identificationComplete } from "../../../domain/delivery-rules.ts";
import { courierNotesLongEnough, recipientCountsAsSelected } from "../../../domain/recipient.ts";
import { TEXT } from "../../../domain/texts.ts";
import { SIGNATURE_REFUSAL_REASONS } from "../../../domain/vocabulary.ts";
import { DELIVERY_STEPS } from "../../../domain/delivery-record.ts";
import { deliveryFlowMachine, type DeliveryFlowContext, type DeliveryFlowInput } from "../../../machines/delivery-flow.machine.ts";
import { confirmationOf as deliveryConfirmation } from "../../../src/features/delivery/confirmation.ts";
import { deliveryPathOf } from "../../../src/features/delivery/delivery-paths.ts";
import { allStateIds, allTransitionKeys, coverageOf, transitionCoverPaths } from "../../support/model-coverage.ts";
import { makeOrder, makePharmacy } from "../../support/order-fixtures.ts";
import { deliveryFlowEvents } from "../../support/delivery-flow-events.ts";
import { eachEventOf } from "../../support/replay-paths.ts";
import {
  courierCanSend,
  itineraryWith,
  perform,
  renderDelivery,
  resetHarness,
  SUPPORT_PHONE_SHOWN,
  TODAY,
} from "./delivery-harness.tsx";

vi.mock("../../../src/api/deliveries.ts", async (original) => ({ ...(await original()), ...(await import("./delivery-mocks.ts")).deliveryMocks.deliveries }));
vi.mock("../../../src/api/payments.ts", async (original) => ({ ...(await original()), ...(await import("./delivery-mocks.ts")).deliveryMocks.payments }));
vi.mock("../../../src/features/delivery/photo/shrink-photo.ts", async () => ({
  shrinkPhoto: async () => (await import("../../support/delivery-flow-events.ts")).PHOTO,
}));
vi.mock("signature_pad", async () => ({ default: (await import("./delivery-mocks.ts")).FakeSignaturePad }));

/**
 * The delivery-flow machine's model paths, walked through the React screens:
 * for every transition a courier can take, the shortest path there is played
 * by tapping and typing, and after every step the URL must be the one the
 * machine's state names (deliveryPathOf), the confirmation must be the one it
 * asks, and a failed call must show the spec §8 text.
 */




const refusalReasons = SIGNATURE_REFUSAL_REASONS.map((reason) => ({ ...reason }));
const owed = { copay: "12.50", delivery_fee: "5.00" } as const;
const groupBase = { status: "picked_up" as const, copay: "0.00", delivery_fee: "0.00" };

const fullOrder = makeOrder({
  id: 70,
  status: "picked_up",
  ...owed,
  patient_date_of_birth: "1948-03-14",
  collect_identification: true,
  signature_required: true,
  signature_refusal_reasons: refusalReasons,
  pharmacy: makePharmacy({ dob_verification_enabled: true, can_skip_signature: true }),
});
const plainOrder = makeOrder({ id: 80, ...groupBase, delivery_fee: null });
const plainOthers = [
  makeOrder({ id: 81, ...groupBase, patient_first_name: "Margaret" }),
  makeOrder({ id: 82, ...groupBase, patient_first_name: "Timothy" }),
];
const covidOrder = makeOrder({ id: 90, ...groupBase, pharmacy: makePharmacy({ id: 3, pod_recipient_config: "covid19_contactless", can_skip_signature: true }) });
// Date-of-birth checks but no date on file: the step has nothing to confirm.
const noDobOrder = makeOrder({ id: 120, status: "picked_up", patient_date_of_birth: null, pharmacy: makePharmacy({ id: 4, dob_verification_enabled: true }) });
const photoOrder = makeOrder({
  id: 130,
  status: "picked_up",
  signature_required: true,
  signature_refusal_reasons: refusalReasons,
  pharmacy: makePharmacy({ id: 5, can_skip_signature: true, pod_photo_required: true }),
});
const owedOrder = makeOrder({ id: 100, status: "picked_up", ...owed, pharmacy: makePharmacy({ id: 2, pod_recipient_config: "require_recipient" }) });


const E = deliveryFlowEvents("<svg/>");

const goTo = DELIVERY_STEPS.map((step) => ({ type: "GO_TO_STEP", step }));

interface Scenario {
  name: string;
  order: Order;
  others?: Order[];
  events: object[];
}

const SCENARIOS: Scenario[] = [
  {
    name: "DOB, ID, copay owed, signature may be skipped",
    order: fullOrder,
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
    order: photoOrder,
    events: [E.present, E.noRecipient, E.patient, E.notes, E.continue, E.photo, E.removePhoto, E.back, E.photoContinue, E.refuse, E.sent, E.sentQueued],
  },
  {
    name: "nothing owed, grouped orders at the door",
    order: plainOrder,
    others: plainOthers,
    events: [E.present, E.patient, E.other, E.otherNames, E.names, E.group, E.ungroup, E.continue, E.sign, E.sentQueued, E.sendCancelled, E.cancel],
  },
  {
    name: "covid19_contactless",
    order: covidOrder,
    events: [E.present, E.notes, E.continue, E.photo, E.back, E.photoContinue, E.sent, E.sendCancelled, E.cancel, E.tick, E.confirm, E.sentQueued],
  },
  { name: "copay owed, no ID", order: owedOrder, events: [E.present, E.patient, E.continue, E.paid] },
  { name: "DOB checks, no date of birth on file", order: noDobOrder, events: [E.present, E.dobVerified, E.dobNotVerified, E.confirm, E.cancel, E.sent] },
  { name: "deep links", order: fullOrder, events: [E.present, E.dobVerified, E.patient, E.other, E.otherNames, E.continue, E.id, E.paid, ...goTo] },
];

const inputOf = (scenario: Scenario): DeliveryFlowInput => ({
  order: scenario.order,
  otherOrders: [scenario.order, ...(scenario.others ?? [])],
  supportPhone: SUPPORT_PHONE_SHOWN,
  today: TODAY,
});

/** What makes one screen differ from another (as in the machine's own test), so paths stay few. */
const serializeState = (snapshot: AnyMachineSnapshot) => {
  const c = snapshot.context as DeliveryFlowContext;
  const at = (step: string) => snapshot.matches({ steps: step });
  return JSON.stringify([
    snapshot.value,
    snapshot.status,
    [...c.reached].sort(),
    c.recipient.relationship_id,
    recipientCountsAsSelected(c.recipient),
    at("recipient") ? [courierNotesLongEnough(c.recipient.courier_notes), c.recipient.failed, c.groupedOrderIds.length] : null,
    at("idVerification") ? identificationComplete(c.identification, c.today) : null,
    c.payment != null,
    at("signature") ? [c.signature.svg != null, c.signature.refusal_reason] : null,
    c.failure?.step ?? null,
    at("confirmingFailure") ? c.confirming?.step : null,
    c.photo != null,
  ]);
};

type Path = ReturnType<typeof transitionCoverPaths<typeof deliveryFlowMachine>>[number];

function pathsOf(scenario: Scenario): Path[] {
  const events = (snapshot: AnyMachineSnapshot) =>
    snapshot.status !== "active"
      ? []
      : (scenario.events.filter((event) => snapshot.can(event) && courierCanSend(snapshot, event as EventObject)) as EventObject[]);
  return transitionCoverPaths(deliveryFlowMachine, { events, input: inputOf(scenario), serializeState });
}

/**
 * The fewest of those paths that still take every transition they take
 * together (greedy set cover): the machine's own test replays all of them;
 * here each costs a render and a courier's taps.
 */
function coveringPaths(scenario: Scenario): Path[] {
  const all = pathsOf(scenario);
  const covers = all.map((path) => coverageOf(deliveryFlowMachine, [path], inputOf(scenario)).transitions);
  const missing = new Set(covers.flatMap((keys) => [...keys]));
  const chosen: Path[] = [];
  while (missing.size > 0) {
    let best = 0;
    let bestGain = -1;
    covers.forEach((keys, index) => {
      const gain = [...keys].filter((key) => missing.has(key)).length;
      if (gain > bestGain) [best, bestGain] = [index, gain];
    });
    chosen.push(all[best]!);
    covers[best]!.forEach((key) => missing.delete(key));
  }
  return chosen;
}

const pathName = (path: Path) =>
  path.steps
    .slice(1)
    .map(({ event }) => {
      const detail = "relationship_id" in event ? `(${String(event.relationship_id)})` : "step" in event ? `(${String(event.step)})` : "";
      return `${event.type.replace(/^xstate\./, "")}${detail}`;
    })
    .join(" → ") || "(start)";

/** What the screen must show in a model state: the URL, the confirmation asked, the alert of a failed call, the outcome. */
async function expectScreenOf(state: AnyMachineSnapshot, base: string) {
  const path = `${base}/${deliveryPathOf(state)}`;
  await waitFor(() => expect(screen.getByTestId("location").textContent).toBe(path));
  const confirmation = deliveryConfirmation(state);
  if (confirmation) expect(screen.getByRole("alertdialog")).toHaveTextContent(confirmation);
  else expect(screen.queryByRole("alertdialog")).toBeNull();
  const context = state.context as DeliveryFlowContext;
  if (state.matches({ steps: { recipient: "photo" } }) || state.matches({ steps: { signature: "photo" } })) {
    // Issue 19: the photo step, and the photo shown back before Continue.
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Photo of the drop-off");
    const preview = screen.queryByRole("img", { name: "Your photo of where the medication was left" });
    if (context.photo) await waitFor(() => expect(screen.getByRole("img", { name: "Your photo of where the medication was left" })).toHaveAttribute("src", context.photo!.data_url));
    else expect(preview).toBeNull();
  }
  if (state.matches("finished")) expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent(TEXT.delivered);
  if (state.matches("attempted")) expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent(TEXT.attempted);
}

beforeEach(() => resetHarness());
afterEach(() => vi.clearAllMocks());

describe.each(SCENARIOS)("the delivery wizard walks the machine's paths: $name", (scenario) => {
  const paths = coveringPaths(scenario);
  const base = `/pharmacies/${scenario.order.pharmacy.id}/deliver_orders/${scenario.order.id}`;

  it.each(paths.map((path) => [pathName(path), path] as const))("%s", async (_name, path) => {
    // xstate/graph's path.test: each step's event done on the screens, then every state checked there.
    let user: ReturnType<typeof renderDelivery>["user"] | undefined;
    let before: AnyMachineSnapshot | undefined;
    await path.test({
      events: eachEventOf(path, async ({ event }) => {
        if (user === undefined) ({ user } = renderDelivery(itineraryWith([scenario.order, ...(scenario.others ?? [])]), base));
        else await perform(user, event, before!, base);
      }),
      states: {
        "*": async (state) => {
          await expectScreenOf(state, base);
          before = state;
        },
      },
    });
  });
});

it("walks every state and every transition a courier can take through the screens", () => {
  const entered = new Set<string>();
  const taken = new Set<string>();
  for (const scenario of SCENARIOS) {
    const coverage = coverageOf(deliveryFlowMachine, coveringPaths(scenario), inputOf(scenario));
    coverage.states.forEach((id) => entered.add(id));
    coverage.transitions.forEach((key) => taken.add(key));
  }
  expect(allStateIds(deliveryFlowMachine).filter((id) => !entered.has(id))).toEqual([]);
  // Starting again from a draft is no tap but a reload: the unit model covers each place
  // (tests/unit/machines/delivery-flow.test.ts), wizard-behaviour.test.tsx reloads through the screens.
  const fromDraft = (key: string) => key.startsWith("deliveryFlow.starting --always#") && !key.endsWith("--> deliveryFlow.steps");
  expect(allTransitionKeys(deliveryFlowMachine).filter((key) => !taken.has(key) && !fromDraft(key))).toEqual([]);
});
