import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { defineConfig, type Plugin, type Rollup } from "vite";
import react from "@vitejs/plugin-react";
import { startupCompileHints } from "./scripts/build/compile-hints.ts";
import { featureChunkGroups } from "./scripts/build/feature-chunks.ts";
import { withStaticImports } from "./scripts/build/static-imports.ts";
import { FEATURE_ROUTES } from "./src/app/feature-routes.ts";

/**
 * Brotli and gzip copies of every text asset next to it, served by
 * @fastify/static's preCompressed (server/app.ts): a phone on a weak signal
 * downloads a third of the bytes, and the server never compresses per request.
 * Measured in docs/benchmarks.md "First screen" (issue 9).
 */
function precompress(): Plugin {
  let outDir = "dist";
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? walk(path.join(dir, name)) : [path.join(dir, name)]));
  return {
    name: "rxc-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: "post",
      sequential: true,
      handler() {
        for (const file of walk(outDir).filter((name) => /\.(js|css|html|svg|webmanifest|wasm)$/.test(name))) {
          const content = readFileSync(file);
          if (content.length < 1024) continue;
          writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
          writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        }
      },
    },
  };
}

/** The HTTP client's module (src/api/client.ts import()s it): named in a calling screen's page, and compiled as it streams in. */
const HTTP_CLIENT_MODULE = "src/api/ky-client.ts";

/**
 * dist/route-preloads.json: for each screen that loads its code on demand
 * (src/app/feature-routes.ts), the chunks it needs beyond the app's own. The
 * server names them in the page it sends for such a path
 * (server/http/route-preloads.ts), so a deep link or a reload mid-delivery
 * fetches them alongside the app instead of one round trip after it.
 */
function routePreloads(): Plugin {
  let root = process.cwd();
  return {
    name: "rxc-route-preloads",
    apply: "build",
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output): output is Rollup.OutputChunk => output.type === "chunk");
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      // The courier's entry (the console's, dispatch.html, has no on-demand screens).
      const entry = chunks.find((chunk) => chunk.isEntry && chunk.name === "index");
      if (!entry) return this.error("no entry chunk for index.html");
      const inThePage = withStaticImports(chunks, [entry.fileName]);
      // The HTTP client (src/api/client.ts import()s it): named in the page of a screen that calls the API as it opens.
      const clientId = path.resolve(root, HTTP_CLIENT_MODULE);
      const client = chunks.find((candidate) => candidate.facadeModuleId === clientId);
      if (!client) return this.error(`${HTTP_CLIENT_MODULE} has no chunk of its own`);
      const routes = FEATURE_ROUTES.map((route) => {
        const { module, paths } = route;
        // A screen's module is the facade of its chunk, or one module of its screen's group (scripts/build/feature-chunks.ts).
        const id = path.resolve(root, module);
        const chunk = chunks.find((candidate) => candidate.facadeModuleId === id) ?? chunks.find((candidate) => candidate.moduleIds.includes(id));
        if (!chunk) return this.error(`${module} (src/app/feature-routes.ts) has no chunk of its own`);
        const roots = "client" in route && route.client ? [chunk.fileName, client.fileName] : [chunk.fileName];
        const scripts = [...withStaticImports(chunks, roots)].filter((file) => !inThePage.has(file));
        // The screen's stylesheets (its chunk's and what it shares with other screens), not in the first screen's page.
        const stylesheets = [...new Set(scripts.flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]))];
        return { paths, files: [...scripts, ...stylesheets].map((file) => `/${file}`) };
      });
      this.emitFile({ type: "asset", fileName: "route-preloads.json", source: `${JSON.stringify(routes, null, 2)}\n` });
    },
  };
}

/**
 * The first screen's stylesheet (src/styles/app.css, 5.6 KB) inside the page:
 * the first paint needs the page alone, not a second request on a weak
 * signal. The CSP allows inline styles already (server/http/security-headers.ts).
 * Each on-demand screen's own stylesheet comes with its chunk (issue 29).
 *
 * The page keeps its link to the file, disabled: never fetched, never applied,
 * but Vite's import() sees the stylesheet as loaded. It lists it among the files
 * a screen's chunk needs first (its imports reach the app's entry), and would
 * otherwise add it after the screen's own stylesheet, whose rules it would then
 * undo (tests/unit/bundle-budget.test.ts; in a browser, tests/e2e/card-payment.test.ts).
 */
function inlineStylesheet(): Plugin {
  return {
    name: "rxc-inline-stylesheet",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, context) {
        return html.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g, (tag, file: string) => {
          const asset = context.bundle?.[file];
          return asset?.type === "asset" ? `<style>${String(asset.source).trim()}</style>\n    <link rel="stylesheet" href="/${file}" disabled>` : tag;
        });
      },
    },
  };
}

/**
 * React Router's production build in the app's build: the package's exports
 * name only its development build, whose only difference is
 * ENABLE_DEV_WARNINGS = true (checks and warnings on every navigation and
 * render). Measured at the low-tier phone's setting (issue 29, docs/benchmarks.md).
 */
function reactRouterProduction(): Plugin {
  const production = path.resolve(import.meta.dirname, "node_modules/react-router/dist/production/index.mjs");
  return {
    name: "rxc-react-router-production",
    apply: "build",
    enforce: "pre",
    resolveId(id) {
      return id === "react-router" ? production : null;
    },
  };
}

import { VitePWA } from "vite-plugin-pwa";

/**
 * The courier's web app manifest stays off the dispatch console's page
 * (vite-plugin-pwa writes it into every page): the console is not the
 * installable courier app, and its start_url is the courier's dashboard.
 * The courier's page does not name it either: the app links it once the first
 * screen is up (src/offline/service-worker.ts), so the browser's manifest and
 * icon requests do not share a weak signal with the app's own chunks.
 */
function pagesWithoutManifestLink(): Plugin {
  return {
    name: "rxc-pages-without-manifest-link",
    apply: "build",
    // After vite-plugin-pwa's own post plugin, which writes the link (this plugin comes after it in the list).
    enforce: "post",
    transformIndexHtml: {
      order: "post",
      handler: (html) => html.replace(/\s*<link rel="manifest"[^>]*>/g, ""),
    },
  };
}

/**
 * The dispatch console's own files: dist/assets/dispatch-console-<hash>.js (its entry chunk) and
 * dispatch-<hash>.css, left out of the courier's precache (tests/unit/console-bundle-budget.test.ts).
 */
const CONSOLE_ENTRY_PREFIX = "dispatch-console";
/** The console's on-demand screens' files: dist/assets/dispatch-<name>-<hash>.js and .css (the worker's globIgnores "assets/dispatch-*"). */
const CONSOLE_ASSET_PREFIX = "dispatch";
const CONSOLE_STYLESHEETS = ["pages.css"];

// The API runs on the same origin in production (server/app.ts serves dist/);
// in development Vite forwards /api to the server started with `npm run serve`.
export default defineConfig({
  plugins: [
    reactRouterProduction(),
    react(),
    routePreloads(),
    // What the courier's screens run as they open: the page, each on-demand screen, the HTTP client, the offline store (opened once the first screen is shown).
    startupCompileHints(import.meta.dirname, ["index.html", ...FEATURE_ROUTES.map((route) => route.module), HTTP_CLIENT_MODULE, "src/offline/offline-store.ts"]),
    inlineStylesheet(),
    // The app shell is precached so the app opens without network; the courier's
    // day lives in localforage, never in the service worker's caches (patient data).
    VitePWA({
      registerType: "autoUpdate",
      // Registered by the app itself once the first screen is up and the phone idle (src/offline/service-worker.ts), not at `load`.
      injectRegister: false,
      includeAssets: ["icon.svg"],
      manifest: {
        name: "Rx Courier",
        short_name: "Rx Courier",
        description: "Pick up and deliver prescription orders.",
        start_url: "/dashboard",
        scope: "/",
        display: "standalone",
        orientation: "portrait",
        background_color: "#eef2f6",
        theme_color: "#0b3954",
        icons: [
          { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
          { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
          { src: "/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
      workbox: {
        globPatterns: ["**/*.{js,css,html,svg,png,webmanifest}"],
        // The dispatch console (dispatch.html, its entry chunk) is no part of the courier's offline app: a courier's
        // phone never downloads it, and /dispatch is always the server's page, never the courier's (issue 27).
        globIgnores: ["**/node_modules/**", "dispatch.html", "assets/dispatch-*"],
        navigateFallback: "/index.html",
        navigateFallbackDenylist: [/^\/api\//, /^\/dispatch(?:\/|$)/],
        cleanupOutdatedCaches: true,
        // The first visit is already covered: a courier may lose signal right after logging in.
        clientsClaim: true,
        skipWaiting: true,
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
    }),
    pagesWithoutManifestLink(),
    precompress(),
  ],
  server: { proxy: { "/api": "http://127.0.0.1:3000" } },
  build: {
    target: "es2022",
    sourcemap: true,
    rollupOptions: {
      // Two pages: the courier's app and the dispatch console (issue 27, served under /dispatch by server/app.ts).
      input: { index: path.resolve(import.meta.dirname, "index.html"), dispatch: path.resolve(import.meta.dirname, "dispatch.html") },
      output: {
        // The console's entry chunk carries a name the courier's service worker leaves out of its precache.
        entryFileNames: (chunk) => (chunk.name === "dispatch" ? `assets/${CONSOLE_ENTRY_PREFIX}-[hash].js` : "assets/[name]-[hash].js"),
        // Its screens loaded on demand (src/console/*Route.tsx), what they share and their stylesheet: never in the courier's
        // precache. A chunk holding any module of src/console is the console's (the courier's app never imports it: eslint.config.js).
        // A console module already named dispatch-… (dispatch-map.tsx) keeps its name rather than becoming dispatch-dispatch-….
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.includes("/src/console/")) && !chunk.name.startsWith(`${CONSOLE_ASSET_PREFIX}-`) ? `assets/${CONSOLE_ASSET_PREFIX}-[name]-[hash].js` : "assets/[name]-[hash].js",
        // The courier's on-demand screens: one chunk each and one they share, not one per set of importers (scripts/build/feature-chunks.ts).
        codeSplitting: { groups: featureChunkGroups(import.meta.dirname, { courierEntry: "index.html", features: FEATURE_ROUTES, ignored: ["src/features/machines/MachinesRoute.tsx"] }) },
        assetFileNames: (asset) => (asset.names.some((name) => CONSOLE_STYLESHEETS.includes(name)) ? `assets/${CONSOLE_ASSET_PREFIX}-[name]-[hash][extname]` : "assets/[name]-[hash][extname]"),
      },
    },
  },
});
