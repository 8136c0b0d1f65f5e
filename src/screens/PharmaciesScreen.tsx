import { Link } from "react-router";
import { awaitingVerificationCount, pharmaciesOfDay, pharmacySections, visitsToMake, type PharmacySection } from "../../domain/pharmacy-list.ts";
import type { Pharmacy } from "../../domain/contract/entities.ts";
import { TEXT } from "../../domain/texts.ts";
import { CourierDayContext } from "../app/app-actor.ts";
import { useOfflineOrderIds } from "../app/offline-status.ts";
import { CheckIcon } from "../ui/icons.tsx";

const SECTIONS: { section: PharmacySection; title: string }[] = [
  { section: "pickup", title: TEXT.pickupSection },
  { section: "deliver", title: TEXT.deliverSection },
  { section: "return", title: TEXT.returnSection },
  { section: "completed", title: TEXT.completedSection },
];

/** Spec §2 /pharmacies: the pharmacies of the day in pickup, deliver, return and completed sections. */
export function PharmaciesScreen() {
  const day = CourierDayContext.useSelector((state) => state.context.day)!;
  const incompleteOffline = useOfflineOrderIds().size > 0;
  const pharmacies = pharmaciesOfDay(visitsToMake(day.pharmacy_visits), day.orders);

  return (
    <main className="screen">
      <h1 className="screen__title">Pharmacies</h1>
      {SECTIONS.map(({ section, title }) => {
        const listed = pharmacies.filter((pharmacy) => pharmacySections(day.orders, pharmacy.id).includes(section));
        if (listed.length === 0) return null;
        return (
          <section key={section} className="section" aria-labelledby={`section-${section}`}>
            <h2 id={`section-${section}`} className="section__title">
              {title}
            </h2>
            <ul className="list">
              {listed.map((pharmacy) => (
                <li key={pharmacy.id}>
                  <PharmacyRow
                    pharmacy={pharmacy}
                    section={section}
                    awaiting={awaitingVerificationCount(day.orders, pharmacy.id)}
                    incompleteOffline={incompleteOffline}
                  />
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

function PharmacyRow({
  pharmacy,
  section,
  awaiting,
  incompleteOffline,
}: {
  pharmacy: Pharmacy;
  section: PharmacySection;
  awaiting: number;
  incompleteOffline: boolean;
}) {
  const name = <span className="row-link__name">{pharmacy.name}</span>;
  switch (section) {
    case "pickup":
      return (
        <Link className="row-link" to={`/pharmacies/${pharmacy.id}/verify_orders`}>
          {name}
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
