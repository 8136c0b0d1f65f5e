import { deliveryInstructions } from "../../../../domain/delivery-notes.ts";
import { formatPhone, telHref } from "../../../../domain/phone.ts";
import { TEXT } from "../../../../domain/texts.ts";
import { ActionButton } from "../../../ui/ActionButton.tsx";
import { PhoneIcon } from "../../../ui/icons.tsx";
import { OrderSummary } from "../OrderSummary.tsx";
import type { StepProps } from "./step-props.ts";

/** Spec §2 Address step. */
export function AddressStep({ snapshot, send }: StepProps) {
  const { order } = snapshot.context;
  const instructions = deliveryInstructions(order);
  const phone = formatPhone(order.phone_number);
  const tel = telHref(order.phone_number);
  return (
    <>
      <h1 className="screen__title">Confirm the address</h1>
      <OrderSummary order={order} />
      {instructions.length > 0 && (
        <section className="section" aria-labelledby="instructions-title">
          <h2 id="instructions-title" className="section__title">
            Delivery instructions
          </h2>
          <ul className="notes">
            {instructions.map((note, index) => (
              <li key={index} className={note.important ? "notice notice--warn" : "notes__item"}>
                {note.text}
              </li>
            ))}
          </ul>
        </section>
      )}
      <p className="notice notice--warn">
        Be certain you are at the address above before you continue. If you are not sure, call the patient
        {phone ? ` at ${phone}` : ""}.
      </p>
      {tel && (
        <a
          className="button button--secondary button--block step__call"
          href={tel}
          onClick={() => send({ type: "RECIPIENT_CALLED", at: new Date().toISOString() })}
        >
          <PhoneIcon />
          <span>
            Call the patient <span className="nowrap">{phone}</span>
          </span>
        </a>
      )}
      <div className="actions">
        <ActionButton disabled={!snapshot.can({ type: "PRESENT_AT_ADDRESS" })} onClick={() => send({ type: "PRESENT_AT_ADDRESS" })}>
          {TEXT.presentAtAddress}
        </ActionButton>
        <ActionButton variant="danger" disabled={!snapshot.can({ type: "ADDRESS_INCORRECT" })} onClick={() => send({ type: "ADDRESS_INCORRECT" })}>
          {TEXT.addressIncorrect}
        </ActionButton>
      </div>
    </>
  );
}
