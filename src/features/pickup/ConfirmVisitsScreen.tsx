import { useActorRef, useSelector } from "@xstate/react";
import { useNavigate } from "react-router";
import { fromPromise } from "xstate";
import type { PharmacyVisit } from "../../../domain/contract/entities.ts";
import { formatAddress } from "../../../domain/address.ts";
import { createPharmacyVisitsMachine } from "../../../machines/pharmacy-visits.definition.ts";
import { confirmVisits } from "../../api/pickup.ts";
import { CourierDayContext } from "../../shell/app-actor.ts";
import { ActionButton } from "../../ui/ActionButton.tsx";
import { useWhenDone } from "./use-when-done.ts";

const appPharmacyVisitsMachine = createPharmacyVisitsMachine({
  confirmVisits: fromPromise(({ input }) => confirmVisits(input.courierId, input.pharmacy_visits)),
});

/**
 * /confirm_pharmacy_visits (spec §2, §7, §8): the courier answers each pending
 * visit; while any is pending every other screen redirects here.
 */
export function ConfirmVisitsScreen() {
  const day = CourierDayContext.useActorRef();
  const { courierId, visits } = CourierDayContext.useSelector(
    (state) => ({ courierId: state.context.day!.courier.id, visits: state.context.day!.pharmacy_visits }),
    (a, b) => a.courierId === b.courierId && a.visits === b.visits,
  );
  const navigate = useNavigate();
  const actor = useActorRef(appPharmacyVisitsMachine, { input: { courierId, visits } });
  const state = useSelector(actor, (snapshot) => snapshot);
  const { pending, answers, error } = state.context;

  // Answered (or nothing was pending): the day learns the answers, then on to the pharmacies.
  useWhenDone(actor, (output) => {
    if (output.visits.length > 0) day.send({ type: "VISITS_CHANGED", visits: output.visits });
    void navigate("/pharmacies", { replace: true });
  });

  const answerOf = (visit: PharmacyVisit) => answers.find((answer) => answer.id === visit.id)?.confirmed;
  const answering = state.matches("answering");

  return (
    <main className="screen">
      <h1 className="screen__title">Confirm pharmacy visits</h1>
      <p className="lead">Will you be available for {pending.length === 1 ? "this pharmacy visit" : "these pharmacy visits"} today?</p>
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
      <ul className="list">
        {pending.map((visit) => (
          <li key={visit.id} className="card">
            <fieldset className="visit-answer" disabled={!answering} aria-describedby={`visit-${visit.id}-address`}>
              <legend className="visit-answer__name">{visit.pharmacy.name}</legend>
              <p id={`visit-${visit.id}-address`} className="visit-answer__address">
                {formatAddress(visit.pharmacy.address)}
              </p>
              <div className="segmented">
                {([true, false] as const).map((confirmed) => (
                  <label key={String(confirmed)} className="segmented__option">
                    <input
                      type="radio"
                      name={`visit-${visit.id}`}
                      checked={answerOf(visit) === confirmed}
                      onChange={() => actor.send({ type: "ANSWER", visitId: visit.id, confirmed })}
                    />
                    <span>{confirmed ? "Yes, available" : "No, not available"}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          </li>
        ))}
      </ul>
      <div className="actions">
        <ActionButton disabled={!state.can({ type: "SUBMIT" })} onClick={() => actor.send({ type: "SUBMIT" })}>
          {state.matches("submitting") ? "Submitting…" : "Submit"}
        </ActionButton>
      </div>
    </main>
  );
}
