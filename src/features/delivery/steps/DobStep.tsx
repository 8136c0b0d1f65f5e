import { isoToUsDate } from "../../../../domain/dates.ts";
import { TEXT } from "../../../../domain/texts.ts";
import { ActionButton } from "../../../ui/ActionButton.tsx";
import { OrderSummary } from "../OrderSummary.tsx";
import type { StepProps } from "./step-props.ts";

/** Spec §2 Date-of-birth step: confirm the patient's date of birth with the recipient. */
export function DobStep({ snapshot, send }: StepProps) {
  const { order } = snapshot.context;
  const dob = isoToUsDate(order.patient_date_of_birth);
  return (
    <>
      <h1 className="screen__title">Verify date of birth</h1>
      <OrderSummary order={order} />
      <section className="card dob" aria-labelledby="dob-label">
        <p id="dob-label" className="field__label">
          Ask the recipient for the patient&apos;s date of birth. It must be:
        </p>
        <p className="dob__value">{dob ?? TEXT.dobNotAvailable}</p>
        <p className="muted">MM/DD/YYYY</p>
      </section>
      <div className="actions">
        <ActionButton disabled={!snapshot.can({ type: "DOB_VERIFIED" })} onClick={() => send({ type: "DOB_VERIFIED" })}>
          {TEXT.dobVerified}
        </ActionButton>
        <ActionButton variant="danger" disabled={!snapshot.can({ type: "DOB_NOT_VERIFIED" })} onClick={() => send({ type: "DOB_NOT_VERIFIED" })}>
          {TEXT.dobNotVerified}
        </ActionButton>
      </div>
    </>
  );
}
