import { useSelector } from "@xstate/react";
import { useEffect, useRef } from "react";
import type { ActorRefFrom } from "xstate";
import type { Order } from "../../../domain/contract/entities.ts";
import { isValidCopay } from "../../../domain/copay.ts";
import { MAX_ADDON_ORDERS } from "../../../domain/pharmacy-progress.ts";
import type { addonsMachine, ChosenAddon } from "../../../machines/addons.machine.ts";
import { ActionButton } from "../../ui/ActionButton.tsx";
import { CopayEntry } from "./CopayEntry.tsx";
import { AddressLink, patientName, RxNumbers } from "./order-details.tsx";

type AddonsActor = ActorRefFrom<typeof addonsMachine>;

/** The add-ons on offer: tick the ones in hand (at most 3 in total), each with its copay. */
export function AddonsChoice({ actor }: { actor: AddonsActor }) {
  const state = useSelector(actor, (snapshot) => snapshot);
  const { offered, chosen, alreadyAdded, error } = state.context;

  return (
    <>
      <p className="lead">
        Orders the pharmacy has ready that are not on your list. Choose the ones you have in hand (at most {MAX_ADDON_ORDERS} a
        day at this pharmacy) and enter each copay.
      </p>
      <p className="addons-count" aria-live="polite">
        {alreadyAdded + chosen.length} of {MAX_ADDON_ORDERS} add-ons
        {alreadyAdded > 0 ? ` (${alreadyAdded} added earlier)` : ""}
      </p>
      {offered.length === 0 ? (
        <p className="muted">The pharmacy has no add-on orders for you right now.</p>
      ) : (
        <ul className="list">
          {offered.map((order) => (
            <li key={order.id}>
              <AddonRow order={order} choice={chosen.find((choice) => choice.id === order.id) ?? null} actor={actor} />
            </li>
          ))}
        </ul>
      )}
      {error && <ChoiceAlert text={error} />}
      <div className="actions">
        <ActionButton disabled={!state.can({ type: "REVIEW" })} onClick={() => actor.send({ type: "REVIEW" })}>
          Review add-ons
        </ActionButton>
        <ActionButton variant="secondary" onClick={() => actor.send({ type: "HELP" })}>
          Help
        </ActionButton>
      </div>
    </>
  );
}

/** Shown below the list, near the tap that caused it, and scrolled into view if the tap was far up. */
function ChoiceAlert({ text }: { text: string }) {
  const element = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    element.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  }, [text]);
  return (
    <p ref={element} className="notice notice--error addons-alert" role="alert">
      {text}
    </p>
  );
}

function AddonRow({ order, choice, actor }: { order: Order; choice: ChosenAddon | null; actor: AddonsActor }) {
  const name = patientName(order);
  return (
    <article className={choice ? "card addon-row addon-row--chosen" : "card addon-row"} aria-label={name}>
      <label className="check big-check">
        <input
          type="checkbox"
          checked={choice !== null}
          onChange={(event) => actor.send({ type: event.target.checked ? "CHOOSE" : "UNCHOOSE", orderId: order.id })}
        />
        <span>
          Add <strong>{name}</strong>
        </span>
      </label>
      <AddressLink address={order.address} />
      <p className="order-row__rx">
        <span className="muted">RX </span>
        <RxNumbers order={order} />
      </p>
      {choice && (
        <CopayEntry
          label={`Copay for ${name}`}
          onFile={order.copay}
          copay={choice.copay}
          noCopay={choice.noCopay}
          invalid={choice.copay.trim() !== "" && !isValidCopay(choice.copay)}
          disabled={false}
          onCopayChange={(value) => actor.send({ type: "CHANGE_COPAY", orderId: order.id, value })}
          onNoCopayChange={(checked) => actor.send({ type: "SET_NO_COPAY", orderId: order.id, checked })}
        />
      )}
    </article>
  );
}
