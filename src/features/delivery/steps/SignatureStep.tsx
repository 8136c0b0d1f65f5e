import { useEffect, useId, useState } from "react";
import { NOTES_MAX_LENGTH } from "../../../../domain/contract/delivery-submissions.ts";
import { PHYSICALLY_UNABLE, signatureProblem } from "../../../../domain/delivery-rules.ts";
import { recipientFullName } from "../../../../domain/recipient.ts";
import { TEXT } from "../../../../domain/texts.ts";
import { SIGNATURE_REFUSAL_REASONS } from "../../../../domain/vocabulary.ts";
import { ActionButton } from "../../../ui/ActionButton.tsx";
import { requestLocation } from "../../../shell/geolocation.ts";
import { OrderSummary } from "../OrderSummary.tsx";
import { SignaturePadField } from "../../../ui/SignaturePadField.tsx";
import type { StepProps } from "./step-props.ts";
import { SurveyQuestions } from "./SurveyQuestions.tsx";

/** Spec §5 Signature step: the pad, or (where the pharmacy allows it) a reason for not signing. */
export function SignatureStep({ snapshot, send }: StepProps) {
  const { order, recipient, signature, survey, groupable, groupedOrderIds } = snapshot.context;
  const canSkip = order.pharmacy.can_skip_signature;
  const reasons = order.signature_refusal_reasons.length > 0 ? order.signature_refusal_reasons : SIGNATURE_REFUSAL_REASONS;
  const [refusing, setRefusing] = useState(() => canSkip && signature.refusal_reason != null);
  const ids = { reason: useId(), notes: useId(), hint: useId() };
  const canContinue = snapshot.can({ type: "CONTINUE" });
  const signedBy = recipientFullName(recipient);
  const problem = refusing ? signatureProblem({ signed: false, refusal_reason: signature.refusal_reason, refusal_notes: signature.refusal_notes }, order) : null;

  // Spec §7: the browser's geolocation is requested; the completion carries it where granted.
  useEffect(() => requestLocation(), []);

  const refuse = (on: boolean) => {
    setRefusing(on);
    if (on) send({ type: "SIGNATURE_CHANGED", svg: null });
    else send({ type: "REFUSAL_CHANGED", reason: null, notes: "" });
  };

  return (
    <>
      <h1 className="screen__title">Signature</h1>
      <OrderSummary order={order} grouped={groupable.filter((candidate) => groupedOrderIds.includes(candidate.id))} />

      {!refusing && (
        <section className="section" aria-label="Signature">
          <p className="field__label">{signedBy ? `${signedBy}, please sign below.` : "Please sign below."}</p>
          <SignaturePadField svg={signature.svg} onChange={(svg) => send({ type: "SIGNATURE_CHANGED", svg })} />
        </section>
      )}

      {canSkip && (
        <section className="section form" aria-label="No signature">
          <label className="choice choice--box">
            <input type="checkbox" checked={refusing} onChange={(event) => refuse(event.target.checked)} />
            <span>The recipient did not sign</span>
          </label>
          {refusing && (
            <>
              <div className="field">
                <label className="field__label" htmlFor={ids.reason}>
                  Reason
                </label>
                <select
                  id={ids.reason}
                  className="input"
                  value={signature.refusal_reason ?? ""}
                  onChange={(event) =>
                    send({ type: "REFUSAL_CHANGED", reason: event.target.value || null, notes: signature.refusal_notes })
                  }
                >
                  <option value="">Choose…</option>
                  {reasons.map((reason) => (
                    <option key={reason.key} value={reason.key}>
                      {reason.display_name}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label className="field__label" htmlFor={ids.notes}>
                  Notes{signature.refusal_reason === PHYSICALLY_UNABLE ? " (optional)" : ""}
                </label>
                <textarea
                  id={ids.notes}
                  className="input"
                  rows={3}
                  maxLength={NOTES_MAX_LENGTH}
                  placeholder={TEXT.minimumThreeCharacters}
                  value={signature.refusal_notes}
                  onChange={(event) => send({ type: "REFUSAL_CHANGED", reason: signature.refusal_reason, notes: event.target.value })}
                />
              </div>
            </>
          )}
        </section>
      )}

      <SurveyQuestions survey={survey} onChange={(answers) => send({ type: "SURVEY_CHANGED", answers })} />

      <div className="actions">
        {!canContinue && (
          <p id={ids.hint} className="muted" role="status">
            {problem ?? "The recipient must sign."}
          </p>
        )}
        <ActionButton disabled={!canContinue} aria-describedby={!canContinue ? ids.hint : undefined} onClick={() => send({ type: "CONTINUE" })}>
          {TEXT.continue}
        </ActionButton>
      </div>
    </>
  );
}
