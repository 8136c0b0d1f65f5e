import { Fragment } from "react";
import type { Address, Order } from "../../../domain/contract/entities.ts";
import { formatAddress, mapsHref } from "../../../domain/address.ts";
import { parseDecimalToCents, type Cents } from "../../../domain/money.ts";

/** Small pieces of an order as the pickup screens show them. */

export const patientName = (order: Order) => `${order.patient_first_name} ${order.patient_last_name}`;

/** The 'Other fees' line: delivery_fee plus other_items_amount_due. */
export function otherFeesCents(order: Order): Cents {
  return (parseDecimalToCents(order.delivery_fee) ?? 0) + (parseDecimalToCents(order.other_items_amount_due) ?? 0);
}

/** The address as one line, linking to a maps service (spec §2, §7). */
export function AddressLink({ address }: { address: Address }) {
  const text = formatAddress(address);
  return (
    <a className="address-link" href={mapsHref(address)} target="_blank" rel="noreferrer" aria-label={`${text} (open in maps)`}>
      {text}
    </a>
  );
}

export function RxNumbers({ order }: { order: Order }) {
  return (
    <span className="rx-numbers">
      {order.rx_numbers.map((rx, index) => (
        <Fragment key={rx}>
          {index > 0 && ", "}
          <span className="rx-numbers__one">{rx}</span>
        </Fragment>
      ))}
    </span>
  );
}
