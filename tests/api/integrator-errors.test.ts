import { expect, it } from "vitest";
import { NAME_MAX_LENGTH } from "../../domain/recipient.ts";
import { describeOps, orderBody } from "../support/ops-harness.ts";

/**
 * Issue 25: refusals an integrator can act on. zod's own messages become
 * sentences naming the field; a text/plain body is 415 like any other type
 * the API does not read; a 406 names the media type to send (an old app is
 * still told to update); names are capped at 32 (spec §9) in the validation
 * and in the OpenAPI document alike (issue 24 §7).
 */

describeOps("refusals in an integrator's words", (ctx) => {
  const create = (overrides: Record<string, unknown>, remove: string[] = []) => {
    const body: Record<string, unknown> = orderBody(1, `WORDS-${Math.random().toString(36).slice(2)}`, overrides);
    for (const field of remove) delete body[field];
    return ctx().ops("POST", "/api/ops/v1/orders", body);
  };

  it("says 'phone_number is required' for a missing field, and names the field for a wrong type, a long text and an unknown value", async () => {
    const missing = await create({}, ["phone_number"]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: "invalid_request", message: "phone_number is required.", details: [{ path: "body.phone_number", message: "is required" }] });

    const cases: [Record<string, unknown>, string][] = [
      [{ phone_number: 2155550123 }, "phone_number must be text."],
      [{ rx_numbers: "RX-1" }, "rx_numbers must be a list."],
      [{ pid_order: "yes" }, "pid_order must be true or false."],
      [{ patient_first_name: "A".repeat(NAME_MAX_LENGTH + 1) }, `patient_first_name must be at most ${NAME_MAX_LENGTH} characters.`],
      [{ address: { ...orderBody(1, "x").address, zipcode: undefined } }, "address.zipcode is required."],
      [{ surprise: true }, 'The request body has an unknown field "surprise".'],
    ];
    for (const [overrides, message] of cases) {
      const response = await create(overrides);
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().message, JSON.stringify(overrides)).toBe(message);
    }
    const listed = await ctx().ops("GET", "/api/ops/v1/orders?status=lost");
    expect(listed.statusCode).toBe(400);
    expect(listed.json().message).toMatch(/^Query parameter status must be one of new, /);
    for (const response of [missing, listed]) expect(response.body).not.toMatch(/Invalid input|expected string|received undefined|Invalid option/);
  });

  it("words a batch row's refusals the same way", async () => {
    const { phone_number: _left, ...row } = orderBody(1, "WORDS-BATCH-1");
    const response = await ctx().ops("POST", "/api/ops/v1/orders/batch", { orders: [row] });
    expect(response.statusCode).toBe(200);
    expect(response.json().results[0]).toMatchObject({ status: "rejected", errors: [{ path: "phone_number", message: "is required" }] });
  });

  it("answers a text/plain body 415 like any other type it does not read", async () => {
    for (const type of ["text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded"]) {
      const response = await ctx().ops("POST", "/api/ops/v1/orders", JSON.stringify(orderBody(1, "WORDS-PLAIN")), undefined, { "content-type": type });
      expect(response.statusCode, type).toBe(415);
      expect(response.json()).toMatchObject({ error: "unsupported_media_type", message: "Send the request body as JSON." });
    }
    const courier = await ctx().raw("POST", "/api/client_errors", "{}", { "content-type": "text/plain" });
    expect(courier.statusCode).toBe(415);
  });

  it("names the media type to send on a 406; an app asking for another version is told to update", async () => {
    const html = await ctx().ops("GET", "/api/ops/v1/orders", undefined, undefined, { accept: "text/html" });
    expect(html.statusCode).toBe(406);
    expect(html.json().error).toBe("not_acceptable");
    expect(html.json().message).toContain("application/json");
    expect(html.json().message).not.toContain("update the app");

    const pdf = await ctx().ops("GET", "/api/ops/v1/orders/1/proof.pdf", undefined, undefined, { accept: "text/html" });
    expect(pdf.statusCode).toBe(406);
    expect(pdf.json().message).toContain("application/pdf");

    const oldApp = await ctx().raw("GET", "/api/sessions/current", undefined, { accept: "application/vnd.rxcourier.v2+json" });
    expect(oldApp.statusCode).toBe(406);
    expect(oldApp.json().message).toBe("This server speaks application/vnd.rxcourier.v1+json; update the app and try again.");
  });

  it(`refuses names over ${NAME_MAX_LENGTH} characters, and the OpenAPI document says maxLength ${NAME_MAX_LENGTH} for every first and last name`, async () => {
    for (const field of ["patient_first_name", "patient_last_name"]) {
      expect((await create({ [field]: "N".repeat(NAME_MAX_LENGTH) })).statusCode, field).toBe(201);
      const long = await create({ [field]: "N".repeat(NAME_MAX_LENGTH + 1) });
      expect(long.statusCode, field).toBe(400);
      expect(long.json().details).toEqual([{ path: `body.${field}`, message: `must be at most ${NAME_MAX_LENGTH} characters` }]);
    }
    const courier = await ctx().ops("POST", "/api/ops/v1/couriers", { email: "long.name@example.com", first_name: "C".repeat(NAME_MAX_LENGTH + 1), last_name: "Long" });
    expect(courier.statusCode).toBe(400);

    const doc = (await ctx().raw("GET", "/api/openapi.json")).json();
    const found: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== "object") return;
      for (const [key, value] of Object.entries(node)) {
        if (/(^|_)(first|last)_name$/.test(key) && value && typeof value === "object" && (value as { type?: string }).type === "string" && where.includes("requestBody")) {
          found.push(`${where}/${key}`);
          expect((value as { maxLength?: number }).maxLength, `${where}/${key}`).toBe(NAME_MAX_LENGTH);
        }
        walk(value, `${where}/${key}`);
      }
    };
    walk(doc.paths, "");
    const named = (suffix: string) => found.filter((where) => where.endsWith(suffix)).length;
    expect(named("/recipient_first_name")).toBeGreaterThanOrEqual(3); // deliveries (JSON, multipart) and returns
    expect(named("/recipient_last_name")).toBeGreaterThanOrEqual(3);
    expect(named("/patient_first_name")).toBeGreaterThanOrEqual(2);
    expect(named("/first_name")).toBeGreaterThanOrEqual(1); // a courier invited through the ops API
  });
});
