import { useSelector } from "@xstate/react";
import { useEffect, useId } from "react";
import type { ActorRefFrom } from "xstate";
import { copayDueAtDoor } from "../../../../domain/copay.ts";
import { correctedCopayCents, paymentPartsCents } from "../../../../domain/delivery-rules.ts";
import { formatUsd, parseDecimalToCents } from "../../../../domain/money.ts";
import { TEXT } from "../../../../domain/texts.ts";
import type { PaymentType } from "../../../../domain/vocabulary.ts";
import { copayCorrectionValid, paymentTotal } from "../../../../domain/payment-step.ts";
import type { paymentMachine } from "../../../../machines/payment.machine.ts";
import { ActionButton } from "../../../ui/ActionButton.tsx";
import { MoneyInput } from "../../../ui/MoneyInput.tsx";
import type { CardSession } from "../card-session.ts";
import { OrderSummary } from "../OrderSummary.tsx";
import { CardFields } from "./CardFields.tsx";
import type { StepProps } from "./step-props.ts";

const METHOD_LABELS: Record<PaymentType, string> = { cash: "Cash", check: "Check", card: "Card" };

const cents = (value: string | null | undefined) => parseDecimalToCents(value ?? null) ?? 0;

/** Spec §5 Payment step (the payment machine runs as the flow's child 'payment'; its 'unable to pay' confirmations are the flow's dialog, Confirmation.tsx). */
export function PaymentStep({ snapshot, cards }: StepProps & { cards: CardSession }) {
  // The child the flow invokes with id 'payment' (children are typed by every actor the flow may run).
  const child = snapshot.children.payment as ActorRefFrom<typeof paymentMachine> | undefined;
  const payment = useSelector(child, (state) => state);
  const ids = { methods: useId(), copay: useId(), copayHint: useId() };
  const entering = payment?.matches({ card: "entering" }) ?? false;

  // The card fields report each field's validity to the machine (never the card data itself).
  useEffect(() => {
    const client = entering ? cards.client() : null;
    if (!child || !client) return;
    child.send({ type: "CARD_FIELDS_CHANGED", ...client.validity() });
    return client.onValidityChange((validity) => child.send({ type: "CARD_FIELDS_CHANGED", ...validity }));
  }, [child, cards, entering]);

  if (!child || !payment) return <p role="status">Loading the payment…</p>;

  const { order, allowedMethods, method, newCopay, error } = payment.context;
  const onCard = payment.matches("card");
  const settingUp = payment.matches({ card: "settingUp" });
  const authorizing = payment.matches({ card: "authorizing" });
  const correctionValid = copayCorrectionValid(payment.context);
  const corrected = newCopay != null && correctionValid ? correctedCopayCents(newCopay) : null;
  const parts = paymentPartsCents(order, corrected);
  const lines = [
    { label: corrected != null ? "Copay (corrected)" : "Copay", cents: parts.copay },
    { label: "Delivery fee", cents: parts.deliveryFee },
    { label: "Other items", cents: parts.otherItems },
  ].filter((line) => line.cents > 0);

  return (
    <>
      <h1 className="screen__title">Payment</h1>
      <OrderSummary order={order} />

      <section className="card amount" aria-label="Amount owed">
        <p className="amount__label">Amount owed</p>
        <p className="amount__total">{formatUsd(cents(paymentTotal(payment.context)))}</p>
        {lines.length > 1 && (
          <dl className="amount__lines">
            {lines.map((line) => (
              <div key={line.label} className="amount__line">
                <dt>{line.label}</dt>
                <dd>{formatUsd(line.cents)}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>

      <fieldset className="fieldset">
        <legend id={ids.methods} className="field__label">
          Payment method
        </legend>
        <div className="choices" role="radiogroup" aria-labelledby={ids.methods}>
          {allowedMethods.map((type) => (
            <label key={type} className="choice">
              <input
                type="radio"
                name="payment-method"
                value={type}
                checked={method === type}
                disabled={method !== type && !payment.can({ type: "CHOOSE_METHOD", method: type })}
                onChange={() => child.send({ type: "CHOOSE_METHOD", method: type })}
              />
              <span>{METHOD_LABELS[type]}</span>
            </label>
          ))}
        </div>
      </fieldset>

      {onCard && <CardFields cards={cards} disabled={authorizing || settingUp} />}
      {settingUp && (
        <p className="muted" role="status">
          Setting up the card form…
        </p>
      )}

      {copayDueAtDoor(order) && (
        <div className="field section">
          <label className="field__label" htmlFor={ids.copay}>
            Corrected copay (only if the copay is different)
          </label>
          <MoneyInput
            id={ids.copay}
            className="input input--money"
            placeholder="$0.00"
            value={newCopay ?? ""}
            disabled={authorizing}
            aria-invalid={!correctionValid || undefined}
            aria-describedby={!correctionValid ? ids.copayHint : undefined}
            onValueChange={(value) => child.send({ type: "CORRECT_COPAY", new_copay: value === "" ? null : value })}
          />
          {!correctionValid && (
            <p id={ids.copayHint} className="field__error">
              A corrected copay needs at least 3 digits and must be at least $1.00.
            </p>
          )}
        </div>
      )}

      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}

      <div className="actions">
        {onCard ? (
          <ActionButton disabled={!payment.can({ type: "AUTHORIZE" })} aria-busy={authorizing} onClick={() => child.send({ type: "AUTHORIZE" })}>
            {authorizing ? "Authorizing…" : `Charge ${formatUsd(cents(paymentTotal(payment.context)))}`}
          </ActionButton>
        ) : (
          <ActionButton disabled={!payment.can({ type: "CONTINUE" })} onClick={() => child.send({ type: "CONTINUE" })}>
            {TEXT.continue}
          </ActionButton>
        )}
        <ActionButton variant="danger" disabled={!payment.can({ type: "UNABLE_TO_PAY" })} onClick={() => child.send({ type: "UNABLE_TO_PAY" })}>
          Unable to pay
        </ActionButton>
      </div>
    </>
  );
}
