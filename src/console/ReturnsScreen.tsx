import { useSelector } from "@xstate/react";
import type { ReturnManifest } from "../../domain/contract/ops-proof.ts";
import { ConsoleHeader } from "./ConsoleHeader.tsx";
import { ConsoleTable, type Column } from "./ConsoleTable.tsx";
import { FieldList } from "./FieldList.tsx";
import { PharmacySelect } from "./PharmacySelect.tsx";
import { ConsoleScreen, type ScreenActor } from "./ConsoleScreen.tsx";
import { ConsoleSession } from "./session-context.ts";
import { serviceToday } from "./today.ts";
import "./pages.css";

/** When the staff member signed, in the zone the manifest is written in (the service's). */
function signedAt(manifest: ReturnManifest): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };
  try {
    return new Date(manifest.signed_at).toLocaleString("en-US", { ...options, timeZone: manifest.time_zone });
  } catch {
    return new Date(manifest.signed_at).toLocaleString("en-US", options);
  }
}

const dollars = (amount: string | null) => (amount === null ? "—" : `$${amount}`);
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** /dispatch/returns (issue 27): a pharmacy's return manifests of a service day, for a dispatcher (any pharmacy) and a pharmacist (theirs). */
export function ReturnsScreen() {
  const staff = ConsoleSession.useSelector((snapshot) => snapshot.context.staff);
  const timeZone = ConsoleSession.useSelector((snapshot) => snapshot.context.serviceTimeZone);
  return (
    <ConsoleScreen screen="returns" input={{ role: staff?.role ?? "pharmacist", pharmacyId: staff?.pharmacy_id ?? null, serviceDate: serviceToday(timeZone) }}>
      {(actor) => <ReturnsView actor={actor} />}
    </ConsoleScreen>
  );
}

function ReturnsView({ actor }: { actor: ScreenActor<"returns"> }) {
  const state = useSelector(actor, (snapshot) => snapshot.value);
  const { role, serviceDate, pharmacies, pharmacyId, returns, error } = useSelector(actor, (snapshot) => snapshot.context);

  const pharmacyName = pharmacies.find((pharmacy) => pharmacy.id === pharmacyId)?.name ?? "this pharmacy";
  const loading = state === "loading" || state === "loadingPharmacies";

  return (
    <div className="console-shell">
      <ConsoleHeader />
      <main className="console-main console-page console-returns">
        <div className="console-board__top">
          <h1>Returns</h1>
          <label className="console-field console-field--inline">
            <span>Service date</span>
            <input type="date" value={serviceDate} onChange={(event) => actor.send({ type: "SET_SERVICE_DATE", serviceDate: event.target.value })} />
          </label>
          <PharmacySelect
            inline
            pharmacies={pharmacies}
            pharmacyId={pharmacyId}
            disabled={role === "pharmacist" || pharmacies.length === 0}
            placeholder={pharmacies.length > 0 ? null : state === "loadingPharmacies" ? "Loading…" : "No pharmacy"}
            onSelect={(id) => actor.send({ type: "SELECT_PHARMACY", pharmacyId: id })}
          />
        </div>
        <p className="console-lead">
          What the couriers handed back to the pharmacy, signed for by its staff: the medication that could not be delivered and the cash and checks collected.
        </p>

        {state === "failed" && (
          <div className="console-alert console-alert--row" role="alert">
            <span>{error}</span>
            <button type="button" className="console-button" onClick={() => actor.send({ type: "RETRY" })}>
              Try again
            </button>
          </div>
        )}
        <div role="status" className="console-notice-slot">
          {loading && <p>Loading the returns…</p>}
          {state === "ready" && pharmacies.length === 0 && <p>No pharmacy yet: there are no returns to show.</p>}
          {state === "ready" && pharmacies.length > 0 && (
            <p>{returns.length === 0 ? `No return to ${pharmacyName} on ${serviceDate}.` : `${plural(returns.length, "return manifest")} for ${pharmacyName} on ${serviceDate}.`}</p>
          )}
        </div>

        {state === "ready" && returns.map((manifest) => <Manifest key={manifest.id} manifest={manifest} />)}
      </main>
    </div>
  );
}

type ReturnedOrder = ReturnManifest["orders"][number];

const RETURNED_COLUMNS: Column<ReturnedOrder>[] = [
  { header: "Pharmacy reference", cell: (order) => order.external_id ?? `#${order.order_id}` },
  { header: "Patient", cell: (order) => `${order.patient.first_name} ${order.patient.last_name}` },
  { header: "Reason", cell: (order) => order.reason },
  { header: "Item", cell: (order) => (order.returned_item ? (order.item_amount === null ? "Returned" : `Returned (${dollars(order.item_amount)})`) : "—") },
  { header: "Cash", cell: (order) => dollars(order.cash) },
  { header: "Check", cell: (order) => dollars(order.check) },
];

function Manifest({ manifest }: { manifest: ReturnManifest }) {
  const headingId = `return-${manifest.id}`;
  const courier = `${manifest.courier.first_name} ${manifest.courier.last_name}`;
  const staff = `${manifest.staff_first_name} ${manifest.staff_last_name}`;
  const rows: [string, string][] = [
    ["When", signedAt(manifest)],
    ["Courier", courier],
    ["Signed by", staff],
    ["Cash collected", dollars(manifest.cash_total)],
    ["Checks collected", dollars(manifest.check_total)],
    ["Document", manifest.document_id],
  ];
  return (
    <section className="console-region console-returns__manifest" aria-labelledby={headingId}>
      <h2 id={headingId}>
        Return of {signedAt(manifest)} <span className="console-region__count">({plural(manifest.orders.length, "order")})</span>
      </h2>
      <div className="console-proof">
        <FieldList rows={rows} />
        <ConsoleTable columns={RETURNED_COLUMNS} rows={manifest.orders} rowKey={(order) => order.order_id} caption="Orders on this return" captionClassName="console-muted" />
        <div className="console-proof__images">
          <figure>
            <img src={manifest.signature_url} alt={`Signature of ${staff}`} className="console-proof__signature" />
            <figcaption>Signature of {staff}</figcaption>
          </figure>
        </div>
        <p>
          <a className="console-button console-button--quiet" href={manifest.pdf_url} target="_blank" rel="noopener">
            Return manifest PDF
          </a>
        </p>
      </div>
    </section>
  );
}
