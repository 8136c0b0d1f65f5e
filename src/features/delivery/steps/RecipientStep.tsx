import { useId } from "react";
import {
  courierNotesRequired,
  isOther,
  namesLockedToPatient,
  NAME_MAX_LENGTH,
  OTHER_DESCRIPTION_MAX_LENGTH,
  recipientOptions,
  recipientProblems,
  recipientSkipped,
} from "../../../../domain/recipient.ts";
import { NOTES_MAX_LENGTH } from "../../../../domain/contract/delivery-submissions.ts";
import { TEXT } from "../../../../domain/texts.ts";
import { ActionButton } from "../../../ui/ActionButton.tsx";
import { OrderSummary } from "../OrderSummary.tsx";
import type { StepProps } from "./step-props.ts";

/** Spec §5 Recipient step: who accepts, their names, notes, Group Orders and the failed-delivery tick. */
export function RecipientStep({ snapshot, send }: StepProps) {
  const { order, recipient: form, groupable, groupedOrderIds } = snapshot.context;
  const grouped = groupedOrderIds.length > 0;
  const groupedOrders = groupable.filter((candidate) => groupedOrderIds.includes(candidate.id));
  const chosen = form.relationship_id != null;
  const locked = namesLockedToPatient(form, grouped);
  const problems = recipientProblems(form);
  const canContinue = snapshot.can({ type: "CONTINUE" });
  const hint = !canContinue && chosen ? Object.values(problems)[0] : undefined;
  const ids = { legend: useId(), first: useId(), last: useId(), other: useId(), notes: useId(), hint: useId() };

  return (
    <>
      <h1 className="screen__title">Who is accepting the delivery?</h1>
      <OrderSummary order={order} grouped={groupedOrders} />

      {groupable.length > 0 && (
        <section className="section" aria-label={TEXT.groupOrders}>
          <label className="choice choice--box">
            <input
              type="checkbox"
              checked={grouped}
              disabled={!snapshot.can({ type: "SET_GROUPED", grouped: !grouped })}
              onChange={(event) => send({ type: "SET_GROUPED", grouped: event.target.checked })}
            />
            <span>{TEXT.groupOrders}</span>
          </label>
          <ul className="group-list muted">
            {groupable.map((candidate) => (
              <li key={candidate.id}>
                {candidate.patient_first_name} {candidate.patient_last_name} · {candidate.rx_numbers.join(", ")}
              </li>
            ))}
          </ul>
        </section>
      )}

      <fieldset className="fieldset">
        <legend id={ids.legend} className="field__label">
          Recipient
        </legend>
        <div className="choices" role="radiogroup" aria-labelledby={ids.legend}>
          {recipientOptions(order).map((option) => (
            <label key={option.id} className="choice">
              <input
                type="radio"
                name="relationship"
                value={option.id}
                checked={form.relationship_id === option.id}
                disabled={!snapshot.can({ type: "SELECT_RELATIONSHIP", relationship_id: option.id })}
                onChange={() => send({ type: "SELECT_RELATIONSHIP", relationship_id: option.id })}
              />
              <span>{option.name}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <div className="form">
        {chosen && !recipientSkipped(form) && (
          <>
            <div className="field">
              <label className="field__label" htmlFor={ids.first}>
                First name
              </label>
              <input
                id={ids.first}
                className="input"
                autoComplete="off"
                maxLength={NAME_MAX_LENGTH}
                readOnly={locked}
                value={form.first_name}
                onChange={(event) => send({ type: "RECIPIENT_CHANGED", changes: { first_name: event.target.value } })}
              />
            </div>
            <div className="field">
              <label className="field__label" htmlFor={ids.last}>
                Last name
              </label>
              <input
                id={ids.last}
                className="input"
                autoComplete="off"
                maxLength={NAME_MAX_LENGTH}
                readOnly={locked}
                value={form.last_name}
                onChange={(event) => send({ type: "RECIPIENT_CHANGED", changes: { last_name: event.target.value } })}
              />
            </div>
          </>
        )}
        {isOther(form) && (
          <div className="field">
            <label className="field__label" htmlFor={ids.other}>
              Relationship to the patient
            </label>
            <input
              id={ids.other}
              className="input"
              autoComplete="off"
              maxLength={OTHER_DESCRIPTION_MAX_LENGTH}
              placeholder={TEXT.maxThirtyTwoCharacters}
              value={form.other_description}
              onChange={(event) => send({ type: "RECIPIENT_CHANGED", changes: { other_description: event.target.value } })}
            />
          </div>
        )}
        {courierNotesRequired(form) && (
          <div className="field">
            <label className="field__label" htmlFor={ids.notes}>
              Courier notes
            </label>
            <textarea
              id={ids.notes}
              className="input"
              rows={3}
              maxLength={NOTES_MAX_LENGTH}
              placeholder={TEXT.minimumThreeCharacters}
              value={form.courier_notes}
              onChange={(event) => send({ type: "RECIPIENT_CHANGED", changes: { courier_notes: event.target.value } })}
            />
          </div>
        )}
        <label className="choice choice--box choice--danger">
          <input
            type="checkbox"
            checked={form.failed}
            onChange={(event) => send({ type: event.target.checked ? "TICK_FAILED" : "UNTICK_FAILED" })}
          />
          <span>{TEXT.failedDeliveryTick}</span>
        </label>
      </div>

      <div className="actions">
        {hint && (
          <p id={ids.hint} className="muted" role="status">
            {hint}
          </p>
        )}
        <ActionButton disabled={!canContinue} aria-describedby={hint ? ids.hint : undefined} onClick={() => send({ type: "CONTINUE" })}>
          {TEXT.continue}
        </ActionButton>
      </div>
    </>
  );
}
