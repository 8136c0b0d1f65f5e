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
 * The chunks and stylesheets a path's screen loads, for the page the server
 * sends for it (withPreloads): the phone fetches the chunks alongside the app's
 * own script instead of after it has run, and has the stylesheets with the page.
 * Nothing when the build wrote no list (the API alone, tests).
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
 * The page with what a path's screen needs, before </head>: a modulepreload link per chunk (the form Vite writes for
 * the app's own chunks), and each stylesheet inline, as the page's own is (vite.config.ts inlineStylesheet): no
 * request after the page's, and the splash paints without waiting for one. Each keeps a disabled link to its file:
 * never fetched nor applied, but Vite's import() then sees it loaded and does not add it again. A stylesheet the
 * server cannot read, or that could close its <style> element, is preloaded instead (Vite's import() applies it).
 */
export function withPreloads(html: string, files: readonly string[], stylesheet: (url: string) => string | null = () => null): string {
  if (files.length === 0) return html;
  const links = files
    .map((url) => {
      if (!url.endsWith(".css")) return `<link rel="modulepreload" crossorigin href="${url}">`;
      const css = stylesheet(url);
      return css !== null && !/<\/style/i.test(css) ? `<style>${css.trim()}</style>\n    <link rel="stylesheet" href="${url}" disabled>` : `<link rel="preload" as="style" crossorigin href="${url}">`;
    })
    .join("\n    ");
  return html.replace("</head>", `  ${links}\n  </head>`);
}

export interface PageVariants {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

/** A built stylesheet's text by its URL ("/assets/x.css"), read from the web root; null when it is not there. */
function stylesheetsIn(webRoot: string): (url: string) => string | null {
  return (url) => {
    const file = path.join(webRoot, url);
    return file.startsWith(path.join(webRoot, "assets") + path.sep) && existsSync(file) ? readFileSync(file, "utf8") : null;
  };
}

/** The page for each list of chunks and stylesheets, made and compressed once (a handful of variants, one per on-demand feature). */
export function pageVariants(html: string, webRoot: string): (files: readonly string[]) => PageVariants {
  const made = new Map<string, PageVariants>();
  const stylesheet = stylesheetsIn(webRoot);
  return (files) => {
    const key = files.join("\n");
    let variants = made.get(key);
    if (!variants) {
      const page = withPreloads(html, files, stylesheet);
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
