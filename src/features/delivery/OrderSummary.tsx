import { formatAddress, mapsHref } from "../../../domain/address.ts";
import type { Order } from "../../../domain/contract/entities.ts";

/** Who and where, at the top of every step: the patient, and the address linking to a maps service. */
export function OrderSummary({ order, grouped = [] }: { order: Order; grouped?: readonly Order[] }) {
  const names = [order, ...grouped].map((o) => `${o.patient_first_name} ${o.patient_last_name}`);
  return (
    <section className="card order-summary" aria-label="Order">
      <p className="order-summary__patient">{names.join(", ")}</p>
      <a className="order-summary__address" href={mapsHref(order.address)} target="_blank" rel="noreferrer">
        {formatAddress(order.address)}
      </a>
      <p className="order-summary__rx muted">
        {[order, ...grouped].flatMap((o) => o.rx_numbers).join(", ")}
      </p>
    </section>
  );
}
