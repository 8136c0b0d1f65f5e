import { memo } from "react";
import { Link } from "react-router";
import type { OpsOrder } from "../../domain/contract/ops.ts";
import type { Attention } from "../../domain/needs-attention.ts";
import { STATUS_WORDS } from "./status-words.ts";

export interface AttentionItem {
  order: OpsOrder;
  attention: Attention;
}

/** 'Needs attention': what the rule of domain/needs-attention.ts finds, each with what to do next in words. */
export const NeedsAttention = memo(function NeedsAttention({ items }: { items: readonly AttentionItem[] }) {
  return (
    <section className="console-region console-attention" aria-labelledby="region-needs-attention">
      <h2 id="region-needs-attention">
        Needs attention <span className="console-region__count">({items.length})</span>
      </h2>
      {items.length === 0 ? (
        <p className="console-empty">Nothing needs a decision right now.</p>
      ) : (
        <ul className="console-attention__list">
            {items.map(({ order, attention }) => (
              <li key={`${order.id}-${attention.kind}`} className="console-attention__item">
                <p className="console-attention__what">
                  <Link className="console-attention__patient" to={`/dispatch/orders/${order.id}`}>
                    {order.patient_first_name} {order.patient_last_name}
                  </Link>{" "}
                  {order.external_id ?? `#${order.id}`} · {order.pharmacy.name}
                  {order.courier ? ` · ${order.courier.first_name} ${order.courier.last_name}` : ""} ·{" "}
                  <span className={`console-status console-status--${order.status.name}`}>{STATUS_WORDS[order.status.name]}</span>
                </p>
                <p className="console-attention__reason">{attention.reason}</p>
                <p className="console-attention__next">
                  <span className="console-attention__label">Next:</span> {attention.next}
                </p>
              </li>
            ))}
          </ul>
      )}
    </section>
  );
});
