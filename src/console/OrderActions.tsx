import type { ActorRefFrom } from "xstate";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { OpsOrderDetail, OrderUpdateOpsRequest } from "../../domain/contract/ops.ts";
import { lockedReason, orderActions } from "../../domain/order-actions.ts";
import type { consoleOrderMachine, OrderCourier } from "../../machines/console-order.machine.ts";

/** What may still be done to an order on its page: edit before pickup, cancel (asked first), assign, move, unassign. */

/** The order page's machine, run by the console (src/console/ConsoleScreen.tsx). */
export type OrderActor = ActorRefFrom<typeof consoleOrderMachine>;

export function OrderActions({ page, order, couriers, role, step }: { page: OrderActor; order: OpsOrderDetail; couriers: OrderCourier[]; role: "dispatcher" | "pharmacist"; step: string }) {
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

export function CancelConfirmation({ page }: { page: OrderActor }) {
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
