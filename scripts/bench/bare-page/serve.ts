/**
 * Serves the built bare page (scripts/bench/lib/bare-page.ts) as the app is
 * served: Fastify and @fastify/static with the build's brotli copies, the
 * hashed assets cached as immutable, the page itself revalidated, and the
 * app's security headers from the app's own code. Among them,
 * Cross-Origin-Opener-Policy makes Chromium start a renderer process of its
 * own for the page when Lighthouse navigates to it from about:blank; without
 * it the bare page reused the blank tab's running one, and the app alone paid
 * a process start (a new V8 isolate and its contexts) in every measured load
 * (decision 0041).
 * Run in a process of its own by the bench: PORT, WEB_ROOT.
 */
import fastifyStatic from "@fastify/static";
import Fastify from "fastify";
import { installSecurityHeaders } from "../../../server/http/security-headers.ts";

const root = process.env.WEB_ROOT;
if (!root) throw new Error("WEB_ROOT is required");
const app = Fastify({ logger: false });
// No Braintree and no inline script: the page's one script is its own module.
await installSecurityHeaders(app, { braintree: false, inlineScripts: [] });
await app.register(fastifyStatic, {
  root,
  preCompressed: true,
  index: ["index.html"],
  setHeaders(reply, file) {
    reply.header("cache-control", file.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
  },
});
// One catch-all route, as the page's router: any path is the page.
app.setNotFoundHandler((_request, reply) => reply.header("cache-control", "no-cache").sendFile("index.html"));
await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT) });
process.send?.("ready");
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
