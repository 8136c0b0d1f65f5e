import { useSelector } from "@xstate/react";
import type { Pharmacy } from "../../../domain/contract/entities.ts";
import { formatUsd } from "../../../domain/money.ts";
import { linesOfKind, totalOfKind } from "../../../domain/returns.ts";
import { TEXT } from "../../../domain/texts.ts";
import { ActionButton } from "../../ui/ActionButton.tsx";
import { KIND_TITLES, lineReason } from "./return-words.ts";
import type { ReturnsActor } from "./returns-actor.ts";
import { ReturnsHeader } from "./ReturnsHeader.tsx";

/** /pharmacies/{id}/reconcile_details/{orders|cash|check}: each line with its order and amount, and the total. */
export function ReturnDetailsScreen({ actor, pharmacy }: { actor: ReturnsActor; pharmacy: Pharmacy }) {
  const kind = useSelector(actor, (snapshot) => (snapshot.context.requested.screen === "details" ? snapshot.context.requested.kind : "orders"));
  const summary = useSelector(actor, (snapshot) => snapshot.context.summary);
  const orders = useSelector(actor, (snapshot) => snapshot.context.orders);
  const lines = linesOfKind(summary, kind);

  return (
    <main className="screen">
      <ReturnsHeader title={KIND_TITLES[kind]} pharmacyName={pharmacy.name} back={{ onBack: () => actor.send({ type: "BACK" }), label: "Returns" }} />
      <ul className="list" aria-label={KIND_TITLES[kind]}>
        {lines.map((line) => {
          const order = orders.find((candidate) => candidate.id === line.order_id);
          if (!order) return null;
          return (
            <li key={line.order_id} className="card returns-line">
              <div className="returns-line__main">
                <p className="returns-line__name">
                  {order.patient_first_name} {order.patient_last_name}
                </p>
                <p className="returns-line__rx rx-numbers">{order.rx_numbers.join(", ")}</p>
                <p className="muted returns-line__reason">{lineReason(line.type, order)}</p>
              </div>
              <p className="returns-line__amount">{formatUsd(line.amount)}</p>
            </li>
          );
        })}
      </ul>
      <p className="returns-total">
        <span>Total</span>
        <span className="returns-total__amount">{formatUsd(totalOfKind(summary, kind))}</span>
      </p>
      <div className="actions">
        <ActionButton onClick={() => actor.send({ type: "SIGN" })}>{TEXT.continue}</ActionButton>
      </div>
    </main>
  );
}
