import L from "leaflet";
import "leaflet/dist/leaflet.css";
import { useEffect, useRef } from "react";
import { pointsOf, type DayMapModel, type StopTone } from "./map-model.ts";
import { configuredTiles } from "./tiles.ts";

/** A stop's fill by where it stands; its outline is its courier's colour (black: no courier). */
export const TONE_FILLS: Record<StopTone, string> = {
  todo: "#ffffff",
  carried: "#f5b700",
  delivered: "#1a7f37",
  attempted: "#b42318",
  planned: "#ffffff",
};

/**
 * The map's drawing (Leaflet, loaded only when a map is shown: see MapRegion).
 * Leaflet's own Web Mercator projection with vector layers only; a tile layer
 * under them only when the server configured one (docs/decisions/0034).
 */
export default function DayMap({ model }: { model: DayMapModel }) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layers = useRef<L.LayerGroup | null>(null);

  useEffect(() => {
    if (!container.current) return;
    const created = L.map(container.current, { zoomSnap: 0.25, attributionControl: true, preferCanvas: false });
    const tiles = configuredTiles();
    if (tiles) L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 }).addTo(created);
    layers.current = L.layerGroup().addTo(created);
    map.current = created;
    return () => {
      created.remove();
      map.current = null;
      layers.current = null;
    };
  }, []);

  useEffect(() => {
    const group = layers.current;
    const shown = map.current;
    if (!group || !shown) return;
    group.clearLayers();
    for (const route of model.routes) {
      if (route.path.length > 1) L.polyline(route.path, { color: route.colour, weight: 4, opacity: 0.85, interactive: false, className: "console-map__route" }).addTo(group);
    }
    for (const pharmacy of model.pharmacies) {
      L.circleMarker(pharmacy, { radius: 9, color: "#111111", weight: 3, fillColor: "#0b3d91", fillOpacity: 1, className: "console-map__pharmacy" })
        .bindTooltip(pharmacy.name)
        .addTo(group);
    }
    const stops = [...model.routes.flatMap((route) => route.legs.flatMap((leg) => (leg.stop ? [{ stop: leg.stop, colour: route.colour }] : []))), ...model.unassigned.map((stop) => ({ stop, colour: "#111111" }))];
    for (const { stop, colour } of stops) {
      L.circleMarker(stop, { radius: 7, color: colour, weight: 3, fillColor: TONE_FILLS[stop.tone], fillOpacity: 1, className: `console-map__stop console-map__stop--${stop.tone}` })
        .bindTooltip(`${stop.patient} · ${stop.statusWords}`)
        .addTo(group);
    }
    const points = pointsOf(model);
    if (points.length > 0) shown.fitBounds(L.latLngBounds(points), { padding: [24, 24], maxZoom: 15 });
  }, [model]);

  return <div ref={container} className="console-map__canvas" data-testid="map-canvas" />;
}
