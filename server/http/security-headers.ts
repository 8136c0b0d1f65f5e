import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import type { IncomingMessage } from "node:http";
import { isConsolePath } from "./map-tiles.ts";

/**
 * Braintree's hosted fields load a client script and iframes from Braintree
 * and call its API from the browser; nothing else leaves our origin. Those
 * hosts are allowed only when Braintree is configured (docs/payments.md).
 */
const BRAINTREE = {
  script: ["https://js.braintreegateway.com", "https://assets.braintreegateway.com"],
  frame: ["https://assets.braintreegateway.com"],
  connect: ["https://api.braintreegateway.com", "https://client-analytics.braintreegateway.com", "https://*.braintree-api.com"],
};

export async function installSecurityHeaders(
  app: FastifyInstance,
  options: {
    braintree: boolean;
    /** 'sha256-…' sources of the web app page's inline scripts (server/http/inline-scripts.ts). */ inlineScripts: readonly string[];
    /** The map tile server's origin (MAP_TILE_URL), allowed as an image source on the console's pages only. */
    mapTileOrigin?: string | null;
  },
): Promise<void> {
  const bt = options.braintree;
  const tiles = options.mapTileOrigin;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval': compiling WebAssembly, for the label scanner's decoder (zxing-wasm, our own
        // /assets/*.wasm); it allows no JavaScript eval. No worker or blob: source: the decoder runs on the page.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...options.inlineScripts, ...(bt ? BRAINTREE.script : [])],
        // Inline styles: React's style prop, and the stylesheet inside index.html (vite.config.ts). Inline scripts only by hash.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:", ...(tiles ? [(request: IncomingMessage) => (isConsolePath(request.url) ? tiles : "")] : [])],
        connectSrc: ["'self'", ...(bt ? BRAINTREE.connect : [])],
        frameSrc: bt ? BRAINTREE.frame : ["'none'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    permittedCrossDomainPolicies: false,
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: "no-referrer" },
  });
  app.addHook("onSend", async (request, reply) => {
    // Geolocation for delivery and return locations; the camera for scanning bag labels (our own pages only,
    // never a frame); no microphone.
    reply.header("Permissions-Policy", "geolocation=(self), camera=(self), microphone=(), payment=(self)");
    // Patient data must not linger in shared caches or the back/forward cache of a lost phone.
    if (request.url.startsWith("/api/")) reply.header("Cache-Control", "no-store");
  });
}
