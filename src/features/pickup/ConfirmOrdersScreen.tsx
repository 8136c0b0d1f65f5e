import { useSelector } from "@xstate/react";
import type { Order } from "../../../domain/contract/entities.ts";
import { onlyCancelledOrders, reviewLists, rowIndicator } from "../../../domain/pharmacy-progress.ts";
import { TEXT } from "../../../domain/texts.ts";
import { useOfflineOrderIds } from "../../shell/offline-status.ts";
import { ActionButton } from "../../ui/ActionButton.tsx";
import { RowIndicatorBadge } from "../../ui/RowIndicatorBadge.tsx";
import { useCheckIn, type CheckInActor } from "./check-in-context.tsx";
import { patientName, RxNumbers } from "./order-details.tsx";
import { ScreenHeader } from "./ScreenHeader.tsx";

/**
 * /pharmacies/:pharmacyId/confirm_orders (spec §2 review step). Arriving here
 * is the check-in machine's CONTINUE: a deep link before every order is
 * checked in is refused and goes back to the check-in list.
 */
export function ConfirmOrdersScreen() {
  const { actor, pharmacy } = useCheckIn();
  // Until the machine answers the URL (CONTINUE, or the list again: use-check-in-url.ts), nothing to show.
  const checkingIn = useSelector(actor, (snapshot) => snapshot.matches("checkingIn"));
  if (checkingIn) return null;
  return <Review actor={actor} pharmacyId={pharmacy.id} />;
}

function Review({ actor, pharmacyId }: { actor: CheckInActor; pharmacyId: number }) {
  const state = useSelector(actor, (snapshot) => snapshot);
  const { verified, cancelled } = reviewLists(state.context.orders, pharmacyId);
  const goesHome = onlyCancelledOrders(state.context.orders, pharmacyId);
  const recording = state.matches({ confirmingOrders: "recordingArrival" });
  const failed = state.matches({ confirmingOrders: "arrivalFailed" });

  // Done, the machine's mirror takes the courier on (deliver_orders, or /pharmacies).
  const leave = (event: { type: "START_DELIVERIES" } | { type: "GO_HOME" }) => actor.send(event);

  return (
    <main className="screen">
      <ScreenHeader title="confirm orders" back={{ to: `/pharmacies/${pharmacyId}/verify_orders`, label: "check-in" }} />

      {recording && (
        <p className="muted" role="status">
          Recording your arrival…
        </p>
      )}
      {failed && state.context.error && (
        <div className="notice notice--error" role="alert">
          <p className="notice__text">{state.context.error}</p>
          <ActionButton variant="secondary" onClick={() => actor.send({ type: "RETRY_ARRIVAL" })}>
            {TEXT.tryAgain}
          </ActionButton>
        </div>
      )}

      <OrderList title="Verified orders" orders={verified} empty="No verified orders." indicators />
      <OrderList title="Cancelled orders" orders={cancelled} empty="No cancelled orders." />

      <div className="actions">
        {goesHome ? (
          <ActionButton disabled={!state.can({ type: "GO_HOME" })} onClick={() => leave({ type: "GO_HOME" })}>
            {TEXT.continue}
          </ActionButton>
        ) : (
          <ActionButton disabled={!state.can({ type: "START_DELIVERIES" })} onClick={() => leave({ type: "START_DELIVERIES" })}>
            {TEXT.startOrderDeliveries}
          </ActionButton>
        )}
      </div>
    </main>
  );
}

function OrderList({ title, orders, empty, indicators = false }: { title: string; orders: Order[]; empty: string; indicators?: boolean }) {
  const offlineIds = useOfflineOrderIds();
  const id = `review-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id} className="section__title">
        {title} ({orders.length})
      </h2>
      {orders.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="list">
          {orders.map((order) => (
            <li key={order.id} className="card review-row">
              <div>
                <p className="order-row__name">{patientName(order)}</p>
                <p className="order-row__rx">
                  <span className="muted">RX </span>
                  <RxNumbers order={order} />
                </p>
              </div>
              <RowIndicatorBadge indicator={rowIndicator(order, offlineIds)} only={indicators ? ["incomplete", "not_collected", "complete_mark"] : ["cancelled"]} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
