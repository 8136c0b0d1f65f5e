import { expect, it } from "vitest";
import { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { describeApi, sessionCookie } from "../support/api-harness.ts";

describeApi("sessions and the courier's day", (api) => {
  it("logs in with the demo courier and returns the courier with a CSRF token", async () => {
    const response = await api().anonymous("POST", "/api/sessions", { email: "courier@example.com", password: "deliver-safely" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.courier).toMatchObject({ first_name: "Dana", last_name: "Whitfield" });
    expect(body.csrf_token).toMatch(/^[\w-]{40,}$/);
    const cookie = response.cookies.find((c) => c.name === "rxc_session")!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe("Lax");
  });

  it("refuses a wrong password and an unknown email with the same 401", async () => {
    const wrong = await api().anonymous("POST", "/api/sessions", { email: "courier@example.com", password: "nope" });
    const unknown = await api().anonymous("POST", "/api/sessions", { email: "nobody@example.com", password: "deliver-safely" });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe("The email or password is incorrect.");
  });

  it("refuses a login body that is not an email and password with a 400 naming the field", async () => {
    const response = await api().anonymous("POST", "/api/sessions", { email: 12, password: "" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid_request" });
    expect(response.json().message).toContain("email");
  });

  it("answers malformed JSON with 400 and never a stack trace", async () => {
    const response = await api().anonymous("POST", "/api/sessions", "{not json");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: "malformed_json", message: "The request body is not valid JSON." });
  });

  it("GET /api/sessions/current returns the same body while logged in, 401 otherwise", async () => {
    const client = await api().login();
    const current = await client.get("/api/sessions/current");
    expect(current.statusCode).toBe(200);
    expect(current.json()).toEqual({ courier: { id: client.courierId, first_name: "Dana", last_name: "Whitfield" }, csrf_token: client.csrfToken });
    expect((await api().anonymous("GET", "/api/sessions/current")).statusCode).toBe(401);
  });

  it("rotates the session id at every login", async () => {
    const first = await api().login();
    const again = await api().app.inject({
      method: "POST",
      url: "/api/sessions",
      headers: { cookie: first.cookie, "content-type": "application/json" },
      payload: JSON.stringify({ email: "courier@example.com", password: "deliver-safely" }),
    });
    expect(sessionCookie(again)).not.toBe(first.cookie);
    expect((await first.get("/api/sessions/current")).statusCode).toBe(401);
  });

  it("logs out only with the CSRF token, and the session is then dead on the server", async () => {
    const client = await api().login();
    const withoutToken = await client.delete("/api/sessions/current", undefined, { csrf: false });
    expect(withoutToken.statusCode).toBe(403);
    expect(withoutToken.json().error).toBe("csrf");
    const out = await client.delete("/api/sessions/current");
    expect(out.statusCode).toBe(204);
    expect((await client.get("/api/sessions/current")).statusCode).toBe(401);
  });

  it("refuses an unknown API version with 406 and accepts v1, generic JSON and no Accept", async () => {
    const client = await api().login();
    const v2 = await client.get("/api/sessions/current", { headers: { accept: "application/vnd.rxcourier.v2+json" } });
    expect(v2.statusCode).toBe(406);
    expect(v2.json().error).toBe("not_acceptable");
    for (const accept of ["application/vnd.rxcourier.v1+json", "application/json", "*/*"]) {
      expect((await client.get("/api/sessions/current", { headers: { accept } })).statusCode).toBe(200);
    }
  });

  it("answers an unknown route with a JSON 404", async () => {
    const client = await api().login();
    const response = await client.get("/api/no/such/thing");
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe("not_found");
  });

  it("gives each demo courier a day of their own, matching the contract", async () => {
    const dana = await api().login();
    const marcus = await api().login("courier2@example.com");
    const danaDay = ItineraryResponse.parse((await dana.get("/api/courier/itinerary")).json());
    const marcusDay = ItineraryResponse.parse((await marcus.get("/api/courier/itinerary")).json());
    expect(danaDay.orders.length).toBeGreaterThanOrEqual(20);
    expect(new Set(danaDay.orders.map((o) => o.pharmacy.id)).size).toBeGreaterThanOrEqual(4);
    expect(marcusDay.orders.length).toBeGreaterThan(0);
    const danaIds = new Set(danaDay.orders.map((o) => o.id));
    expect(marcusDay.orders.some((o) => danaIds.has(o.id))).toBe(false);
    expect(danaDay.pharmacy_visits.some((v) => v.confirmed === null)).toBe(true);
    expect(danaDay.orders.every((o) => /^\d+\.\d{2}$/.test(o.other_items_amount_due))).toBe(true);
  });

  it("demo pharmacies cover every flag both ways and every recipient config", async () => {
    const day = ItineraryResponse.parse((await (await api().login()).get("/api/courier/itinerary")).json());
    const pharmacies = day.pharmacy_visits.map((v) => v.pharmacy);
    for (const flag of ["dob_verification_enabled", "routing_enabled", "can_skip_signature", "can_skip_copay_collection", "allow_pod_copay_collection"] as const) {
      expect(new Set(pharmacies.map((p) => p[flag]))).toEqual(new Set([true, false]));
    }
    expect(new Set(pharmacies.map((p) => p.pod_recipient_config))).toEqual(new Set(["covid19_contactless", "require_recipient", null]));
    for (const type of ["cash", "check", "card"] as const) {
      const allowed = pharmacies.map((p) => p.payment_methods.find((m) => m.type === type)!.allowed);
      expect(new Set(allowed)).toEqual(new Set([true, false]));
    }
  });

  it("serves an OpenAPI 3.1 document built from the route schemas", async () => {
    const response = await api().anonymous("GET", "/api/openapi.json");
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/api/sessions"].post).toBeDefined();
    expect(doc.paths["/api/courier/itinerary"].get.responses["200"]).toBeDefined();
  });
});
