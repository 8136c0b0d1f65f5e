import type { DayMapModel } from "./map-model.ts";

/** The map in words, for screen readers and anyone who prefers a list: each route's stops in driving order, then the stops on no route. */
export function MapStopList({ model }: { model: DayMapModel }) {
  return (
    <details className="console-map__list">
      <summary>The map as a list</summary>
      {model.routes.map((route) => (
        <div key={route.courierId} className="console-map__route-list">
          <h3>
            <span className="console-map__swatch" style={{ background: route.colour }} aria-hidden="true" />
            {route.name} ({route.colourName} line)
          </h3>
          <ol>
            {route.legs.map((leg, index) =>
              leg.pharmacy ? (
                <li key={`p${index}`}>Pickup at {leg.pharmacy.name}</li>
              ) : (
                <li key={`d${index}`}>
                  {leg.stop!.patient}, {leg.stop!.address}: {leg.stop!.statusWords}
                </li>
              ),
            )}
          </ol>
        </div>
      ))}
      {model.unassigned.length > 0 && (
        <div className="console-map__route-list">
          <h3>On no route</h3>
          <ul>
            {model.unassigned.map((stop) => (
              <li key={stop.orderId}>
                {stop.patient}, {stop.address}: {stop.statusWords}
              </li>
            ))}
          </ul>
        </div>
      )}
      {model.pharmacies.length > 0 && (
        <div className="console-map__route-list">
          <h3>Pharmacies</h3>
          <ul>
            {model.pharmacies.map((pharmacy) => (
              <li key={pharmacy.id}>{pharmacy.name}</li>
            ))}
          </ul>
        </div>
      )}
    </details>
  );
}
