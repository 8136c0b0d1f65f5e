import { describe, expect, it } from "vitest";
import { acceptsThisVersion, notAcceptableMessage } from "../../server/http/accept.ts";

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

describe("the 406's words (issue 25)", () => {
  it("names the media type to send to an integrator, and tells an old app to update", () => {
    expect(notAcceptableMessage("text/html", "/api/ops/v1/orders")).toBe("This API answers in JSON: send Accept: application/json (or */*, or no Accept).");
    expect(notAcceptableMessage("text/html,application/xhtml+xml", "/api/courier/itinerary")).toContain("application/json");
    expect(notAcceptableMessage("text/html", "/api/ops/v1/orders/7/proof.pdf")).toBe("This address serves application/pdf: send it in Accept, or */*, or no Accept.");
    expect(notAcceptableMessage("application/vnd.rxcourier.v2+json", "/api/courier/itinerary")).toMatch(/v1\+json; update the app/);
  });

  it("lets the drop-off photo be asked for by an image type", () => {
    expect(acceptsThisVersion("image/jpeg", "/api/ops/v1/orders/7/proof/photo")).toBe(true);
    expect(acceptsThisVersion("image/*", "/api/ops/v1/orders/7/proof/photo")).toBe(true);
    expect(acceptsThisVersion("image/jpeg", "/api/ops/v1/orders/7/proof")).toBe(false);
  });
});
