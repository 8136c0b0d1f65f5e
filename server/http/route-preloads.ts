import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** dist/route-preloads.json, written by the build (vite.config.ts): the chunks each on-demand screen needs. */
export const ROUTE_PRELOADS_FILE = "route-preloads.json";

interface RoutePreload {
  /** React Router patterns ("/pharmacies/:pharmacyId/deliver_orders/*"), in the router's order. */
  paths: string[];
  /** Root-relative URLs of its chunks and stylesheets not already in the page ("/assets/DeliveryRoutes-x.js", "/assets/DeliveryRoutes-x.css"). */
  files: string[];
}

/** A router pattern as a regular expression: a parameter is one segment, a trailing splat the rest (or nothing). */
function patternToRegExp(pattern: string): RegExp {
  const splat = pattern.endsWith("/*");
  const segments = (splat ? pattern.slice(0, -2) : pattern)
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${segments.join("/")}${splat ? "(?:/.*)?" : ""}/?$`);
}

/**
 * The chunks and stylesheets a path's screen loads, for preload links in the
 * page: the phone fetches them alongside the app's own script instead of after
 * it has run. Nothing when the build wrote no list (the API alone, tests).
 */
export function routePreloads(webRoot: string): (pathname: string) => readonly string[] {
  const file = path.join(webRoot, ROUTE_PRELOADS_FILE);
  if (!existsSync(file)) return () => [];
  const routes = (JSON.parse(readFileSync(file, "utf8")) as RoutePreload[]).flatMap((route) =>
    route.paths.map((pattern) => ({ matches: patternToRegExp(pattern), files: route.files.filter((url) => /^\/assets\/[\w.-]+\.(js|css)$/.test(url)) })),
  );
  return (pathname) => routes.find((route) => route.matches.test(pathname))?.files ?? [];
}

/**
 * The page with a preload link per file, before </head>: a modulepreload per chunk (the form Vite writes for the
 * app's own chunks), a style preload per stylesheet. A preload, not a stylesheet link, so the splash still paints
 * without waiting for it; the app applies it when it loads the screen (Vite's import() adds the stylesheet link and
 * waits for it), from the preload's copy: same URL, same CORS mode (crossorigin, as Vite's link has).
 */
export function withPreloads(html: string, files: readonly string[]): string {
  if (files.length === 0) return html;
  const links = files
    .map((url) => (url.endsWith(".css") ? `<link rel="preload" as="style" crossorigin href="${url}">` : `<link rel="modulepreload" crossorigin href="${url}">`))
    .join("\n    ");
  return html.replace("</head>", `  ${links}\n  </head>`);
}

export interface PageVariants {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

/** The page for each list of chunks, compressed once (a handful of variants, one per on-demand feature). */
export function pageVariants(html: string): (files: readonly string[]) => PageVariants {
  const made = new Map<string, PageVariants>();
  return (files) => {
    const key = files.join("\n");
    let variants = made.get(key);
    if (!variants) {
      const page = withPreloads(html, files);
      variants = {
        html: page,
        br: brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzip: gzipSync(page, { level: 9 }),
      };
      made.set(key, variants);
    }
    return variants;
  };
}
