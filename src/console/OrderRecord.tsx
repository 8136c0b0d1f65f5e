import type { ReactNode } from "react";
import type { OpsOrderDetail } from "../../domain/contract/ops.ts";
import type { CustodyEntry, Proof } from "../../domain/contract/ops-proof.ts";
import type { OrderWebhookDelivery } from "../../domain/contract/ops-webhooks.ts";
import { actorInWords } from "../../domain/actors.ts";
import { phoneForReading } from "../../domain/phone.ts";
import { ConsoleTable, type Column } from "./ConsoleTable.tsx";
import { FieldList } from "./FieldList.tsx";
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
    ["Phone", phoneForReading(order.phone_number) ?? "—"],
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
  return <FieldList rows={rows} />;
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
      <FieldList rows={rows} />
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

type StatusChange = OpsOrderDetail["status_history"][number];
const statusWords = (status: string) => STATUS_WORDS[status as keyof typeof STATUS_WORDS] ?? words(status);

type When = ReturnType<typeof useServiceTime>;

const historyColumns = (when: When): Column<StatusChange>[] => [
  { header: "When", cell: (change) => when(change.occurred_at) },
  { header: "From", cell: (change) => (change.from_status ? statusWords(change.from_status) : "—") },
  { header: "To", cell: (change) => statusWords(change.to_status) },
  // Named as the chain of custody names them (domain/actors.ts).
  { header: "By", cell: (change) => actorInWords(change.acted_by) },
];

export function StatusHistory({ order }: { order: OpsOrderDetail }) {
  const when = useServiceTime();
  if (order.status_history.length === 0) return <p className="console-muted">No changes yet.</p>;
  return <ConsoleTable columns={historyColumns(when)} rows={order.status_history} rowKey={(_, index) => index} />;
}

const details = (entry: CustodyEntry) =>
  Object.entries(entry.details)
    .filter(([, value]) => value !== null && value !== "")
    .map(([key, value]) => `${words(key)}: ${String(value)}`)
    .join(" · ") || "—";

const custodyColumns = (when: When): Column<CustodyEntry>[] => [
  { header: "When", cell: (entry) => when(entry.at) },
  { header: "What", cell: (entry) => words(entry.event) },
  { header: "Who", cell: (entry) => actorInWords(entry.actor) },
  { header: "Details", cell: details },
];

export function CustodyList({ custody }: { custody: CustodyEntry[] }) {
  const when = useServiceTime();
  if (custody.length === 0) return <p className="console-muted">Nothing recorded yet.</p>;
  return <ConsoleTable columns={custodyColumns(when)} rows={custody} rowKey={(_, index) => index} />;
}

function lastAnswer(delivery: OrderWebhookDelivery, when: When): string {
  const last = delivery.attempts.at(-1);
  return last ? `${last.status_code ?? last.error ?? "—"} at ${when(last.attempted_at)}` : "Not tried yet";
}

const webhookColumns = (when: When): Column<OrderWebhookDelivery>[] => [
  { header: "Event", cell: (delivery) => delivery.event_type },
  { header: "Sent to", cell: (delivery) => delivery.url, className: "console-table__url" },
  { header: "Status", cell: (delivery) => words(delivery.status) },
  { header: "Attempts", cell: (delivery) => delivery.attempts.length },
  { header: "Last answer", cell: (delivery) => lastAnswer(delivery, when) },
];

export function Webhooks({ deliveries }: { deliveries: OrderWebhookDelivery[] }) {
  const when = useServiceTime();
  if (deliveries.length === 0) return <p className="console-muted">No webhooks sent about this order: no subscription hears its events.</p>;
  return <ConsoleTable columns={webhookColumns(when)} rows={deliveries} rowKey={(delivery) => delivery.id} />;
}
