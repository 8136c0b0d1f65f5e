import { useSelector } from "@xstate/react";
import { useId, useMemo } from "react";
import { Link } from "react-router";
import { checkInList, pickupInstructions, rowIndicator } from "../../../domain/pharmacy-progress.ts";
import { formatPhone, telHref } from "../../../domain/phone.ts";
import { SCAN_TEXT } from "../../../domain/label-scan.ts";
import { TEXT } from "../../../domain/texts.ts";
import { CourierDayContext } from "../../shell/app-actor.ts";
import { useOfflineOrderIds } from "../../shell/offline-status.ts";
import { ActionButton } from "../../ui/ActionButton.tsx";
import { ScanButton } from "../../ui/scanner/ScanButton.tsx";
import { ScannerPanel } from "../../ui/scanner/ScannerPanel.tsx";
import { useLabelScanner } from "../../ui/scanner/use-label-scanner.ts";
import { useCheckIn } from "./check-in-context.tsx";
import { CheckInRow } from "./CheckInRow.tsx";
import { ScreenHeader } from "./ScreenHeader.tsx";

/** /pharmacies/:pharmacyId/verify_orders: spec §2 check-in screen, §4 check-in list. */
export function CheckInScreen() {
  const { actor, pharmacy } = useCheckIn();
  const searchId = useId();
  const addonsEnabled = CourierDayContext.useSelector((state) => state.context.day!.feature_flags.self_service_addons_enabled);
  const { orders, search, canContinue } = useSelector(
    actor,
    (snapshot) => ({
      orders: snapshot.context.orders,
      search: snapshot.context.search,
      canContinue: snapshot.can({ type: "CONTINUE" }),
    }),
    (a, b) => a.orders === b.orders && a.search === b.search && a.canContinue === b.canContinue,
  );
  const scanner = useLabelScanner(actor);
  // Read once for the list, not subscribed to by every row: a row renders again only if its own indicator changes.
  const offlineIds = useOfflineOrderIds();

  // Worked out when the orders or the search change, not on every render of the screen.
  const { everyOrder, listed, instructions } = useMemo(
    () => ({
      everyOrder: checkInList(orders, pharmacy.id),
      listed: checkInList(orders, pharmacy.id, search),
      instructions: pickupInstructions(orders, pharmacy.id),
    }),
    [orders, pharmacy.id, search],
  );

  return (
    <main className="screen">
      <ScreenHeader title="check-in" back={{ to: "/pharmacies", label: "Itinerary" }}>
        <p className="step-header__sub">{pharmacy.name}</p>
      </ScreenHeader>

      <div className="search-row">
        <div className="field search-field">
          <label className="visually-hidden" htmlFor={searchId}>
            Search orders by recipient
          </label>
          <input
            id={searchId}
            className="input"
            type="search"
            placeholder={TEXT.searchPlaceholder}
            value={search}
            onChange={(event) => actor.send({ type: "SEARCH", query: event.target.value })}
          />
        </div>
        {!scanner && everyOrder.length > 0 && (
          <ScanButton onScan={() => actor.send({ type: "SCAN" })} />
        )}
      </div>

      {scanner && <ScannerPanel scanner={scanner} hint={SCAN_TEXT.checkInHint} instead={SCAN_TEXT.searchInstead} />}

      {instructions && (
        <section className="notice notice--warn section" aria-labelledby="pickup-instructions">
          <h2 id="pickup-instructions" className="section__title">
            {TEXT.pickupInstructions}
          </h2>
          <p className="pickup-note">{instructions}</p>
        </section>
      )}

      <section className="section" aria-labelledby="check-in-heading">
        <h2 id="check-in-heading" className="section__title">
          {TEXT.checkInHeading}
        </h2>
        {listed.length > 0 ? (
          <ul className="list">
            {listed.map((order) => (
              <li key={order.id}>
                <CheckInRow order={order} indicator={rowIndicator(order, offlineIds)} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{everyOrder.length === 0 ? "No orders to check in at this pharmacy." : "No orders match your search."}</p>
        )}
      </section>

      <div className="actions">
        <ActionButton
          id="all-orders-verified"
          disabled={!canContinue}
          aria-describedby={canContinue ? undefined : "continue-hint"}
          onClick={() => actor.send({ type: "CONTINUE" })}
        >
          {TEXT.continue}
        </ActionButton>
        {!canContinue && everyOrder.length > 0 && (
          <p id="continue-hint" className="muted continue-hint">
            Check in or cancel every order to continue.
          </p>
        )}
      </div>

      <NotListed addonsEnabled={addonsEnabled} pharmacyId={pharmacy.id} />
    </main>
  );
}

/** Spec §2: the add-ons button behind the feature flag, or what to do instead. */
function NotListed({ addonsEnabled, pharmacyId }: { addonsEnabled: boolean; pharmacyId: number }) {
  const supportPhone = CourierDayContext.useSelector((state) => state.context.day!.support_phone);
  if (addonsEnabled) {
    return (
      <div className="actions">
        <Link className="button button--secondary button--block" to={`/pharmacies/${pharmacyId}/addons`}>
          {TEXT.orderNotListed}
        </Link>
      </div>
    );
  }
  const phone = formatPhone(supportPhone);
  const href = telHref(supportPhone);
  return (
    <section className="card section not-listed" aria-labelledby="not-listed-title">
      <h2 id="not-listed-title" className="section__title">
        An order is not listed here?
      </h2>
      <p>Tap refresh, or go home and come back. If it is still missing, have the pharmacy call the support line.</p>
      {href && phone && (
        <a className="button button--secondary button--block" href={href}>
          Call support <span className="nowrap">{phone}</span>
        </a>
      )}
    </section>
  );
}
