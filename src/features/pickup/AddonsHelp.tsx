import { formatPhone, telHref } from "../../../domain/phone.ts";
import { MAX_ADDON_ORDERS } from "../../../domain/pharmacy-progress.ts";
import { CourierDayContext } from "../../shell/app-actor.ts";
import { ActionButton } from "../../ui/ActionButton.tsx";

/** The add-ons Help sub-view: what an add-on is, and whom to call. */
export function AddonsHelp({ onBack }: { onBack: () => void }) {
  const supportPhone = CourierDayContext.useSelector((state) => state.context.day!.support_phone);
  const phone = formatPhone(supportPhone);
  const href = telHref(supportPhone);
  return (
    <section className="card stack" aria-label="Help">
      <p>
        An add-on is an order the pharmacy has ready for delivery today that is not on your list. Take it only if the
        pharmacy hands it to you.
      </p>
      <ul className="plain-list bullets">
        <li>Tick each order you have in hand; you can take at most {MAX_ADDON_ORDERS} a day at this pharmacy.</li>
        <li>Enter the copay printed on the bag, or tick No copay when there is none.</li>
        <li>Review and confirm: the orders join your list as picked up.</li>
        <li>If the order you hold is not offered here, have the pharmacy call the support line.</li>
      </ul>
      {href && phone && (
        <a className="button button--secondary button--block" href={href}>
          Call support <span className="nowrap">{phone}</span>
        </a>
      )}
      <ActionButton onClick={onBack}>Back to add-ons</ActionButton>
    </section>
  );
}
