import { useActorRef, useSelector } from "@xstate/react";
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Link } from "react-router";
import type { OpsOrderDetail, OrderUpdateOpsRequest } from "../../domain/contract/ops.ts";
import type { CustodyEntry, Proof } from "../../domain/contract/ops-proof.ts";
import type { OrderWebhookDelivery } from "../../domain/contract/ops-webhooks.ts";
import { ATTEMPTED_NEXT_STEP, lockedReason, orderActions } from "../../domain/order-actions.ts";
import type { consoleOrderMachine, OrderCourier } from "../../machines/console-order.machine.ts";
import { ConsoleHeader } from "./ConsoleHeader.tsx";
import { ConsoleSession } from "./session-context.ts";
import { STATUS_WORDS } from "./status-words.ts";
import "./pages.css";

type OrderActor = ReturnType<typeof useActorRef<typeof consoleOrderMachine>>;

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "—");
const money = (value: string | null | undefined) => (value == null ? "—" : `$${value}`);
const words = (name: string) => name.replace(/_/g, " ").replace(/^\w/, (first) => first.toUpperCase());

/** /dispatch/orders/{id}: one order, what happened to it, and what may still be done (issue 27). */
export function OrderScreen({ logic, orderId }: { logic: typeof consoleOrderMachine; orderId: number }) {
  const session = ConsoleSession.useActorRef();
  const role = ConsoleSession.useSelector((snapshot) => snapshot.context.staff?.role ?? "pharmacist");
  const csrfToken = ConsoleSession.useSelector((snapshot) => snapshot.context.csrfToken);
  const page = useActorRef(logic, { input: { orderId, role, csrfToken } });
  const state = useSelector(page, (snapshot) => snapshot.value);
  const data = useSelector(page, (snapshot) => snapshot.context.data);
  const error = useSelector(page, (snapshot) => snapshot.context.error);
  const actionError = useSelector(page, (snapshot) => snapshot.context.actionError);
  const notice = useSelector(page, (snapshot) => snapshot.context.notice);
  const sessionEnded = useSelector(page, (snapshot) => snapshot.context.failure?.status === 401);

  useEffect(() => {
    if (sessionEnded) session.send({ type: "SESSION_EXPIRED" });
  }, [sessionEnded, session]);

  // What changed while the window was elsewhere (the stream was away, another tab acted) shows on return.
  useEffect(() => {
    const refresh = () => page.send({ type: "REFRESH" });
    window.addEventListener("focus", refresh);
    return () => window.removeEventListener("focus", refresh);
  }, [page]);

  return (
    <div className="console-shell">
      <ConsoleHeader />
      <main className="console-main console-page">
        <p className="console-back">
          <Link to="/dispatch">← Day board</Link>
        </p>
        {state === "loading" && <p role="status">Loading the order…</p>}
        {state === "failed" && (
          <>
            <h1>Order {orderId}</h1>
            <div className="console-alert console-alert--row" role="alert">
              <span>{error}</span>
              <button type="button" className="console-button" onClick={() => page.send({ type: "RETRY" })}>
                Try again
              </button>
            </div>
          </>
        )}
        {data && typeof state === "object" && (
          <OrderPage page={page} order={data.order} custody={data.custody} proof={data.proof} deliveries={data.deliveries} couriers={data.couriers} role={role} step={state.ready} actionError={actionError} notice={notice} />
        )}
      </main>
    </div>
  );
}

function OrderPage(props: {
  page: OrderActor;
  order: OpsOrderDetail;
  custody: CustodyEntry[];
  proof: Proof | null;
  deliveries: OrderWebhookDelivery[];
  couriers: OrderCourier[];
  role: "dispatcher" | "pharmacist";
  step: string;
  actionError: string | null;
  notice: string | null;
}) {
  const { order, page } = props;
  const courierName = (id: number | null) => {
    if (id === null) return "None yet";
    const courier = props.couriers.find((candidate) => candidate.id === id);
    return courier ? `${courier.first_name} ${courier.last_name}` : `Courier #${id}`;
  };
  return (
    <>
      <div className="console-page__title">
        <h1>
          {order.patient_first_name} {order.patient_last_name}
        </h1>
        <span className={`console-status console-status--${order.status.name}`}>{STATUS_WORDS[order.status.name]}</span>
        {props.step === "refreshing" && <span className="console-muted">Updating…</span>}
      </div>
      <p className="console-live-note">This page updates by itself when the order changes.</p>
      <p role="status" className="console-notice">
        {props.notice}
      </p>
      {props.actionError && (
        <p className="console-alert" role="alert">
          {props.actionError}
        </p>
      )}
      {order.status.name === "delivery_attempted" && (
        <section className="console-next" aria-labelledby="next-step">
          <h2 id="next-step">What happens next</h2>
          <p>{ATTEMPTED_NEXT_STEP}</p>
        </section>
      )}
      <div className="console-page__grid">
        <Section title="Order">
          <OrderFields order={order} courier={courierName(order.courier_id)} />
        </Section>
        <Section title="Actions">
          <OrderActions {...props} />
        </Section>
      </div>
      <Section title="Proof of delivery">
        <ProofView proof={props.proof} orderId={order.id} />
      </Section>
      <Section title="Status history">
        <StatusHistory order={order} />
      </Section>
      <Section title="Chain of custody">
        <CustodyList custody={props.custody} />
      </Section>
      <Section title="Webhooks sent">
        <Webhooks deliveries={props.deliveries} />
      </Section>
      {props.step === "confirmingCancel" && <CancelConfirmation page={page} />}
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="console-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function OrderFields({ order, courier }: { order: OpsOrderDetail; courier: string }) {
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

function OrderActions({ page, order, couriers, role, step }: { page: OrderActor; order: OpsOrderDetail; couriers: OrderCourier[]; role: "dispatcher" | "pharmacist"; step: string }) {
  const actions = orderActions({ status: order.status.name, courierId: order.courier_id }, role);
  const others = couriers.filter((courier) => courier.id !== order.courier_id);
  const [courierId, setCourierId] = useState("");
  const busy = step !== "idle" && step !== "editing" && step !== "confirmingCancel";
  const locked = lockedReason(order.status.name);

  if (step === "editing" || step === "saving") return <EditForm page={page} order={order} saving={step === "saving"} />;
  if (locked) return <p className="console-muted">{locked}</p>;
  const assignLabel = order.courier_id === null ? "Assign" : "Move to courier";
  return (
    <div className="console-actions">
      <div className="console-actions__row">
        <button type="button" className="console-button" aria-disabled={busy || undefined} onClick={() => !busy && page.send({ type: "EDIT" })}>
          Edit order
        </button>
        <button type="button" className="console-button console-button--danger" aria-disabled={busy || undefined} onClick={() => !busy && page.send({ type: "CANCEL_ORDER" })}>
          Cancel order
        </button>
      </div>
      {(actions.assign || actions.reassign) && (
        <form
          className="console-actions__row"
          onSubmit={(event) => {
            event.preventDefault();
            if (!busy && courierId) page.send({ type: "ASSIGN", courierId: Number(courierId) });
          }}
        >
          <label className="console-field console-field--inline">
            <span>Courier</span>
            <select value={courierId} onChange={(event) => setCourierId(event.target.value)} required>
              <option value="">Choose a courier</option>
              {others.map((courier) => (
                <option key={courier.id} value={courier.id}>
                  {courier.first_name} {courier.last_name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="console-button" aria-disabled={busy || !courierId || undefined}>
            {step === "assigning" ? "Assigning…" : assignLabel}
          </button>
        </form>
      )}
      {actions.unassign && (
        <div className="console-actions__row">
          <button type="button" className="console-button console-button--quiet" aria-disabled={busy || undefined} onClick={() => !busy && page.send({ type: "UNASSIGN" })}>
            {step === "unassigning" ? "Unassigning…" : "Unassign"}
          </button>
        </div>
      )}
      {role === "pharmacist" && <p className="console-muted">Dispatch assigns orders to couriers.</p>}
    </div>
  );
}

/** The fields a pharmacy corrects most before pickup; only what changed is sent (PATCH). */
function EditForm({ page, order, saving }: { page: OrderActor; order: OpsOrderDetail; saving: boolean }) {
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const initial = {
    patient_first_name: order.patient_first_name,
    patient_last_name: order.patient_last_name,
    phone_number: order.phone_number ?? "",
    street_address: order.address.street_address,
    street_address_2: order.address.street_address_2 ?? "",
    city: order.address.city,
    state_abbreviation: order.address.state_abbreviation,
    zipcode: order.address.zipcode,
    copay: order.copay ?? "",
    pickup_note: order.pickup_note ?? "",
  };
  const [draft, setDraft] = useState(initial);
  const field = (name: keyof typeof initial, label: string, options: { ref?: typeof first; wide?: boolean } = {}) => (
    <label className={`console-field${options.wide ? " console-field--wide" : ""}`}>
      <span>{label}</span>
      <input ref={options.ref} value={draft[name]} onChange={(event) => setDraft({ ...draft, [name]: event.target.value })} />
    </label>
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const changes: Record<string, unknown> = {};
    for (const name of ["patient_first_name", "patient_last_name", "phone_number"] as const) if (draft[name].trim() !== initial[name]) changes[name] = draft[name].trim();
    if (draft.copay.trim() !== initial.copay) changes.copay = draft.copay.trim() === "" ? null : draft.copay.trim();
    if (draft.pickup_note.trim() !== initial.pickup_note) changes.pickup_note = draft.pickup_note.trim() === "" ? null : draft.pickup_note.trim();
    const addressFields = ["street_address", "street_address_2", "city", "state_abbreviation", "zipcode"] as const;
    if (addressFields.some((name) => draft[name].trim() !== initial[name])) {
      // A new address is sent whole; its old coordinates would point at the old door.
      changes.address = {
        street_address: draft.street_address.trim(),
        street_address_2: draft.street_address_2.trim() || null,
        city: draft.city.trim(),
        state_abbreviation: draft.state_abbreviation.trim().toUpperCase(),
        zipcode: draft.zipcode.trim(),
        latitude: null,
        longitude: null,
      };
    }
    page.send({ type: "SAVE", changes: changes as OrderUpdateOpsRequest });
  };
  return (
    <form className="console-edit" onSubmit={submit} aria-label="Edit order" noValidate>
      <div className="console-edit__grid">
        {field("patient_first_name", "Patient first name", { ref: first })}
        {field("patient_last_name", "Patient last name")}
        {field("phone_number", "Phone number")}
        {field("copay", "Copay")}
        {field("street_address", "Street address", { wide: true })}
        {field("street_address_2", "Apartment, suite, floor")}
        {field("city", "City")}
        {field("state_abbreviation", "State")}
        {field("zipcode", "ZIP code")}
        {field("pickup_note", "Pickup note", { wide: true })}
      </div>
      <div className="console-actions__row">
        <button type="submit" className="console-button" aria-disabled={saving || undefined}>
          {saving ? "Saving…" : "Save changes"}
        </button>
        <button type="button" className="console-button console-button--quiet" onClick={() => !saving && page.send({ type: "DISCARD" })}>
          Discard changes
        </button>
      </div>
    </form>
  );
}

function CancelConfirmation({ page }: { page: OrderActor }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const messageId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) {
      if (typeof element.showModal === "function") element.showModal();
      else element.setAttribute("open", "");
    }
    keep.current?.focus();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="console-dialog"
      role="alertdialog"
      aria-modal="true"
      aria-label="Cancel this order?"
      aria-describedby={messageId}
      onCancel={(event) => {
        event.preventDefault();
        page.send({ type: "KEEP_ORDER" });
      }}
    >
      <h2>Cancel this order?</h2>
      <p id={messageId}>It will not be delivered, and a cancelled order cannot be brought back. The pharmacy keeps the medication.</p>
      <div className="console-actions__row">
        <button ref={keep} type="button" className="console-button console-button--quiet" onClick={() => page.send({ type: "KEEP_ORDER" })}>
          Keep order
        </button>
        <button type="button" className="console-button console-button--danger" onClick={() => page.send({ type: "CONFIRM_CANCEL" })}>
          Yes, cancel order
        </button>
      </div>
    </dialog>
  );
}

function ProofView({ proof, orderId }: { proof: Proof | null; orderId: number }) {
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

function StatusHistory({ order }: { order: OpsOrderDetail }) {
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

function CustodyList({ custody }: { custody: CustodyEntry[] }) {
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

function Webhooks({ deliveries }: { deliveries: OrderWebhookDelivery[] }) {
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
