import { useSelector } from "@xstate/react";
import type { ActorRefFrom } from "xstate";
import { TEXT } from "../../../../domain/texts.ts";
import type { deliverySubmitMachine } from "../../../../machines/delivery-submit.machine.ts";
import { ActionButton } from "../../../ui/ActionButton.tsx";
import { OrderSummary } from "../OrderSummary.tsx";
import type { StepProps } from "./step-props.ts";

type SubmitRef = ActorRefFrom<typeof deliverySubmitMachine>;

/**
 * While a delivery call is out (the submit machine the flow runs as its child
 * 'submit'): its progress, and when it
 * failed (spec §8 — not for want of a network, which is queued instead) the
 * alert with Try again or Cancel back to the step.
 */
export function SubmissionView({ snapshot, onRetry }: Pick<StepProps, "snapshot"> & { onRetry: (submit: SubmitRef) => void }) {
  const { order, failure } = snapshot.context;
  const child = snapshot.children.submit as SubmitRef | undefined;
  const submit = useSelector(child, (state) => state);
  const failed = submit?.matches("failed") ?? false;
  const what = failure ? `Recording the failed delivery (${failure.reason})` : "Recording the delivery";
  return (
    <>
      <h1 className="screen__title">{failed ? "Not recorded" : "Sending…"}</h1>
      <OrderSummary order={order} />
      {failed && child ? (
        <>
          <p className="notice notice--error" role="alert">
            {submit?.context.error}
          </p>
          <div className="actions">
            <ActionButton onClick={() => onRetry(child)}>{TEXT.tryAgain}</ActionButton>
            <ActionButton variant="secondary" onClick={() => child.send({ type: "CANCEL" })}>
              Cancel
            </ActionButton>
          </div>
        </>
      ) : (
        <p className="notice notice--ok" role="status" aria-live="polite">
          {what}…
        </p>
      )}
    </>
  );
}
