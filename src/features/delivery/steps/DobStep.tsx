import { dobToCheck } from "../../../../domain/delivery-rules.ts";
import { TEXT } from "../../../../domain/texts.ts";
import { ActionButton } from "../../../ui/ActionButton.tsx";
import { OrderSummary } from "../OrderSummary.tsx";
import type { StepProps } from "./step-props.ts";

/**
 * Spec §2 Date-of-birth step: confirm the patient's date of birth with the
 * recipient. With none on file there is nothing to confirm, so only 'Did not
 * verify date of birth' is offered (docs/decisions/0011-a-date-of-birth-nobody-can-see-is-never-confirmed.md).
 */
export function DobStep({ snapshot, send }: StepProps) {
  const { order } = snapshot.context;
  const dob = dobToCheck(order);
  return (
    <>
      <h1 className="screen__title">Verify date of birth</h1>
      <OrderSummary order={order} />
      <section className="card dob" aria-labelledby="dob-label">
        <p id="dob-label" className="field__label">
          {dob ? "Ask the recipient for the patient's date of birth. It must be:" : "The patient's date of birth:"}
        </p>
        <p className="dob__value">{dob ?? TEXT.dobNotAvailable}</p>
        <p className="muted">
          {dob ? "MM/DD/YYYY" : "No date of birth is on file for this patient, so it cannot be verified. The order goes back to the pharmacy."}
        </p>
      </section>
      <div className="actions">
        {dob && (
          <ActionButton disabled={!snapshot.can({ type: "DOB_VERIFIED" })} onClick={() => send({ type: "DOB_VERIFIED" })}>
            {TEXT.dobVerified}
          </ActionButton>
        )}
        <ActionButton variant="danger" disabled={!snapshot.can({ type: "DOB_NOT_VERIFIED" })} onClick={() => send({ type: "DOB_NOT_VERIFIED" })}>
          {TEXT.dobNotVerified}
        </ActionButton>
      </div>
    </>
  );
}
