import L from "leaflet";
import "leaflet/dist/leaflet.css";
import { useEffect, useRef } from "react";
import { pointsOf, type DayMapModel, type MapPharmacy, type MapPoint, type MapStop, type StopTone } from "./map-model.ts";
import { reconcile, type Drawn } from "./redraw.ts";
import { configuredTiles } from "./tiles.ts";

/** A stop's fill by where it stands; its outline is its courier's colour (black: no courier). */
export const TONE_FILLS: Record<StopTone, string> = {
  todo: "#ffffff",
  carried: "#f5b700",
  delivered: "#1a7f37",
  attempted: "#b42318",
  planned: "#ffffff",
};

/** Routes under the pharmacies, stops on top, whatever order they are drawn again in (each pane is an SVG of its own). */
const PANES = { routes: ["rxc-routes", 395], pharmacies: ["rxc-pharmacies", 400], stops: ["rxc-stops", 405] } as const;

const at = (point: MapPoint) => `${point.lat},${point.lng}`;

/**
 * The map's drawing (Leaflet, loaded only when a map is shown: see MapRegion).
 * Leaflet's own Web Mercator projection with vector layers only; a tile layer
 * under them only when the server configured one (docs/decisions/0034).
 */
export default function DayMap({ model }: { model: DayMapModel }) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layers = useRef<L.LayerGroup | null>(null);
  const drawn = useRef({ routes: new Map<string, Drawn<L.Layer>>(), pharmacies: new Map<string, Drawn<L.Layer>>(), stops: new Map<string, Drawn<L.Layer>>() });

  useEffect(() => {
    if (!container.current) return;
    const created = L.map(container.current, { zoomSnap: 0.25, attributionControl: true, preferCanvas: false });
    for (const [name, zIndex] of Object.values(PANES)) created.createPane(name).style.zIndex = String(zIndex);
    const tiles = configuredTiles();
    if (tiles) L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 }).addTo(created);
    layers.current = L.layerGroup().addTo(created);
    map.current = created;
    const kept = drawn.current;
    return () => {
      created.remove();
      map.current = null;
      layers.current = null;
      for (const kind of Object.values(kept)) kind.clear();
    };
  }, []);

  useEffect(() => {
    const group = layers.current;
    const shown = map.current;
    if (!group || !shown) return;
    const kept = drawn.current;
    reconcile(
      kept.routes,
      group,
      model.routes.filter((route) => route.path.length > 1).map((route) => [String(route.courierId), route]),
      (route) => `${route.colour} ${route.path.map(at).join(" ")}`,
      (route) => L.polyline(route.path, { pane: PANES.routes[0], color: route.colour, weight: 4, opacity: 0.85, interactive: false, className: "console-map__route" }),
    );
    reconcile(
      kept.pharmacies,
      group,
      model.pharmacies.map((pharmacy) => [String(pharmacy.id), pharmacy]),
      (pharmacy: MapPharmacy) => `${at(pharmacy)} ${pharmacy.name}`,
      (pharmacy) =>
        L.circleMarker(pharmacy, { pane: PANES.pharmacies[0], radius: 9, color: "#111111", weight: 3, fillColor: "#0b3d91", fillOpacity: 1, className: "console-map__pharmacy" }).bindTooltip(
          pharmacy.name,
        ),
    );
    const stops: [string, { stop: MapStop; colour: string }][] = [
      ...model.routes.flatMap((route) => route.legs.flatMap((leg) => (leg.stop ? [[String(leg.stop.orderId), { stop: leg.stop, colour: route.colour }] as [string, { stop: MapStop; colour: string }]] : []))),
      ...model.unassigned.map((stop): [string, { stop: MapStop; colour: string }] => [String(stop.orderId), { stop, colour: "#111111" }]),
    ];
    reconcile(
      kept.stops,
      group,
      stops,
      ({ stop, colour }) => `${at(stop)} ${colour} ${stop.tone} ${stop.patient} · ${stop.statusWords}`,
      ({ stop, colour }) =>
        L.circleMarker(stop, {
          pane: PANES.stops[0],
          radius: 7,
          color: colour,
          weight: 3,
          fillColor: TONE_FILLS[stop.tone],
          fillOpacity: 1,
          className: `console-map__stop console-map__stop--${stop.tone}`,
        }).bindTooltip(`${stop.patient} · ${stop.statusWords}`),
    );
    const points = pointsOf(model);
    if (points.length > 0) shown.fitBounds(L.latLngBounds(points), { padding: [24, 24], maxZoom: 15 });
  }, [model]);

  return <div ref={container} className="console-map__canvas" data-testid="map-canvas" />;
}
