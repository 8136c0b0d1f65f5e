import { useSelector } from "@xstate/react";
import { Navigate, useNavigate, useParams } from "react-router";
import type { ActorRefFrom } from "xstate";
import type { Order } from "../../../domain/contract/entities.ts";
import { isValidCopay } from "../../../domain/copay.ts";
import { isoToUsDate } from "../../../domain/dates.ts";
import { formatUsd, parseDecimalToCents } from "../../../domain/money.ts";
import { checkInRowAction, showsCopaySection } from "../../../domain/pharmacy-progress.ts";
import { formatPhone } from "../../../domain/phone.ts";
import { TEXT } from "../../../domain/texts.ts";
import type { verifyOrderMachine } from "../../../machines/verify-order.machine.ts";
import { CourierDayContext } from "../../shell/app-actor.ts";
import { useFlowActor } from "../../shell/flow-actor.ts";
import { LoadingScreen } from "../../ui/LoadingScreen.tsx";
import { ActionButton } from "../../ui/ActionButton.tsx";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { CheckIcon } from "../../ui/icons.tsx";
import { useCheckIn } from "./check-in-context.tsx";
import { CopayEntry } from "./CopayEntry.tsx";
import { deliveryInstructions } from "../../../domain/delivery-notes.ts";
import { AddressLink, otherFeesCents, patientName, RxNumbers } from "./order-details.tsx";
import { ScreenHeader } from "./ScreenHeader.tsx";
import { useWhenDone } from "./use-when-done.ts";

/** /pharmacies/:pharmacyId/verify_orders/:orderId. Spec §2: an unknown order id redirects to /pharmacies. */
export function VerifyOrderScreen() {
  const { orderId } = useParams();
  const { pharmacy } = useCheckIn();
  const order = CourierDayContext.useSelector((state) =>
    state.context.day!.orders.find((candidate) => String(candidate.id) === orderId && candidate.pharmacy.id === pharmacy.id),
  );
  if (!order) return <Navigate to="/pharmacies" replace />;
  // A fresh machine per order: its context starts from the order as the day knows it.
  return <VerifyOrder key={order.id} order={order} />;
}

function VerifyOrder({ order }: { order: Order }) {
  const statuses = CourierDayContext.useSelector((state) => state.context.day!.statuses);
  // Spawned by the application machine: the machine itself tells the day the order's new status.
  const actor = useFlowActor("verifyOrder", { input: { order, statuses } });
  return actor ? <VerifyOrderView actor={actor} pharmacyId={order.pharmacy.id} /> : <LoadingScreen />;
}

function VerifyOrderView({ actor, pharmacyId }: { actor: ActorRefFrom<typeof verifyOrderMachine>; pharmacyId: number }) {
  const navigate = useNavigate();
  const listPath = `/pharmacies/${pharmacyId}/verify_orders`;
  const state = useSelector(actor, (snapshot) => snapshot);
  const { order, copay, noCopay, error } = state.context;

  // Verified or cancelled (the day already knows, from the machine): back to the list.
  useWhenDone(actor, () => {
    void navigate(listPath);
  });

  const handled = state.matches("alreadyHandled");
  const editable = state.matches("editing");
  const dob = order.pid_order ? isoToUsDate(order.patient_date_of_birth) : null;
  const instructions = deliveryInstructions(order);
  const phone = formatPhone(order.phone_number);
  const action = checkInRowAction(order);

  return (
    <main className="screen">
      <ScreenHeader title={TEXT.verifyOrderHeader} back={{ to: listPath, label: "check-in" }}>
        <p className="step-header__sub">{order.pharmacy.name}</p>
      </ScreenHeader>

      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
      {handled && <HandledNotice action={action} status={order.status.name} />}

      <section className="card order-facts" aria-label="Order">
        <dl className="facts">
          <dt>Recipient</dt>
          <dd className="facts__strong">{patientName(order)}</dd>
          <dt>Date of birth</dt>
          <dd>{dob ?? TEXT.dobNotAvailable}</dd>
          <dt>Address</dt>
          <dd>
            <AddressLink address={order.address} />
          </dd>
          <dt>Phone</dt>
          <dd>{phone ?? TEXT.dobNotAvailable}</dd>
          <dt>RX numbers</dt>
          <dd>
            <RxNumbers order={order} />
          </dd>
          <dt>Delivery instructions</dt>
          <dd>
            {instructions.length === 0 ? (
              <span className="muted">None</span>
            ) : (
              <ul className="plain-list">
                {instructions.map(({ text, important }, index) => (
                  <li key={index}>{important ? <strong>{text}</strong> : text}</li>
                ))}
              </ul>
            )}
          </dd>
          <dt>{TEXT.otherFees}</dt>
          <dd>{formatUsd(otherFeesCents(order))}</dd>
        </dl>
      </section>

      {showsCopaySection(order) && !handled && (
        <section className="card section">
          <CopayEntry
            label="Copay"
            onFile={order.copay}
            copay={copay}
            noCopay={noCopay}
            invalid={copay.trim() !== "" && !isValidCopay(copay)}
            disabled={!editable}
            onCopayChange={(value) => actor.send({ type: "CHANGE_COPAY", value })}
            onNoCopayChange={(checked) => actor.send({ type: "SET_NO_COPAY", checked })}
          />
        </section>
      )}
      {handled && order.copay != null && (
        <p className="muted">Copay: {formatUsd(parseDecimalToCents(order.copay) ?? 0)}</p>
      )}

      <div className="actions">
        <ActionButton disabled={!state.can({ type: "VERIFY" })} onClick={() => actor.send({ type: "VERIFY" })}>
          {state.matches("submitting") ? "Verifying…" : "Verify order"}
        </ActionButton>
        <ActionButton variant="danger" disabled={!state.can({ type: "CANCEL" })} onClick={() => actor.send({ type: "CANCEL" })}>
          {state.matches("cancelling") ? "Cancelling…" : "Cancel order"}
        </ActionButton>
      </div>

      {state.matches("confirmingCancel") && (
        <ConfirmDialog
          message={TEXT.cancelOrderConfirm}
          confirmLabel="Yes"
          cancelLabel="No"
          onConfirm={() => actor.send({ type: "CONFIRM_CANCEL" })}
          onCancel={() => actor.send({ type: "KEEP_ORDER" })}
        />
      )}
    </main>
  );
}

/** Already picked up (the verified tick), cancelled, or further along: nothing to verify. */
function HandledNotice({ action, status }: { action: ReturnType<typeof checkInRowAction>; status: Order["status"]["name"] }) {
  if (action === "verified") {
    return (
      <p className="notice notice--ok verified-notice" role="status">
        <CheckIcon /> Verified: this order is picked up.
      </p>
    );
  }
  if (action === "cancelled") {
    return (
      <p className="notice notice--warn" role="status">
        <span className="badge badge--danger">cancelled</span> This order was cancelled.
      </p>
    );
  }
  return (
    <p className="notice notice--warn" role="status">
      This order is {status.replace(/_/g, " ")}: there is nothing to verify.
    </p>
  );
}
