import { useSelector } from "@xstate/react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import type { ActorRefFrom, SnapshotFrom } from "xstate";
import type { deliveryFlowMachine, DeliveryFlowEvent, DeliveryFlowInput } from "../../../machines/delivery-flow.machine.ts";
import { fetchClientToken, authorizeOrderCard, postJson } from "../../api/payments.ts";
import { reportMachineState } from "../../shell/live-machine-state.ts";
import { useFlowActor } from "../../shell/flow-actor.ts";
import { useMachineUrl } from "../../shell/use-machine-url.ts";
import { setUpCardClient } from "../../payments/index.ts";
import { preloadMask } from "../../ui/lazy-mask.ts";
import { LoadingScreen } from "../../ui/LoadingScreen.tsx";
import { whenIdleAndShown } from "../../ui/when-idle.ts";
import { createActionMemo, type ActionMemo } from "./action-memo.ts";
import { createCardSession, type CardSession } from "./card-session.ts";
import { Confirmation } from "./Confirmation.tsx";
import { deliveryPathOf, deliveryStepOfPath } from "./delivery-paths.ts";
import { clearFlow, draftOf, saveFlow, type StoredFlow } from "./flow-storage.ts";
import { openDelivery } from "./flow-machine.ts";
import { AddressStep } from "./steps/AddressStep.tsx";
import { CARD_FIELD_LABELS } from "./steps/CardFields.tsx";
import { DobStep } from "./steps/DobStep.tsx";
import { IdStep } from "./steps/IdStep.tsx";
import { OutcomeScreen } from "./steps/OutcomeScreen.tsx";
import { PaymentStep } from "./steps/PaymentStep.tsx";
import { PhotoStep } from "./steps/PhotoStep.tsx";
import { RecipientStep } from "./steps/RecipientStep.tsx";
import { SignatureStep } from "./steps/SignatureStep.tsx";
import { SubmissionView } from "./steps/SubmissionView.tsx";

export interface DeliveryFlowProps {
  /** How the flow starts: the order, the day, and the draft kept before a reload. */
  input: DeliveryFlowInput;
  courierId: number;
  /** What was kept before a reload (the draft is in the input; the memo is here). */
  stored: StoredFlow | null;
  /** The URL's step segment ("address", "verify-dob", …). */
  step: string;
  /** /pharmacies/{id}/deliver_orders/{orderId} */
  base: string;
  listPath: string;
}

/**
 * One order's delivery: runs the delivery-flow machine, keeps the URL on the
 * machine's step (a deep link is GO_TO_STEP; where the machine lands, the URL
 * follows), saves it for a reload, and tells the day what became of the orders.
 */
export function DeliveryFlow({ input, courierId, stored, step, base, listPath }: DeliveryFlowProps) {
  const orderId = input.order.id;
  // This order's calls go out with its memo (keys made synchronously as a call starts, kept with the draft) and card session.
  const [{ memo, cards }] = useState(() =>
    openDelivery(orderId, () => ({
      memo: createActionMemo(stored?.memo ?? {}),
      storedOn: input.today,
      cards: createCardSession({ fetchClientToken, setUpCardClient, postJson, authorize: authorizeOrderCard, labels: CARD_FIELD_LABELS }),
    })),
  );
  // Have ready, while the courier reads the address, what a later step needs: imask for the ID step's expiry date
  // (once the step is on the screen: its download would otherwise share the link with the step's own paint).
  useEffect(() => whenIdleAndShown(() => preloadMask()), []);
  // Started by the application machine: the flow tells the day its outcome and hands stored calls to the queue itself.
  const actor = useFlowActor("deliveryFlow", { input });
  // Kept for a reload after every change of the flow (its draft), removed once the delivery is finished or attempted.
  useEffect(() => {
    if (!actor) return;
    const keep = (snapshot: SnapshotFrom<typeof deliveryFlowMachine>) =>
      snapshot.status === "active" ? saveFlow(orderId, { courierId, day: input.today, draft: draftOf(snapshot), memo: memo.entries() }) : clearFlow(orderId);
    keep(actor.getSnapshot());
    const subscription = actor.subscribe(keep);
    return () => subscription.unsubscribe();
  }, [actor, courierId, input.today, memo, orderId]);
  return actor ? <DeliveryFlowScreen actor={actor} memo={memo} cards={cards} step={step} base={base} listPath={listPath} /> : <LoadingScreen />;
}

interface DeliveryFlowScreenProps extends Pick<DeliveryFlowProps, "step" | "base" | "listPath"> {
  actor: ActorRefFrom<typeof deliveryFlowMachine>;
  memo: ActionMemo;
  cards: CardSession;
}

function DeliveryFlowScreen({ actor, memo, cards, step, base, listPath }: DeliveryFlowScreenProps) {
  const snapshot = useSelector(actor, (state) => state);

  // The outcome reaches the day from the machine itself (its final states' reportOutcome).
  const done = snapshot.status === "done";

  // The URL mirrors the machine. A new URL (deep link, back button) is asked of the machine; a new machine step moves the URL.
  const path = deliveryPathOf(snapshot);
  useMachineUrl(actor, {
    url: `${base}/${step}`,
    pathOf: (state) => `${base}/${deliveryPathOf(state)}`,
    eventFor: (url) => {
      const target = deliveryStepOfPath(url.slice(base.length + 1));
      return target ? { type: "GO_TO_STEP" as const, step: target } : null;
    },
  });

  // The /machines page marks where the courier is in the delivery flow.
  useEffect(() => {
    reportMachineState("deliveryFlow", snapshot.value);
  }, [snapshot.value]);
  useEffect(() => () => reportMachineState("deliveryFlow", null), []);

  // The photo of the drop-off is a state of the recipient or signature step, under its URL.
  const photoStep = snapshot.matches({ steps: { recipient: "photo" } }) || snapshot.matches({ steps: { signature: "photo" } });
  // A new step (or the photo screen) starts at its top, whatever the last one was scrolled to.
  useEffect(() => {
    window.scrollTo?.(0, 0);
  }, [path, photoStep]);

  const send = (event: DeliveryFlowEvent) => actor.send(event);
  const props = { snapshot, send };

  if (done) {
    return (
      <main className="screen">
        <OutcomeScreen outcome={snapshot.output?.outcome === "delivered" ? "finished" : "attempted"} listPath={listPath} queued={snapshot.output?.queued} />
      </main>
    );
  }

  const submitting = snapshot.matches("submitting");
  return (
    <main className="screen wizard">
      <Link className="back-link" to={listPath}>
        ‹ Delivery list
      </Link>
      {submitting ? (
        <SubmissionView
          {...props}
          onRetry={(submit) => {
            // Try again is a new courier action: a new Idempotency-Key.
            memo.forgetAll();
            submit.send({ type: "RETRY" });
          }}
        />
      ) : photoStep ? (
        <PhotoStep snapshot={snapshot} />
      ) : (
        <Step path={path} {...props} cards={cards} />
      )}
      <Confirmation actor={actor} />
    </main>
  );
}

function Step({ path, cards, ...props }: { path: string; cards: CardSession } & Parameters<typeof AddressStep>[0]) {
  switch (deliveryStepOfPath(path)) {
    case "verifyDob":
      return <DobStep {...props} />;
    case "recipient":
      return <RecipientStep {...props} />;
    case "idVerification":
      return <IdStep {...props} />;
    case "payment":
      return <PaymentStep {...props} cards={cards} />;
    case "signature":
      return <SignatureStep {...props} />;
    default:
      return <AddressStep {...props} />;
  }
}
