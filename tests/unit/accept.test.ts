import { describe, expect, it } from "vitest";
import { acceptsThisVersion } from "../../server/http/accept.ts";

describe("the Accept check", () => {
  it("serves JSON, the current vendor version, anything, and no Accept at all", () => {
    for (const accept of [undefined, "*/*", "application/json", "application/vnd.rxcourier+json", "application/vnd.rxcourier.v1+json"]) {
      expect(acceptsThisVersion(accept, "/api/courier/itinerary"), String(accept)).toBe(true);
    }
  });

  it("refuses another version and types the API does not serve", () => {
    expect(acceptsThisVersion("application/vnd.rxcourier.v99+json", "/api/courier/itinerary")).toBe(false);
    expect(acceptsThisVersion("text/html", "/api/courier/itinerary")).toBe(false);
    expect(acceptsThisVersion("application/pdf", "/api/courier/itinerary")).toBe(false);
  });

  it("lets a document be asked for by its own type alone", () => {
    expect(acceptsThisVersion("application/pdf", "/api/ops/v1/orders/7/proof.pdf")).toBe(true);
    expect(acceptsThisVersion("application/pdf", "/api/ops/v1/returns/3.pdf")).toBe(true);
    expect(acceptsThisVersion("image/svg+xml", "/api/ops/v1/orders/7/proof/signature.svg")).toBe(true);
    expect(acceptsThisVersion("image/*", "/api/ops/v1/returns/3/signature.svg")).toBe(true);
    expect(acceptsThisVersion("image/svg+xml", "/api/ops/v1/orders/7/proof.pdf")).toBe(false);
    expect(acceptsThisVersion("application/pdf", "/api/ops/v1/orders/7/proof")).toBe(false);
  });
});
