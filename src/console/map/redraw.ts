/** A drawn layer and what it was drawn from: the same key next time, the layer stays as it is. */
export interface Drawn<Layer> {
  layer: Layer;
  key: string;
}

/** Where layers are added and removed (a Leaflet LayerGroup). */
export interface LayerHolder<Layer> {
  addLayer(layer: Layer): unknown;
  removeLayer(layer: Layer): unknown;
}

/**
 * Layers by id, drawn again only where their key changed: an assignment of
 * 100 orders redraws those 100 stops and two routes, not the day's 2,000
 * (each an SVG path with its tooltip). An id no longer given is removed.
 */
export function reconcile<T, Layer>(drawn: Map<string, Drawn<Layer>>, group: LayerHolder<Layer>, items: Iterable<[string, T]>, keyOf: (item: T) => string, draw: (item: T) => Layer): void {
  const seen = new Set<string>();
  for (const [id, item] of items) {
    seen.add(id);
    const key = keyOf(item);
    const before = drawn.get(id);
    if (before?.key === key) continue;
    if (before) group.removeLayer(before.layer);
    const layer = draw(item);
    group.addLayer(layer);
    drawn.set(id, { layer, key });
  }
  for (const [id, { layer }] of drawn) {
    if (seen.has(id)) continue;
    group.removeLayer(layer);
    drawn.delete(id);
  }
}
