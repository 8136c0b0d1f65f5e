import { memo } from "react";
import { Link } from "react-router";
import type { Order } from "../../../domain/contract/entities.ts";
import { checkInRowAction, type RowIndicator } from "../../../domain/pharmacy-progress.ts";
import { CheckIcon } from "../../ui/icons.tsx";
import { RowIndicatorBadge } from "../../ui/RowIndicatorBadge.tsx";
import { AddressLink, patientName, RxNumbers } from "./order-details.tsx";

/**
 * One check-in row (spec §2): name, address linking to maps, RX numbers, and
 * the action of spec §4. It renders again only when its order or its indicator
 * change, not with every render of the list around it; the list reads the
 * device's stored orders once for every row (CheckInScreen).
 */
export const CheckInRow = memo(function CheckInRow({ order, indicator }: { order: Order; indicator: RowIndicator }) {
  const name = patientName(order);
  const action = checkInRowAction(order);
  return (
    <article className="order-row" aria-label={name}>
      <div className="order-row__head">
        <h3 className="order-row__name">{name}</h3>
        {action === "check_in" && (
          <Link
            className="button order-row__button"
            to={`/pharmacies/${order.pharmacy.id}/verify_orders/${order.id}`}
            aria-label={`Check-in ${name}`}
          >
            Check-in
          </Link>
        )}
        {action === "verified" && (
          <span className="verified-tick" role="img" aria-label="verified">
            <CheckIcon />
          </span>
        )}
        {action === "cancelled" && <span className="badge badge--danger">cancelled</span>}
      </div>
      <AddressLink address={order.address} />
      <p className="order-row__rx">
        <span className="muted">RX </span>
        <RxNumbers order={order} />
      </p>
      <RowIndicatorBadge indicator={indicator} only={["incomplete"]} />
    </article>
  );
});
