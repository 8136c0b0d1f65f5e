import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { formatAddress } from "../../../domain/address.ts";
import type { Order } from "../../../domain/contract/entities.ts";
import { formatUsd, parseDecimalToCents } from "../../../domain/money.ts";
import { pharmaciesOfDay } from "../../../domain/pharmacy-list.ts";
import { rowIndicator } from "../../../domain/pharmacy-progress.ts";
import { followsPlan } from "../../../domain/planned-deliveries.ts";
import { deliveryWindowText } from "../../../domain/time-of-day.ts";
import { TEXT } from "../../../domain/texts.ts";
import { useHasIncompleteOrders } from "../../shell/offline-queue.ts";
import { useOfflineOrderIds } from "../../shell/offline-status.ts";
import { CourierDayContext } from "../../shell/app-actor.ts";
import { NotFoundScreen } from "../../ui/NotFoundScreen.tsx";
import { ActionButton } from "../../ui/ActionButton.tsx";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { RowIndicatorBadge } from "../../ui/RowIndicatorBadge.tsx";
import { allDeliveriesAttempted, deliveryLists } from "./delivery-list.ts";
import { useRoutedOrders, type RoutingStatus } from "./routed-orders.ts";

const ROUTING_TEXT: Record<Exclude<RoutingStatus, "off">, string> = {
  routing: TEXT.routing,
  routed: TEXT.routed,
  not_routed: TEXT.notRouted,
};

/** Spec §2 Delivery list: orders to deliver, completed ones, and 'Item(s) to return to pharmacy'. */
/** Orders still to deliver show the words only; the marks are for rows already delivered or attempted. */
const LIST_WORDS = ["incomplete", "not_collected", "cancelled"] as const;

export function DeliveryListScreen() {
  const { pharmacyId } = useParams();
  const day = CourierDayContext.useSelector((state) => state.context.day)!;
  const offlineIds = useOfflineOrderIds();
  const incompleteOffline = useHasIncompleteOrders();
  const navigate = useNavigate();
  const [alerting, setAlerting] = useState(false);

  const pharmacy = pharmaciesOfDay(day.pharmacy_visits, day.orders).find((candidate) => String(candidate.id) === pharmacyId) ?? null;
  const unrouted = pharmacy ? deliveryLists(day.orders, pharmacy.id) : null;
  // A day that follows dispatch's plan keeps the plan's order: the single-route optimiser is not asked.
  const planned = unrouted ? followsPlan(unrouted.toDeliver) : false;
  const routing = useRoutedOrders(planned ? null : pharmacy, unrouted?.all ?? []);
  if (!pharmacy || !unrouted) return <NotFoundScreen what="pharmacy" />;
  const lists = deliveryLists(day.orders, pharmacy.id, routing.order);
  const finished = allDeliveriesAttempted(lists);

  // Spec §4: finishing while incomplete orders are stored on the device alerts the courier first.
  const finish = () => (incompleteOffline ? setAlerting(true) : navigate("/pharmacies"));

  return (
    <main className="screen">
      <h1 className="screen__title">Deliveries</h1>
      <p className="lead delivery-list__pharmacy">{pharmacy.name}</p>
      {routing.status !== "off" && (
        <p className={`routing routing--${routing.status}`} role="status">
          {ROUTING_TEXT[routing.status]}
        </p>
      )}

      {lists.all.length === 0 && <p className="notice notice--warn">{TEXT.emptyDeliveryList}</p>}

      {lists.toDeliver.length > 0 && (
        <section className="section" aria-labelledby="to-deliver">
          <h2 id="to-deliver" className="section__title">
            Orders to deliver
          </h2>
          <ol className="list">
            {lists.toDeliver.map((order) => (
              <li key={order.id}>
                <Link className="row-link delivery-row" to={String(order.id)}>
                  <OrderLines order={order} window />
                  <span className="delivery-row__side">
                    <RowIndicatorBadge indicator={rowIndicator(order, offlineIds)} only={LIST_WORDS} />
                    <span className="row-link__action">Deliver</span>
                  </span>
                </Link>
              </li>
            ))}
          </ol>
        </section>
      )}

      {lists.toReturn.length > 0 && (
        <section className="section" aria-labelledby="to-return">
          <h2 id="to-return" className="section__title">
            {TEXT.itemsToReturn}
          </h2>
          <ul className="list">
            {lists.toReturn.map((order) => (
              <li key={order.id} className="row-link delivery-row">
                <OrderLines order={order} returning />
                <RowIndicatorBadge indicator={rowIndicator(order, offlineIds)} />
              </li>
            ))}
          </ul>
        </section>
      )}

      {lists.completed.length > 0 && (
        <section className="section" aria-labelledby="completed">
          <h2 id="completed" className="section__title">
            {TEXT.completedSection}
          </h2>
          <ul className="list">
            {lists.completed.map((order) => (
              <li key={order.id} className="row-link delivery-row">
                <OrderLines order={order} />
                <RowIndicatorBadge indicator={rowIndicator(order, offlineIds)} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="actions">
        <ActionButton disabled={!finished} onClick={finish}>
          {TEXT.allDeliveriesAttempted}
        </ActionButton>
      </div>

      {alerting && (
        <ConfirmDialog
          message={TEXT.incompleteOrdersReturnsAlert}
          cancelLabel={null}
          onConfirm={() => {
            setAlerting(false);
            navigate("/pharmacies");
          }}
        />
      )}
    </main>
  );
}

/** What goes back for an order on the return list: the order itself, or the cash or check collected for it. */
function returnLine(order: Order): string {
  if (order.status.name === "delivery_attempted") return "Return the order";
  // Spec §9: return totals sum copay, delivery fee and other items due.
  const amount = [order.copay, order.delivery_fee, order.other_items_amount_due].reduce((sum, value) => sum + (parseDecimalToCents(value) ?? 0), 0);
  const what = order.payment_type === "check" ? "Check" : "Cash";
  return amount > 0 ? `${what} collected: ${formatUsd(amount)}` : `${what} collected`;
}

function OrderLines({ order, returning = false, window = false }: { order: Order; returning?: boolean; window?: boolean }) {
  const promised = window ? deliveryWindowText(order.delivery_window_start, order.delivery_window_end) : null;
  return (
    <span className="delivery-row__main">
      <span className="row-link__name">
        {order.patient_first_name} {order.patient_last_name}
      </span>
      <span className="delivery-row__address">{formatAddress(order.address)}</span>
      {promised && <span className="delivery-row__window">{promised}</span>}
      <span className="muted delivery-row__rx">{order.rx_numbers.join(", ")}</span>
      {returning && <span className="delivery-row__return">{returnLine(order)}</span>}
    </span>
  );
}
