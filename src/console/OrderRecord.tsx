import type { ReactNode } from "react";
import type { OpsOrderDetail } from "../../domain/contract/ops.ts";
import type { CustodyEntry, Proof } from "../../domain/contract/ops-proof.ts";
import type { OrderWebhookDelivery } from "../../domain/contract/ops-webhooks.ts";
import { useServiceTime } from "./service-time.ts";
import { STATUS_WORDS } from "./status-words.ts";

/** An order's record on its page: its fields, proof, status history, chain of custody and webhooks sent; times in the service's zone. */

const money = (value: string | null | undefined) => (value == null ? "—" : `$${value}`);
const words = (name: string) => name.replace(/_/g, " ").replace(/^\w/, (first) => first.toUpperCase());

export function OrderFields({ order, courier }: { order: OpsOrderDetail; courier: string }) {
  const when = useServiceTime();
  const address = [order.address.street_address, order.address.street_address_2, `${order.address.city}, ${order.address.state_abbreviation} ${order.address.zipcode}`]
    .filter(Boolean)
    .join(", ");
  const window = order.delivery_window_start && order.delivery_window_end ? `${order.delivery_window_start}–${order.delivery_window_end}` : "Any time";
  const flags = [
    order.signature_required && "Signature required",
    order.controlled_substance && "Controlled substance",
    order.collect_identification && "Collect ID",
    order.pid_order && "PID order",
  ].filter(Boolean);
  const rows: [string, ReactNode][] = [
    ["Order", `#${order.id}`],
    ["Pharmacy's reference", order.external_id ?? "—"],
    ["Pharmacy", order.pharmacy.name],
    ["Service date", order.service_date],
    ["Courier", courier],
    ["Phone", order.phone_number ?? "—"],
    ["Address", address],
    ["Date of birth", order.patient_date_of_birth ?? "—"],
    ["Rx numbers", order.rx_numbers.join(", ")],
    ["Copay", money(order.copay)],
    ["Delivery fee", money(order.delivery_fee)],
    ["Other items due", money(order.other_items_amount_due)],
    ["Delivery window", window],
    ["Pickup note", order.pickup_note ?? "—"],
    ["Delivery notes", order.delivery_notes.length ? order.delivery_notes.map((note) => note.delivery_instruction).join(" · ") : "—"],
    ["Handling", flags.length ? flags.join(", ") : "—"],
    ["Created", when(order.created_at)],
  ];
  return (
    <dl className="console-fields">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ProofView({ proof, orderId }: { proof: Proof | null; orderId: number }) {
  const when = useServiceTime();
  if (!proof) return <p className="console-muted">No proof yet: the order has not been delivered or attempted.</p>;
  const recipient = proof.recipient
    ? `${[proof.recipient.first_name, proof.recipient.last_name].filter(Boolean).join(" ") || "—"} (${proof.recipient.other_relationship_description ?? proof.recipient.relationship})`
    : "—";
  const rows: [string, ReactNode][] = [
    ["Outcome", words(proof.outcome)],
    ["When", when(proof.client_occurred_at ?? proof.received_at)],
    ["Courier", proof.courier ? `${proof.courier.first_name} ${proof.courier.last_name}` : "—"],
    ["Recipient", recipient],
    ["Signed by", proof.signed_by ?? (proof.signature_refusal_reason ? `Not signed: ${proof.signature_refusal_reason}` : "—")],
    ["Payment", proof.payment ? `${words(proof.payment.type)} $${proof.payment.amount}${proof.payment.card_last4 ? ` (card ending ${proof.payment.card_last4})` : ""}` : "None"],
  ];
  if (proof.failure) rows.push(["Why not delivered", `${proof.failure.reason}${proof.failure.notes ? `: ${proof.failure.notes}` : ""}`]);
  if (proof.returned) rows.push(["Returned to the pharmacy", `${when(proof.returned.at)}, signed by ${proof.returned.staff_first_name} ${proof.returned.staff_last_name}`]);
  return (
    <div className="console-proof">
      <dl className="console-fields">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="console-proof__images">
        {proof.signature_url && (
          <figure>
            <img src={proof.signature_url} alt={`Signature of ${proof.signed_by ?? "the recipient"}`} className="console-proof__signature" />
            <figcaption>Signature</figcaption>
          </figure>
        )}
        {proof.photo_url && (
          <figure>
            <img src={proof.photo_url} alt="Photo of the drop-off" className="console-proof__photo" />
            <figcaption>Photo of the drop-off</figcaption>
          </figure>
        )}
      </div>
      <p>
        <a className="console-button console-button--quiet" href={`/api/ops/v1/orders/${orderId}/proof.pdf`} target="_blank" rel="noopener">
          Proof PDF
        </a>
      </p>
    </div>
  );
}

export function StatusHistory({ order }: { order: OpsOrderDetail }) {
  const when = useServiceTime();
  if (order.status_history.length === 0) return <p className="console-muted">No changes yet.</p>;
  return (
    <table className="console-table">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">From</th>
          <th scope="col">To</th>
          <th scope="col">By</th>
        </tr>
      </thead>
      <tbody>
        {order.status_history.map((change, index) => (
          <tr key={index}>
            <td>{when(change.occurred_at)}</td>
            <td>{change.from_status ? (STATUS_WORDS[change.from_status as keyof typeof STATUS_WORDS] ?? words(change.from_status)) : "—"}</td>
            <td>{STATUS_WORDS[change.to_status as keyof typeof STATUS_WORDS] ?? words(change.to_status)}</td>
            <td>{actorWords(change.actor)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** "courier:7", "key:3", "staff:2" (a dispatcher or pharmacist) as words; the chain of custody names them. */
function actorWords(actor: string | null): string {
  if (!actor) return "System";
  const [kind, id] = actor.split(":");
  const label = kind === "courier" ? "Courier" : kind === "key" ? "API key" : kind === "staff" ? "Console user" : actor;
  return id ? `${label} #${id}` : label;
}

const ACTOR_WORDS = { courier: "Courier", key: "API key", staff: "Pharmacy staff", dispatcher: "Dispatcher", pharmacist: "Pharmacist" } as const;

export function CustodyList({ custody }: { custody: CustodyEntry[] }) {
  const when = useServiceTime();
  if (custody.length === 0) return <p className="console-muted">Nothing recorded yet.</p>;
  return (
    <table className="console-table">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">What</th>
          <th scope="col">Who</th>
          <th scope="col">Details</th>
        </tr>
      </thead>
      <tbody>
        {custody.map((entry, index) => (
          <tr key={index}>
            <td>{when(entry.at)}</td>
            <td>{words(entry.event)}</td>
            <td>
              {ACTOR_WORDS[entry.actor.type]}: {entry.actor.name}
            </td>
            <td>
              {Object.entries(entry.details)
                .filter(([, value]) => value !== null && value !== "")
                .map(([key, value]) => `${words(key)}: ${String(value)}`)
                .join(" · ") || "—"}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Webhooks({ deliveries }: { deliveries: OrderWebhookDelivery[] }) {
  const when = useServiceTime();
  if (deliveries.length === 0) return <p className="console-muted">No webhooks sent about this order: no subscription hears its events.</p>;
  return (
    <table className="console-table">
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Sent to</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          <th scope="col">Last answer</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => {
          const last = delivery.attempts.at(-1);
          return (
            <tr key={delivery.id}>
              <td>{delivery.event_type}</td>
              <td className="console-table__url">{delivery.url}</td>
              <td>{words(delivery.status)}</td>
              <td>{delivery.attempts.length}</td>
              <td>{last ? `${last.status_code ?? last.error ?? "—"} at ${when(last.attempted_at)}` : "Not tried yet"}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
