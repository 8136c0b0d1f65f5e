import { useState } from "react";
import type { DayMapModel } from "./map-model.ts";

/**
 * The map in words, for screen readers and anyone who prefers a list: each
 * route's stops in driving order, then the stops on no route. On the board
 * (onDemand) its items are in the page only while it is open: a day of
 * 2,000 stops is 2,000 list items nobody sees while it is closed.
 */
export function MapStopList({ model, onDemand = false }: { model: DayMapModel; onDemand?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    // Opened by its summary (a click, Enter or Space) at once; onToggle follows the browser opening it by itself (find in page).
    <details className="console-map__list" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary
        onClick={(event) => {
          event.preventDefault();
          setOpen(!open);
        }}
      >
        The map as a list
      </summary>
      {(open || !onDemand) && <StopListItems model={model} />}
    </details>
  );
}

function StopListItems({ model }: { model: DayMapModel }) {
  return (
    <>
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
    </>
  );
}
