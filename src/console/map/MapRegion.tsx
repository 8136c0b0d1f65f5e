import { lazy, memo, Suspense, useDeferredValue, useMemo } from "react";
import type { OpsOrder } from "../../../domain/contract/ops.ts";
import { ConsoleSession } from "../session-context.ts";
import { dayMapModel, type DayMapModel, type MapCourier } from "./map-model.ts";
import { MapStopList } from "./MapStopList.tsx";
import "./map.css";

// Leaflet and its stylesheet load only when a map is drawn: the console's first screen stays within its budget.
// The file's name makes its chunk assets/dispatch-map-<hash>.{js,css}: a console file the courier's service
// worker never precaches (vite.config.ts leaves assets/dispatch-* out), so a courier's phone never downloads Leaflet.
const DayMap = lazy(() => import("./dispatch-map.tsx"));

/** The board's region 'Map': the day's orders and couriers as the board has them; a pharmacist's limited to their pharmacy. */
export function MapRegion({ orders, couriers }: { orders: readonly OpsOrder[]; couriers: readonly MapCourier[] }) {
  const staff = ConsoleSession.useSelector((snapshot) => snapshot.context.staff);
  const pharmacyId = staff?.role === "pharmacist" ? (staff.pharmacy_id ?? -1) : null;
  // The map follows the board a moment later: a change (an assignment of 100) is shown on the board first, then drawn here.
  const shownOrders = useDeferredValue(orders);
  const model = useMemo(() => dayMapModel(shownOrders, couriers, pharmacyId), [shownOrders, couriers, pharmacyId]);
  return <MapView model={model} title="Map" listOnDemand />;
}

/** A region with a heading: the drawn map, its legend, and the same in words (the text alternative). */
export const MapView = memo(function MapView({ model, title, listOnDemand = false }: { model: DayMapModel; title: string; listOnDemand?: boolean }) {
  const drawable = model.pharmacies.length + model.unassigned.length + model.routes.length > 0;
  return (
    <section className="console-region console-map" aria-labelledby="region-map">
      <h2 id="region-map">{title}</h2>
      {drawable ? (
        <>
          <Suspense fallback={<p role="status" className="console-map__canvas console-map__loading">Loading the map…</p>}>
            <DayMap model={model} />
          </Suspense>
          <MapLegend />
        </>
      ) : (
        <p className="console-empty">Nothing to draw: no order of the day has coordinates.</p>
      )}
      {model.withoutCoordinates > 0 && (
        <p className="console-map__note">
          {model.withoutCoordinates === 1 ? "1 order is" : `${model.withoutCoordinates} orders are`} not on the map: no coordinates for the address.
        </p>
      )}
      <MapStopList model={model} onDemand={listOnDemand} />
    </section>
  );
});

function MapLegend() {
  return (
    <ul className="console-map__legend" aria-label="Map legend">
      <li>
        <span className="console-map__key console-map__key--pharmacy" aria-hidden="true" /> Pharmacy
      </li>
      <li>
        <span className="console-map__key console-map__key--todo" aria-hidden="true" /> To pick up or planned
      </li>
      <li>
        <span className="console-map__key console-map__key--carried" aria-hidden="true" /> Picked up
      </li>
      <li>
        <span className="console-map__key console-map__key--delivered" aria-hidden="true" /> Delivered
      </li>
      <li>
        <span className="console-map__key console-map__key--attempted" aria-hidden="true" /> Delivery attempted
      </li>
      <li>A line: a courier's route in their colour</li>
    </ul>
  );
}
