/**
 * A tile server under the console's map (MAP_TILE_URL, issue 27,
 * docs/decisions/0034). Unset, the map draws on a blank background and no
 * request leaves our server. Set, the console's page names it in a
 * <meta name="rxc-map-tiles"> and the page's CSP img-src allows its origin,
 * the console's only: the courier's pages never load a tile.
 */
export interface MapTilesConfig {
  /** A Leaflet tile URL template, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png */
  url: string;
  /** The img-src source: the template's origin ({s} subdomains as a wildcard). */
  origin: string;
  /** Shown in the map's corner (MAP_TILE_ATTRIBUTION): most tile servers require it. */
  attribution: string;
}

/** fail: how the caller refuses to start (config.ts throws its ConfigError with the message). */
export function mapTilesFrom(env: NodeJS.ProcessEnv, fail: (message: string) => never): MapTilesConfig | null {
  const value = env.MAP_TILE_URL?.trim();
  if (!value) return null;
  const example = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
  if (!["{z}", "{x}", "{y}"].every((part) => value.includes(part))) {
    fail(`MAP_TILE_URL must be a tile URL template with {z}, {x} and {y}, such as ${example} (it is "${value}").`);
  }
  let url: URL;
  try {
    url = new URL(value.replaceAll("{s}", "a"));
  } catch {
    return fail(`MAP_TILE_URL must be an http(s) URL template such as ${example} (it is "${value}").`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") fail(`MAP_TILE_URL must be an http(s) URL template such as ${example} (it is "${value}").`);
  if (/[{}]/.test(url.host)) fail(`MAP_TILE_URL may have only {s} in its host (it is "${value}").`);
  const host = value.includes("{s}") ? hostPattern(value) : url.host;
  return { url: value, origin: `${url.protocol}//${host}`, attribution: env.MAP_TILE_ATTRIBUTION?.trim() || `Map tiles: ${url.hostname.replace(/^a\./, "")}` };
}

/** The template's host with {s} as CSP's wildcard: {s}.tile.example.org → *.tile.example.org. */
function hostPattern(template: string): string {
  const host = /^https?:\/\/([^/]+)/.exec(template)![1]!;
  return host.replace("{s}", "*");
}

const escapeAttribute = (text: string) => text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** The console's page naming the tile server for its map (read by src/console/map/tiles.ts). */
export function consolePageWithTiles(html: string, tiles: MapTilesConfig): string {
  const meta = `<meta name="rxc-map-tiles" content="${escapeAttribute(tiles.url)}"><meta name="rxc-map-attribution" content="${escapeAttribute(tiles.attribution)}">`;
  return html.replace("</head>", `${meta}</head>`);
}

/** The console's pages: /dispatch and every path below it. */
export const isConsolePath = (url: string | undefined): boolean => {
  const pathname = (url ?? "").split("?")[0]!;
  return pathname === "/dispatch" || pathname.startsWith("/dispatch/");
};
