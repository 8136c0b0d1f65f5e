import { useActorRef, useSelector } from "@xstate/react";
import { useEffect, useMemo } from "react";
import { Link } from "react-router";
import type { OpsOrder } from "../../domain/contract/ops.ts";
import type { consoleBoardMachine } from "../../machines/console-board.machine.ts";
import { ConsoleHeader } from "./ConsoleHeader.tsx";
import { MapRegion } from "./map/MapRegion.tsx";
import { ConsoleSession } from "./session-context.ts";
import { STATUS_ORDER, STATUS_WORDS } from "./status-words.ts";
import { localToday } from "./today.ts";

/** /dispatch: the day board (issue 27). This slice: the day's orders by courier, counts by status, the live connection. */
export function BoardScreen({ logic }: { logic: typeof consoleBoardMachine }) {
  const session = ConsoleSession.useActorRef();
  const board = useActorRef(logic, { input: { serviceDate: localToday() } });
  const serviceDate = useSelector(board, (snapshot) => snapshot.context.serviceDate);
  const orders = useSelector(board, (snapshot) => snapshot.context.orders);
  const couriers = useSelector(board, (snapshot) => snapshot.context.couriers);
  const error = useSelector(board, (snapshot) => snapshot.context.error);
  const sessionEnded = useSelector(board, (snapshot) => snapshot.context.failure?.status === 401);
  const data = useSelector(board, (snapshot) => snapshot.value.data);
  const connection = useSelector(board, (snapshot) => snapshot.value.connection);

  // A load answered 401: the session ended (expired, deactivated, logged out elsewhere).
  useEffect(() => {
    if (sessionEnded) session.send({ type: "SESSION_EXPIRED" });
  }, [sessionEnded, session]);

  const { unassigned, byCourier, counts } = useMemo(() => groupBoard(orders), [orders]);
  const courierName = (id: number) => {
    const courier = couriers.find((candidate) => candidate.id === id);
    return courier ? `${courier.first_name} ${courier.last_name}` : `#${id}`;
  };

  return (
    <div className="console-shell">
      <ConsoleHeader />
      <main className="console-main console-board">
        <div className="console-board__top">
          <h1>Day board</h1>
          <label className="console-field console-field--inline">
            <span>Service date</span>
            <input type="date" value={serviceDate} onChange={(event) => board.send({ type: "SET_SERVICE_DATE", serviceDate: event.target.value })} />
          </label>
          <p className={`console-connection console-connection--${connection}`} role="status">
            {connection === "live" ? "Live" : connection === "reconnecting" ? "Reconnecting…" : "Connecting…"}
          </p>
        </div>

        {error && (
          <div className="console-alert console-alert--row" role="alert">
            <span>{error}</span>
            {data === "failed" && (
              <button type="button" className="console-button" onClick={() => board.send({ type: "RETRY" })}>
                Try again
              </button>
            )}
          </div>
        )}

        {data === "loading" ? (
          <p role="status">Loading the day…</p>
        ) : (
          <>
            <section aria-label="Counts by status" className="console-counts">
              <ul>
                <li>
                  <span className="console-count">{orders.length}</span> Orders
                </li>
                {STATUS_ORDER.filter((status) => counts.has(status)).map((status) => (
                  <li key={status}>
                    <span className="console-count">{counts.get(status)}</span> {STATUS_WORDS[status]}
                  </li>
                ))}
              </ul>
            </section>
            <div className="console-columns">
              <OrderRegion title="Unassigned" orders={unassigned} empty="Every order of the day has a courier." />
              {[...byCourier.entries()].map(([courierId, courierOrders]) => (
                <OrderRegion key={courierId} title={`Courier ${courierName(courierId)}`} orders={courierOrders} empty="No orders." />
              ))}
            </div>
            <MapRegion orders={orders} couriers={couriers} />
          </>
        )}
      </main>
    </div>
  );
}

function OrderRegion({ title, orders, empty }: { title: string; orders: OpsOrder[]; empty: string }) {
  const id = `region-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section className="console-region" aria-labelledby={id}>
      <h2 id={id}>
        {title} <span className="console-region__count">({orders.length})</span>
      </h2>
      {orders.length === 0 ? (
        <p className="console-empty">{empty}</p>
      ) : (
        <ul className="console-orders">
          {orders.map((order) => (
            <li key={order.id} className="console-order">
              <Link className="console-order__patient" to={`/dispatch/orders/${order.id}`}>{order.patient_first_name} {order.patient_last_name}</Link>
              <span className="console-order__meta">
                {order.external_id ?? `#${order.id}`} · {order.pharmacy.name}
              </span>
              <span className={`console-status console-status--${order.status.name}`}>{STATUS_WORDS[order.status.name]}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Unassigned orders (no courier, not cancelled), each courier's orders, and the counts by status. */
function groupBoard(orders: OpsOrder[]) {
  const unassigned: OpsOrder[] = [];
  const byCourier = new Map<number, OpsOrder[]>();
  const counts = new Map<OpsOrder["status"]["name"], number>();
  const sorted = [...orders].sort((a, b) => a.id - b.id);
  for (const order of sorted) {
    counts.set(order.status.name, (counts.get(order.status.name) ?? 0) + 1);
    if (order.courier_id === null) {
      if (order.status.name !== "cancelled") unassigned.push(order);
    } else {
      byCourier.set(order.courier_id, [...(byCourier.get(order.courier_id) ?? []), order]);
    }
  }
  return { unassigned, byCourier, counts };
}
