import { Link } from "react-router";
import { pharmaciesOfDay, pharmacySections, pickupRows, visitsToMake, type PharmacySection, type PickupRow } from "../../../domain/pharmacy-list.ts";
import { TEXT } from "../../../domain/texts.ts";
import { CourierDayContext } from "../../shell/app-actor.ts";
import { useOfflineOrderIds } from "../../shell/offline-status.ts";
import { CheckIcon } from "../../ui/icons.tsx";

const SECTIONS: { section: PharmacySection; title: string }[] = [
  { section: "pickup", title: TEXT.pickupSection },
  { section: "deliver", title: TEXT.deliverSection },
  { section: "return", title: TEXT.returnSection },
  { section: "completed", title: TEXT.completedSection },
];

/**
 * Spec §2 /pharmacies: the pharmacies of the day in pickup, deliver, return and
 * completed sections. The pickup section lists each planned pickup on a day
 * that follows dispatch's plan (issue 28: a pharmacy the plan returns to is
 * listed at each return); the other sections list each pharmacy once.
 */
export function PharmaciesScreen() {
  const day = CourierDayContext.useSelector((state) => state.context.day)!;
  const incompleteOffline = useOfflineOrderIds().size > 0;
  const pharmacies = pharmaciesOfDay(visitsToMake(day.pharmacy_visits), day.orders);
  const rowsOf = (section: PharmacySection): PickupRow[] =>
    section === "pickup"
      ? pickupRows(pharmacies, day.orders)
      : pharmacies.filter((pharmacy) => pharmacySections(day.orders, pharmacy.id).includes(section)).map((pharmacy) => ({ pharmacy, awaiting: 0, stop: null }));

  return (
    <main className="screen">
      <h1 className="screen__title">Pharmacies</h1>
      {SECTIONS.map(({ section, title }) => {
        const listed = rowsOf(section);
        if (listed.length === 0) return null;
        return (
          <section key={section} className="section" aria-labelledby={`section-${section}`}>
            <h2 id={`section-${section}`} className="section__title">
              {title}
            </h2>
            <ul className="list">
              {listed.map((row) => (
                <li key={`${row.pharmacy.id}-${row.stop?.nth ?? 0}`}>
                  <PharmacyRow row={row} section={section} incompleteOffline={incompleteOffline} />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
      {pharmacies.length === 0 && <p className="muted">No pharmacy visits today.</p>}
    </main>
  );
}

function PharmacyRow({ row, section, incompleteOffline }: { row: PickupRow; section: PharmacySection; incompleteOffline: boolean }) {
  const { pharmacy, awaiting, stop } = row;
  const name = <span className="row-link__name">{pharmacy.name}</span>;
  switch (section) {
    case "pickup":
      // Every pickup of a pharmacy opens its one check-in list (spec §4; docs/planning.md).
      return (
        <Link className="row-link" to={`/pharmacies/${pharmacy.id}/verify_orders`}>
          {stop ? (
            <span className="row-link__main">
              {name}
              <span className="muted">
                Pickup {stop.nth} of {stop.of}
              </span>
            </span>
          ) : (
            name
          )}
          <span className="row-link__action">
            Verify <span className="badge" aria-label={`${awaiting} orders awaiting verification`}>{awaiting}</span>
          </span>
        </Link>
      );
    case "deliver":
      return (
        <Link className="row-link" to={`/pharmacies/${pharmacy.id}/deliver_orders`}>
          {name}
          <span className="row-link__action">Continue</span>
        </Link>
      );
    case "return":
      // Spec §2: with incomplete orders on the device, the alert replaces the Returns link.
      return incompleteOffline ? (
        <div className="card">
          {name}
          <p className="notice notice--warn" role="alert">
            {TEXT.incompleteOrdersReturnsAlert}
          </p>
        </div>
      ) : (
        <Link className="row-link" to={`/pharmacies/${pharmacy.id}/reconcile`}>
          {name}
          <span className="row-link__action">Returns</span>
        </Link>
      );
    case "completed":
      return (
        <div className="row-link">
          {name}
          <span className="badge badge--ok" role="img" aria-label="Completed">
            <CheckIcon />
          </span>
        </div>
      );
  }
}
