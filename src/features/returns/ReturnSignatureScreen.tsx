import { useSelector } from "@xstate/react";
import { useEffect, useId } from "react";
import type { Pharmacy } from "../../../domain/contract/entities.ts";
import { formatUsd } from "../../../domain/money.ts";
import { STAFF_NAME_MAX_LENGTH, staffSignatureProblems } from "../../../domain/returns.ts";
import { TEXT } from "../../../domain/texts.ts";
import { ActionButton } from "../../ui/ActionButton.tsx";
import { knownLocation, requestLocation } from "../../shell/geolocation.ts";
import { SignaturePadField } from "../../ui/SignaturePadField.tsx";
import { KIND_TITLES } from "./return-words.ts";
import type { ReturnsActor } from "./returns-actor.ts";
import { ReturnsHeader } from "./ReturnsHeader.tsx";

/**
 * /pharmacies/{id}/reconcile_signature, 'sign for items' (spec §2, §5): the
 * pharmacy staff member's first name, last name and signature, all required.
 */
export function ReturnSignatureScreen({ actor, pharmacy }: { actor: ReturnsActor; pharmacy: Pharmacy }) {
  const submitting = useSelector(actor, (snapshot) => snapshot.matches({ signing: "submitting" }));
  const staff = useSelector(actor, (snapshot) => snapshot.context.staff);
  const svg = useSelector(actor, (snapshot) => snapshot.context.signatureSvg);
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  const summary = useSelector(actor, (snapshot) => snapshot.context.summary);
  const canSubmit = useSelector(actor, (snapshot) => snapshot.can({ type: "SUBMIT" }));
  const missing = Object.values(staffSignatureProblems({ ...staff, signed: svg !== null }));
  const firstId = useId();
  const lastId = useId();
  const padLabelId = useId();
  const missingId = useId();

  // Spec §7: latitude and longitude go with the form where the browser grants them (never on the local host).
  useEffect(() => requestLocation(), []);

  const submit = () => {
    const here = knownLocation();
    if (here) actor.send({ type: "LOCATED", ...here });
    actor.send({ type: "SUBMIT" });
  };

  return (
    <main className="screen">
      <ReturnsHeader
        title={TEXT.signForItems}
        pharmacyName={pharmacy.name}
        back={{ onBack: () => actor.send({ type: "BACK" }), label: "Returns", disabled: submitting }}
      />
      <dl className="card returns-handover" aria-label="Handed to the pharmacy">
        <div className="returns-handover__row">
          <dt>
            {KIND_TITLES.orders} ({summary.items.length})
          </dt>
          <dd>{formatUsd(summary.itemsTotal)}</dd>
        </div>
        <div className="returns-handover__row">
          <dt>{KIND_TITLES.cash}</dt>
          <dd>{formatUsd(summary.cashCollected)}</dd>
        </div>
        <div className="returns-handover__row">
          <dt>{KIND_TITLES.check}</dt>
          <dd>{formatUsd(summary.checkCollected)}</dd>
        </div>
      </dl>

      <fieldset className="form returns-form" disabled={submitting}>
        <legend className="field__label returns-form__legend">Pharmacy staff</legend>
        <div className="field">
          <label className="field__label" htmlFor={firstId}>
            First name
          </label>
          <input
            id={firstId}
            className="input"
            value={staff.first_name}
            maxLength={STAFF_NAME_MAX_LENGTH}
            autoComplete="off"
            autoCapitalize="words"
            required
            onChange={(event) => actor.send({ type: "STAFF_CHANGED", changes: { first_name: event.target.value } })}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={lastId}>
            Last name
          </label>
          <input
            id={lastId}
            className="input"
            value={staff.last_name}
            maxLength={STAFF_NAME_MAX_LENGTH}
            autoComplete="off"
            autoCapitalize="words"
            required
            onChange={(event) => actor.send({ type: "STAFF_CHANGED", changes: { last_name: event.target.value } })}
          />
        </div>
        <div className="field">
          <p className="field__label returns-pad-label" id={padLabelId}>
            Signature
          </p>
          <div aria-labelledby={padLabelId} role="group">
            <SignaturePadField
              svg={svg}
              label="Signature pad: the pharmacy staff member signs here with a finger"
              onChange={(next) => actor.send({ type: "SIGNATURE_CHANGED", svg: next })}
            />
          </div>
        </div>
      </fieldset>

      {error && (
        <p className="notice notice--error returns-error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <ActionButton onClick={submit} disabled={!canSubmit || submitting} aria-describedby={missing.length > 0 ? missingId : undefined}>
          {submitting ? "Submitting…" : error ? TEXT.tryAgain : "Submit"}
        </ActionButton>
        {missing.length > 0 && !submitting && (
          <p className="muted returns-missing" id={missingId}>
            First name, last name and signature are required.
          </p>
        )}
      </div>
    </main>
  );
}
