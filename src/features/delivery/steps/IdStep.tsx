import { useId } from "react";
import { idStateRequired, ID_NUMBER_MAX_LENGTH, identificationProblems } from "../../../../domain/delivery-rules.ts";
import { TEXT } from "../../../../domain/texts.ts";
import { ID_TYPES, US_STATE_ABBREVIATIONS } from "../../../../domain/vocabulary.ts";
import { ActionButton } from "../../../ui/ActionButton.tsx";
import { OrderSummary } from "../OrderSummary.tsx";
import { DateInput } from "./DateInput.tsx";
import type { StepProps } from "./step-props.ts";

/** Spec §5 ID step: type, state (not for passport or military), number and expiry, all required. */
export function IdStep({ snapshot, send }: StepProps) {
  const { order, identification: form, today } = snapshot.context;
  const problems = identificationProblems(form, today);
  const stateNeeded = idStateRequired(form.type);
  const ids = { type: useId(), state: useId(), number: useId(), expiry: useId(), expiryProblem: useId(), numberProblem: useId() };
  // A problem is shown once there is something to be wrong about, never for a field not yet filled.
  const numberProblem = form.number.trim() !== "" ? problems.number : undefined;
  const expiryProblem = /^\d{2}\/\d{2}\/\d{4}$/.test(form.expiration) ? problems.expiration : undefined;
  const change = (changes: Partial<typeof form>) => send({ type: "ID_CHANGED", changes });

  return (
    <>
      <h1 className="screen__title">ID verification</h1>
      <OrderSummary order={order} />
      <div className="form">
        <div className="field">
          <label className="field__label" htmlFor={ids.type}>
            ID type
          </label>
          <select
            id={ids.type}
            className="input"
            value={form.type ?? ""}
            onChange={(event) => {
              const type = event.target.value || null;
              change(idStateRequired(type) ? { type } : { type, state: "" });
            }}
          >
            <option value="">Choose…</option>
            {ID_TYPES.map((type) => (
              <option key={type.key} value={type.key}>
                {type.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.state}>
            State
          </label>
          <select
            id={ids.state}
            className="input"
            value={stateNeeded ? form.state : ""}
            disabled={!stateNeeded}
            onChange={(event) => change({ state: event.target.value })}
          >
            <option value="">{stateNeeded ? "Choose…" : "Not needed for this ID"}</option>
            {US_STATE_ABBREVIATIONS.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.number}>
            ID number
          </label>
          <input
            id={ids.number}
            className="input"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={ID_NUMBER_MAX_LENGTH}
            value={form.number}
            aria-invalid={numberProblem ? true : undefined}
            aria-describedby={numberProblem ? ids.numberProblem : undefined}
            onChange={(event) => change({ number: event.target.value })}
          />
          {numberProblem && (
            <p id={ids.numberProblem} className="field__error">
              {numberProblem}
            </p>
          )}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.expiry}>
            Expiration date
          </label>
          <DateInput
            id={ids.expiry}
            value={form.expiration}
            invalid={expiryProblem != null}
            describedBy={expiryProblem ? ids.expiryProblem : undefined}
            onAccept={(expiration) => change({ expiration })}
          />
          {expiryProblem && (
            <p id={ids.expiryProblem} className="field__error">
              {expiryProblem}
            </p>
          )}
        </div>
      </div>
      <div className="actions">
        <ActionButton disabled={!snapshot.can({ type: "CONTINUE" })} onClick={() => send({ type: "CONTINUE" })}>
          {TEXT.continue}
        </ActionButton>
        <ActionButton variant="danger" disabled={!snapshot.can({ type: "ID_NOT_PROVIDED" })} onClick={() => send({ type: "ID_NOT_PROVIDED" })}>
          {TEXT.unableToProvideId}
        </ActionButton>
      </div>
    </>
  );
}
