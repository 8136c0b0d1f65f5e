import { useSelector } from "@xstate/react";
import type { ReturnManifest } from "../../domain/contract/ops-proof.ts";
import { ConsoleHeader } from "./ConsoleHeader.tsx";
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
          <label className="console-field console-field--inline">
            <span>Pharmacy</span>
            <select
              value={pharmacyId ?? ""}
              disabled={role === "pharmacist" || pharmacies.length === 0}
              onChange={(event) => actor.send({ type: "SELECT_PHARMACY", pharmacyId: Number(event.target.value) })}
            >
              {pharmacies.length === 0 && <option value="">{state === "loadingPharmacies" ? "Loading…" : "No pharmacy"}</option>}
              {pharmacies.map((pharmacy) => (
                <option key={pharmacy.id} value={pharmacy.id}>
                  {pharmacy.name}
                </option>
              ))}
            </select>
          </label>
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
        <dl className="console-fields">
          {rows.map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <table className="console-table">
          <caption className="console-muted">Orders on this return</caption>
          <thead>
            <tr>
              <th scope="col">Pharmacy reference</th>
              <th scope="col">Patient</th>
              <th scope="col">Reason</th>
              <th scope="col">Item</th>
              <th scope="col">Cash</th>
              <th scope="col">Check</th>
            </tr>
          </thead>
          <tbody>
            {manifest.orders.map((order) => (
              <tr key={order.order_id}>
                <td>{order.external_id ?? `#${order.order_id}`}</td>
                <td>
                  {order.patient.first_name} {order.patient.last_name}
                </td>
                <td>{order.reason}</td>
                <td>{order.returned_item ? (order.item_amount === null ? "Returned" : `Returned (${dollars(order.item_amount)})`) : "—"}</td>
                <td>{dollars(order.cash)}</td>
                <td>{dollars(order.check)}</td>
              </tr>
            ))}
          </tbody>
        </table>
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
