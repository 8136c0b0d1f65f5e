import { useEffect, useRef } from "react";
import type { CardSession } from "../card-session.ts";

const LABELS = { number: "Card number", cvv: "CVV", expiration: "Expiration date (MM/YY)" } as const;

/**
 * Three labelled, empty containers the card gateway renders its fields into
 * (Braintree's iframes, or the local sandbox's inputs). React never renders
 * inside them; the card session sets the fields up and tears them down.
 */
export function CardFields({ cards, disabled }: { cards: CardSession; disabled: boolean }) {
  const number = useRef<HTMLDivElement>(null);
  const cvv = useRef<HTMLDivElement>(null);
  const expiration = useRef<HTMLDivElement>(null);

  useEffect(() => {
    cards.attach({ number: number.current!, cvv: cvv.current!, expiration: expiration.current! });
    return () => cards.detach();
  }, [cards]);

  // The fields are not ours to label with <label for>: a tap on the visible label focuses the field inside.
  const focus = (event: React.MouseEvent<HTMLElement>) =>
    event.currentTarget.nextElementSibling?.querySelector<HTMLElement>("input, iframe")?.focus();

  return (
    <fieldset className="fieldset card-fields" disabled={disabled}>
      <legend className="field__label">Card details</legend>
      <div className="field">
        <span className="field__label" onClick={focus}>
          {LABELS.number}
        </span>
        <div ref={number} className="card-field" data-card-container="number" />
      </div>
      <div className="card-fields__row">
        <div className="field">
          <span className="field__label" onClick={focus}>
            {LABELS.expiration}
          </span>
          <div ref={expiration} className="card-field" data-card-container="expiration" />
        </div>
        <div className="field">
          <span className="field__label" onClick={focus}>
            {LABELS.cvv}
          </span>
          <div ref={cvv} className="card-field" data-card-container="cvv" />
        </div>
      </div>
    </fieldset>
  );
}

export const CARD_FIELD_LABELS = LABELS;
