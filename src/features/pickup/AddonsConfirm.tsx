import { useSelector } from "@xstate/react";
import type { ActorRefFrom } from "xstate";
import type { addonsMachine } from "../../../machines/addons.machine.ts";
import { ActionButton } from "../../ui/ActionButton.tsx";
import { patientName, RxNumbers } from "./order-details.tsx";

/** The confirm sub-view: the chosen add-ons with their copays, then POST. */
export function AddonsConfirm({ actor }: { actor: ActorRefFrom<typeof addonsMachine> }) {
  const state = useSelector(actor, (snapshot) => snapshot);
  const { offered, chosen, error } = state.context;
  const submitting = state.matches("submitting");
  const count = chosen.length;

  return (
    <>
      <p className="lead">Add {count === 1 ? "this order" : `these ${count} orders`} to your list as picked up?</p>
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
      <ul className="list">
        {chosen.map((choice) => {
          const order = offered.find((offer) => offer.id === choice.id);
          if (!order) return null;
          return (
            <li key={choice.id} className="card review-row">
              <div>
                <p className="order-row__name">{patientName(order)}</p>
                <p className="order-row__rx">
                  <span className="muted">RX </span>
                  <RxNumbers order={order} />
                </p>
              </div>
              <span className="addon-copay">{choice.noCopay ? "No copay" : `Copay ${choice.copay}`}</span>
            </li>
          );
        })}
      </ul>
      <div className="actions">
        <ActionButton disabled={!state.can({ type: "CONFIRM" })} onClick={() => actor.send({ type: "CONFIRM" })}>
          {submitting ? "Adding…" : count === 1 ? "Add 1 order" : `Add ${count} orders`}
        </ActionButton>
        <ActionButton variant="secondary" disabled={!state.can({ type: "BACK" })} onClick={() => actor.send({ type: "BACK" })}>
          Change the choice
        </ActionButton>
      </div>
    </>
  );
}
