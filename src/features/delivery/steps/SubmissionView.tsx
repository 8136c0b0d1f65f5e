import { TEXT } from "../../../../domain/texts.ts";
import { ActionButton } from "../../../ui/ActionButton.tsx";
import { OrderSummary } from "../OrderSummary.tsx";
import type { StepProps } from "./step-props.ts";

/**
 * While a delivery call is out: its progress, and when it failed (spec §8 — not
 * for want of a network, which is queued instead) the alert with Try again or
 * Cancel back to the step.
 */
export function SubmissionView({ snapshot, send, onRetry }: StepProps & { onRetry: () => void }) {
  const { order, error, failure } = snapshot.context;
  const failed = snapshot.matches({ submittingFailure: "failed" }) || snapshot.matches({ submittingRecipient: "failed" }) || snapshot.matches({ submittingDelivery: "failed" });
  const what = snapshot.matches("submittingFailure") ? `Recording the failed delivery (${failure?.reason ?? ""})` : "Recording the delivery";
  return (
    <>
      <h1 className="screen__title">{failed ? "Not recorded" : "Sending…"}</h1>
      <OrderSummary order={order} />
      {failed ? (
        <>
          <p className="notice notice--error" role="alert">
            {error}
          </p>
          <div className="actions">
            <ActionButton onClick={onRetry}>{TEXT.tryAgain}</ActionButton>
            <ActionButton variant="secondary" onClick={() => send({ type: "CANCEL" })}>
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
