import { expect, it } from "vitest";
import { describeApi } from "../support/api-harness.ts";

describeApi("security headers", (api) => {
  it("sends a strict Content-Security-Policy without Braintree hosts when Braintree is not configured", async () => {
    const response = await api().anonymous("GET", "/api/health");
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    // WebAssembly may be compiled (the label scanner's decoder); JavaScript eval may not.
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).not.toMatch(/(script|worker)-src[^;]*blob:/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("braintree");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
  });

  it("lets our own pages use the camera (scanning bag labels) and geolocation, nothing else", async () => {
    const response = await api().anonymous("GET", "/api/health");
    expect(response.headers["permissions-policy"]).toBe("geolocation=(self), camera=(self), microphone=(), payment=(self)");
  });

  it("never lets a cache keep an API answer, and opens no CORS", async () => {
    const client = await api().login();
    const response = await client.get("/api/courier/itinerary", { headers: { origin: "https://evil.example" } });
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
