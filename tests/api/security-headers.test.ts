import { expect, it } from "vitest";
import { describeApi } from "../support/api-harness.ts";

describeApi("security headers", (api) => {
  it("sends a strict Content-Security-Policy without Braintree hosts when Braintree is not configured", async () => {
    const response = await api().anonymous("GET", "/api/health");
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("braintree");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
  });

  it("never lets a cache keep an API answer, and opens no CORS", async () => {
    const client = await api().login();
    const response = await client.get("/api/courier/itinerary", { headers: { origin: "https://evil.example" } });
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
