import { useState } from "react";
import { Link, Navigate, useParams } from "react-router";
import type { ItineraryResponse } from "../../../domain/contract/itinerary.ts";
import type { Order } from "../../../domain/contract/entities.ts";
import { phoneForReading } from "../../../domain/phone.ts";
import { CourierDayContext } from "../../shell/app-actor.ts";
import { NotFoundScreen } from "../../ui/NotFoundScreen.tsx";
import { DeliveryFlow } from "./DeliveryFlow.tsx";
import { isSending } from "../../../domain/delivery-draft.ts";
import { clearFlow, loadFlow, purgeStaleFlows, type StoredFlow } from "./flow-storage.ts";
import { OutcomeScreen } from "./steps/OutcomeScreen.tsx";

/** /pharmacies/:pharmacyId/deliver_orders/:orderId/:step */
export function DeliveryWizardRoute() {
  const { pharmacyId, orderId, step = "address" } = useParams();
  const day = CourierDayContext.useSelector((state) => state.context.day)!;
  const order = day.orders.find((candidate) => String(candidate.id) === orderId && String(candidate.pharmacy.id) === pharmacyId);
  if (!order) return <NotFoundScreen what="order" />;
  return <DeliveryWizard key={order.id} order={order} step={step} day={day} />;
}

type Start = { flow: true; stored: StoredFlow | null } | { flow: false };

/**
 * A picked-up order (or one whose delivery call was in flight at a reload)
 * runs the flow; an order already delivered or attempted shows its outcome;
 * anything else is not out for delivery.
 */
function DeliveryWizard({ order, step, day }: { order: Order; step: string; day: ItineraryResponse }) {
  const listPath = `/pharmacies/${order.pharmacy.id}/deliver_orders`;
  const base = `${listPath}/${order.id}`;
  // Decided once when the order is opened: the flow keeps running after it changes the order's status.
  const [start] = useState<Start>(() => {
    purgeStaleFlows(day.courier.id, day.service_date);
    const stored = loadFlow(order.id, day.courier.id, day.service_date);
    if (order.status.name === "picked_up" || (stored && isSending(stored.draft))) return { flow: true, stored };
    if (stored) clearFlow(order.id);
    return { flow: false };
  });

  if (start.flow) {
    return (
      <DeliveryFlow
        // The support line as the courier reads it in the 'unable to pay' confirmation.
        input={{
          order,
          otherOrders: day.orders,
          supportPhone: phoneForReading(day.support_phone) ?? day.support_phone,
          today: day.service_date,
          statuses: day.statuses,
          draft: start.stored?.draft ?? null,
        }}
        courierId={day.courier.id}
        stored={start.stored}
        step={step}
        base={base}
        listPath={listPath}
      />
    );
  }

  const outcome = order.status.name === "delivered" ? "finished" : order.status.name === "delivery_attempted" ? "attempted" : null;
  if (outcome && step !== outcome) return <Navigate to={`${base}/${outcome}`} replace />;
  return (
    <main className="screen">
      {outcome ? (
        <OutcomeScreen outcome={outcome} listPath={listPath} />
      ) : (
        <>
          <h1 className="screen__title">Not out for delivery</h1>
          <p>
            {order.patient_first_name} {order.patient_last_name}&apos;s order has not been picked up. Verify it at the pharmacy first.
          </p>
          <Link className="button button--block" to={listPath}>
            Back to orders
          </Link>
        </>
      )}
    </main>
  );
}
