import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";

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
        for (const file of walk(outDir).filter((name) => /\.(js|css|html|svg|webmanifest)$/.test(name))) {
          const content = readFileSync(file);
          if (content.length < 1024) continue;
          writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
          writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        }
      },
    },
  };
}
import { VitePWA } from "vite-plugin-pwa";

// The API runs on the same origin in production (server/app.ts serves dist/);
// in development Vite forwards /api to the server started with `npm run serve`.
export default defineConfig({
  plugins: [
    react(),
    // The app shell is precached so the app opens without network; the courier's
    // day lives in localforage, never in the service worker's caches (patient data).
    VitePWA({
      registerType: "autoUpdate",
      injectRegister: "script-defer",
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
        navigateFallback: "/index.html",
        navigateFallbackDenylist: [/^\/api\//],
        cleanupOutdatedCaches: true,
        // The first visit is already covered: a courier may lose signal right after logging in.
        clientsClaim: true,
        skipWaiting: true,
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
    }),
    precompress(),
  ],
  server: { proxy: { "/api": "http://127.0.0.1:3000" } },
  build: { target: "es2022", sourcemap: true },
});
