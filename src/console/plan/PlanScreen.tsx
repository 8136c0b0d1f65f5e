import { useSelector } from "@xstate/react";
import { useMemo } from "react";
import { Link } from "react-router";
import type { OpsOrder } from "../../../domain/contract/ops.ts";
import type { Plan, PlanRoute } from "../../../domain/contract/ops-plans.ts";
import type { PlanCourier } from "../../../machines/console-plan.machine.ts";
import { ConsoleHeader } from "../ConsoleHeader.tsx";
import { dayMapModel, planMapModel } from "../map/map-model.ts";
import { MapView } from "../map/MapRegion.tsx";
import { serviceDayScreen, type ScreenActor } from "../ConsoleScreen.tsx";
import { NoticeSlot, ScreenAlert } from "../ScreenMessages.tsx";
import "../panels.css";
import "./plan.css";

/** The arrival's clock time in the service's zone (the instant carries that zone's offset). */
const clock = (instant: string) => instant.slice(11, 16);

/** /dispatch/plan (issues 27 and 28, dispatchers only): choose couriers, 'Plan the day', look at the plan, 'Apply plan'. */
export const PlanScreen = serviceDayScreen("plan", PlanTheDay);

function PlanTheDay({ actor }: { actor: ScreenActor<"plan"> }) {
  const state = useSelector(actor, (snapshot) => snapshot.value);
  const context = useSelector(actor, (snapshot) => snapshot.context);

  const { plan, orders, couriers } = context;
  const model = useMemo(() => (plan ? planMapModel(plan, orders, couriers) : dayMapModel(orders, couriers, null)), [plan, orders, couriers]);
  const waiting = orders.filter((order) => order.courier_id === null && order.status.name === "new").length;
  const choosing = state === "choosing" || state === "proposed";

  return (
    <div className="console-shell">
      <ConsoleHeader />
      <main className="console-main console-plan">
        <div className="console-board__top">
          <h1>Plan the day</h1>
          <label className="console-field console-field--inline">
            <span>Service date</span>
            <input type="date" value={context.serviceDate} onChange={(event) => actor.send({ type: "SET_SERVICE_DATE", serviceDate: event.target.value })} />
          </label>
        </div>

        <ScreenAlert error={context.error} onRetry={state === "failed" ? () => actor.send({ type: "RETRY" }) : undefined} />
        <NoticeSlot>{context.notice && <p>{context.notice}</p>}</NoticeSlot>

        {state === "loading" ? (
          <p role="status">Loading the day…</p>
        ) : (
          <div className="console-split console-split--side-first">
            <div className="console-plan__side">
              <section className="console-region" aria-labelledby="plan-couriers">
                <h2 id="plan-couriers">Couriers to plan with</h2>
                <p className="console-empty">
                  {waiting === 1 ? "1 new order of the day has" : `${waiting} new orders of the day have`} no courier yet. The plan shares them among the couriers chosen; nothing changes until you apply it.
                </p>
                {couriers.length === 0 ? (
                  <p className="console-empty">No active courier: invite one on the Couriers screen.</p>
                ) : (
                  <fieldset className="console-plan__couriers" disabled={!choosing}>
                    <legend>Couriers</legend>
                    {couriers.map((courier) => (
                      <label key={courier.id} className="console-check">
                        <input type="checkbox" checked={context.chosen.includes(courier.id)} onChange={() => actor.send({ type: "TOGGLE_COURIER", courierId: courier.id })} />
                        {courier.first_name} {courier.last_name}
                      </label>
                    ))}
                  </fieldset>
                )}
                <div className="console-actions">
                  {state === "applied" ? (
                    <>
                      <button type="button" className="console-button" onClick={() => actor.send({ type: "PLAN_AGAIN" })}>
                        Plan again
                      </button>
                      <Link className="console-button console-button--quiet console-link-button" to="/dispatch">
                        Back to the board
                      </Link>
                    </>
                  ) : (
                    <>
                      <button
                        type="button"
                        className={`console-button${state === "proposed" ? " console-button--quiet" : ""}`}
                        aria-disabled={!choosing || undefined}
                        onClick={() => choosing && actor.send({ type: "PROPOSE" })}
                      >
                        {state === "proposing" ? "Planning…" : "Plan the day"}
                      </button>
                      {(state === "proposed" || state === "applying") && (
                        <>
                          {plan && plan.routes.length > 0 && (
                            <button type="button" className="console-button" aria-disabled={state === "applying" || undefined} onClick={() => state === "proposed" && actor.send({ type: "APPLY" })}>
                              {state === "applying" ? "Applying…" : "Apply plan"}
                            </button>
                          )}
                          <button type="button" className="console-button console-button--quiet" aria-disabled={state === "applying" || undefined} onClick={() => state === "proposed" && actor.send({ type: "DISCARD" })}>
                            Discard plan
                          </button>
                        </>
                      )}
                    </>
                  )}
                </div>
              </section>
              {plan && <PlanRoutes plan={plan} orders={orders} couriers={couriers} />}
            </div>
            <MapView model={model} title={plan ? (plan.applied_at ? "Map of the applied plan" : "Map of the proposed plan") : "Map"} />
          </div>
        )}
      </main>
    </div>
  );
}

/** The plan per courier: which orders, in which order, at what time; then what it could not serve and why. */
function PlanRoutes({ plan, orders, couriers }: { plan: Plan; orders: OpsOrder[]; couriers: PlanCourier[] }) {
  const byId = new Map(orders.map((order) => [order.id, order]));
  const pharmacyName = (id: number | undefined) => orders.find((order) => order.pharmacy.id === id)?.pharmacy.name ?? `Pharmacy #${id}`;
  const courierName = (id: number) => {
    const courier = couriers.find((candidate) => candidate.id === id);
    return courier ? `${courier.first_name} ${courier.last_name}` : `#${id}`;
  };
  const patient = (id: number) => {
    const order = byId.get(id);
    return order ? `${order.patient_first_name} ${order.patient_last_name} (${order.external_id ?? `#${order.id}`})` : `Order #${id}`;
  };
  const deliveries = (route: PlanRoute) => route.stops.filter((stop) => stop.kind === "delivery").reduce((sum, stop) => sum + stop.order_ids.length, 0);
  return (
    <>
      {plan.routes.map((route) => (
        <section key={route.courier_id} className="console-region" aria-labelledby={`plan-route-${route.courier_id}`}>
          <h2 id={`plan-route-${route.courier_id}`}>
            Planned for {courierName(route.courier_id)}{" "}
            <span className="console-region__count">
              ({deliveries(route)} orders, {route.distance_km.toFixed(1)} km, {Math.round(route.driving_minutes)} min driving)
            </span>
          </h2>
          <ol className="console-plan__stops">
            {route.stops.map((stop, index) => (
              <li key={index}>
                <span className="console-plan__time">{clock(stop.arrival)}</span>{" "}
                {stop.kind === "pickup" ? `Pickup at ${pharmacyName(stop.pharmacy_id)} (${stop.order_ids.length} ${stop.order_ids.length === 1 ? "order" : "orders"})` : stop.order_ids.map(patient).join(", ")}
              </li>
            ))}
          </ol>
        </section>
      ))}
      {plan.unassigned.length > 0 && (
        <section className="console-region" aria-labelledby="plan-unassigned">
          <h2 id="plan-unassigned">Not planned ({plan.unassigned.length})</h2>
          <ul className="console-plan__stops">
            {plan.unassigned.map((entry) => (
              <li key={entry.order_id}>
                {patient(entry.order_id)}: {entry.message}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
