/**
 * The tile server the console may draw under its map (MAP_TILE_URL on the
 * server, which writes it into the console's page as <meta name="rxc-map-tiles">
 * and adds its origin to the page's CSP img-src). Without it the map draws its
 * vector layers on a blank background: no request leaves our server.
 */
export interface TileConfig {
  url: string;
  attribution: string;
}

export function configuredTiles(doc: Document = document): TileConfig | null {
  const url = doc.querySelector<HTMLMetaElement>('meta[name="rxc-map-tiles"]')?.content;
  if (!url) return null;
  const attribution = doc.querySelector<HTMLMetaElement>('meta[name="rxc-map-attribution"]')?.content ?? "";
  return { url, attribution };
}
