import { useSelector } from "@xstate/react";
import { useEffect, useId, type ReactNode } from "react";
import { Link } from "react-router";
import type { OpsOrderDetail } from "../../domain/contract/ops.ts";
import type { CustodyEntry, Proof } from "../../domain/contract/ops-proof.ts";
import type { OrderWebhookDelivery } from "../../domain/contract/ops-webhooks.ts";
import { ATTEMPTED_NEXT_STEP } from "../../domain/order-actions.ts";
import type { OrderCourier } from "../../machines/console-order.machine.ts";
import { ConsoleHeader } from "./ConsoleHeader.tsx";
import { CancelConfirmation, OrderActions, type OrderActor } from "./OrderActions.tsx";
import { CustodyList, OrderFields, ProofView, StatusHistory, Webhooks } from "./OrderRecord.tsx";
import { ConsoleScreen, type ScreenActor } from "./ConsoleScreen.tsx";
import { ConsoleSession } from "./session-context.ts";
import { STATUS_WORDS } from "./status-words.ts";
import "./pages.css";


/** /dispatch/orders/{id}: one order, what happened to it, and what may still be done (issue 27). */
export function OrderScreen({ orderId }: { orderId: number }) {
  const role = ConsoleSession.useSelector((snapshot) => snapshot.context.staff?.role ?? "pharmacist");
  const csrfToken = ConsoleSession.useSelector((snapshot) => snapshot.context.csrfToken);
  return (
    <ConsoleScreen screen="order" input={{ orderId, role, csrfToken }}>
      {(page) => <OrderView page={page} orderId={orderId} role={role} />}
    </ConsoleScreen>
  );
}

function OrderView({ page, orderId, role }: { page: ScreenActor<"order">; orderId: number; role: "dispatcher" | "pharmacist" }) {
  const state = useSelector(page, (snapshot) => snapshot.value);
  const data = useSelector(page, (snapshot) => snapshot.context.data);
  const error = useSelector(page, (snapshot) => snapshot.context.error);
  const actionError = useSelector(page, (snapshot) => snapshot.context.actionError);
  const notice = useSelector(page, (snapshot) => snapshot.context.notice);

  // What changed while the window was elsewhere (the stream was away, another tab acted) shows on return.
  useEffect(() => {
    const refresh = () => page.send({ type: "REFRESH" });
    window.addEventListener("focus", refresh);
    return () => window.removeEventListener("focus", refresh);
  }, [page]);

  return (
    <div className="console-shell">
      <ConsoleHeader />
      <main className="console-main console-page">
        <p className="console-back">
          <Link to="/dispatch">← Day board</Link>
        </p>
        {state === "loading" && <p role="status">Loading the order…</p>}
        {state === "failed" && (
          <>
            <h1>Order {orderId}</h1>
            <div className="console-alert console-alert--row" role="alert">
              <span>{error}</span>
              <button type="button" className="console-button" onClick={() => page.send({ type: "RETRY" })}>
                Try again
              </button>
            </div>
          </>
        )}
        {data && typeof state === "object" && (
          <OrderPage page={page} order={data.order} custody={data.custody} proof={data.proof} deliveries={data.deliveries} couriers={data.couriers} role={role} step={state.ready} actionError={actionError} notice={notice} />
        )}
      </main>
    </div>
  );
}

function OrderPage(props: {
  page: OrderActor;
  order: OpsOrderDetail;
  custody: CustodyEntry[];
  proof: Proof | null;
  deliveries: OrderWebhookDelivery[];
  couriers: OrderCourier[];
  role: "dispatcher" | "pharmacist";
  step: string;
  actionError: string | null;
  notice: string | null;
}) {
  const { order, page } = props;
  const courierName = (id: number | null) => {
    if (id === null) return "None yet";
    const courier = props.couriers.find((candidate) => candidate.id === id);
    return courier ? `${courier.first_name} ${courier.last_name}` : `Courier #${id}`;
  };
  return (
    <>
      <div className="console-page__title">
        <h1>
          {order.patient_first_name} {order.patient_last_name}
        </h1>
        <span className={`console-status console-status--${order.status.name}`}>{STATUS_WORDS[order.status.name]}</span>
        {props.step === "refreshing" && <span className="console-muted">Updating…</span>}
      </div>
      <p className="console-live-note">This page updates by itself when the order changes.</p>
      <p role="status" className="console-notice">
        {props.notice}
      </p>
      {props.actionError && (
        <p className="console-alert" role="alert">
          {props.actionError}
        </p>
      )}
      {order.status.name === "delivery_attempted" && (
        <section className="console-next" aria-labelledby="next-step">
          <h2 id="next-step">What happens next</h2>
          <p>{ATTEMPTED_NEXT_STEP}</p>
        </section>
      )}
      <div className="console-page__grid">
        <Section title="Order">
          <OrderFields order={order} courier={courierName(order.courier_id)} />
        </Section>
        <Section title="Actions">
          <OrderActions {...props} />
        </Section>
      </div>
      <Section title="Proof of delivery">
        <ProofView proof={props.proof} orderId={order.id} />
      </Section>
      <Section title="Status history">
        <StatusHistory order={order} />
      </Section>
      <Section title="Chain of custody">
        <CustodyList custody={props.custody} />
      </Section>
      <Section title="Webhooks sent">
        <Webhooks deliveries={props.deliveries} />
      </Section>
      {props.step === "confirmingCancel" && <CancelConfirmation page={page} />}
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="console-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
