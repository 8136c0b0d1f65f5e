import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES, webhookPayload } from "../../domain/contract/webhook-payloads.ts";
import type { WebhookEventType } from "../../domain/webhook-events.ts";
import { webhookMessages } from "../../server/db/schema.ts";
import { OPERATIONS } from "../../server/routes/openapi-operations.ts";
import { describeOps, orderBody } from "../support/ops-harness.ts";

/**
 * Issue 25 "An API document client generators accept": /api/openapi.json
 * names every operation (operationId, summary, tag), states the webhook
 * payloads and its server, passes Redocly's recommended rules (redocly.yaml)
 * with no error or warning, and a TypeScript client generated from it with
 * openapi-typescript typechecks against a script that creates an order.
 */

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);

type Operation = { operationId?: string; summary?: string; tags?: string[] };
type Document = {
  servers?: unknown;
  tags?: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, { post?: Operation & { requestBody?: { content: Record<string, { schema: unknown }> } } }>;
};

const operationsOf = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([route, methods]) => Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${route}`, op] as const));

describeOps(
  "the OpenAPI document",
  (ctx) => {
    const load = async () => (await ctx().raw("GET", "/api/openapi.json")).json() as Document;

    it("gives every operation a stable camelCase operationId, a summary and a declared tag; the table has no entry without its route", async () => {
      const doc = await load();
      const operations = operationsOf(doc);
      const declaredTags = new Set((doc.tags ?? []).map((tag) => tag.name));
      const unnamed = operations.filter(([, op]) => !op.operationId).map(([name]) => name);
      expect(unnamed, "routes missing from server/routes/openapi-operations.ts").toEqual([]);
      for (const [name, op] of operations) {
        expect(op.operationId, name).toMatch(/^[a-z][a-zA-Z0-9]*$/);
        expect(op.summary?.trim(), name).toBeTruthy();
        expect(op.tags?.length, name).toBe(1);
        expect(declaredTags.has(op.tags![0]!), `${name}: tag ${op.tags![0]} is declared`).toBe(true);
      }
      const ids = operations.map(([, op]) => op.operationId);
      expect(new Set(ids).size).toBe(ids.length);
      // A published operationId is a client's method name: a few spelled out so a rename fails here.
      expect(doc.paths["/api/ops/v1/orders"]!.post!.operationId).toBe("createOrder");
      expect(doc.paths["/api/ops/v1/keys"]!.get!.operationId).toBe("listApiKeys");
      expect(doc.paths["/api/ops/v1/orders/batch"]!.post!.operationId).toBe("createOrderBatch");
      expect(Object.keys(OPERATIONS).filter((key) => !operations.some(([name]) => name === key))).toEqual([]);
    });

    it("has servers [{url: '/'}] and a webhooks section with every event's payload, which the events actually sent match", async () => {
      const doc = await load();
      expect(doc.servers).toEqual([{ url: "/" }]);
      expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
      for (const type of WEBHOOK_EVENT_TYPES) {
        const post = doc.webhooks![type]!.post!;
        expect(post.operationId, type).toMatch(/^on[A-Z][a-zA-Z]*$/);
        expect(post.summary, type).toBeTruthy();
        const schema = post.requestBody!.content["application/json"]!.schema as { properties: Record<string, { const?: string; properties?: object }> };
        expect(schema.properties.type!.const).toBe(type);
        expect(Object.keys(schema.properties.data!.properties ?? {}), type).toEqual(type === "order.rescheduled" ? ["order", "from", "to"] : [type.startsWith("order.") ? "order" : "visit"]);
      }
      expect(doc.webhooks!["order.created"]!.post!.requestBody!.content["application/json"]!.schema).toMatchObject({
        properties: { data: { properties: { order: { required: expect.arrayContaining(["id", "external_id", "status", "updated_at"]) } } } },
      });
      // An event whose data is more than the order is documented as sent: order.rescheduled names the days.
      expect(doc.webhooks!["order.rescheduled"]!.post!.requestBody!.content["application/json"]!.schema).toMatchObject({
        properties: { data: { required: expect.arrayContaining(["order", "from", "to"]) } },
      });

      // An order.created the server really queued has the documented shape.
      const subscribed = await ctx().ops("POST", "/api/ops/v1/webhooks", { url: "http://127.0.0.1:9/openapi-hook", events: ["order.created"] });
      expect(subscribed.statusCode, subscribed.body).toBe(201);
      const created = await ctx().ops("POST", "/api/ops/v1/orders", orderBody(1, "OPENAPI-WEBHOOK-1"));
      expect(created.statusCode, created.body).toBe(201);
      const bodies = await ctx().database.db.select({ type: webhookMessages.eventType, body: webhookMessages.body }).from(webhookMessages);
      expect(bodies.length).toBeGreaterThan(0);
      for (const message of bodies) webhookPayload(message.type as WebhookEventType).strict().parse(JSON.parse(message.body));
    });

    it("documents who moved an order, by name, in its status history (acted_by beside the actor string)", async () => {
      const doc = await load();
      const detail = doc.paths["/api/ops/v1/orders/{id}"]!.get as unknown as { responses: Record<string, { content: Record<string, { schema: unknown }> }> };
      const change = (detail.responses["200"]!.content["application/json"]!.schema as { properties: { order: { properties: { status_history: { items: unknown } } } } }).properties.order.properties.status_history.items;
      expect(change).toMatchObject({
        required: expect.arrayContaining(["actor", "acted_by"]),
        properties: { actor: {}, acted_by: { description: expect.stringContaining("chain of custody") } },
      });
      expect(JSON.stringify((change as { properties: { acted_by: unknown } }).properties.acted_by)).toContain('"name"');
    });

    it("passes Redocly's recommended rules with no error and no warning (redocly.yaml)", async () => {
      const dir = await mkdtemp(path.join(tmpdir(), "rxc-openapi-"));
      try {
        const file = path.join(dir, "openapi.json");
        await writeFile(file, JSON.stringify(await load()));
        const run = await exec(bin("redocly"), ["lint", file, "--config", path.join(ROOT, "redocly.yaml"), "--format", "json"], {
          cwd: dir,
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
        const report = JSON.parse(run.stdout) as { problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
        const problems = report.problems.map((problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`);
        expect(problems).toEqual([]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it("generates a TypeScript client (openapi-typescript) that typechecks against a script creating an order", async () => {
      const dir = await mkdtemp(path.join(tmpdir(), "rxc-client-"));
      try {
        const types = astToString(await openapiTS(JSON.stringify(await load())));
        // A source file, not a .d.ts: checked in full while the platform's own libraries are skipped.
        await writeFile(path.join(dir, "api.ts"), types);
        await writeFile(path.join(dir, "create-order.ts"), CLIENT_SCRIPT);
        await writeFile(
          path.join(dir, "tsconfig.json"),
          JSON.stringify({
            compilerOptions: {
              strict: true,
              noEmit: true,
              target: "ES2022",
              module: "ESNext",
              moduleResolution: "Bundler",
              lib: ["ES2022", "DOM"],
              types: [],
              skipLibCheck: true,
            },
            files: ["create-order.ts", "api.ts"],
          }),
        );
        const run = await exec(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir]).catch(
          (error: { stdout: string }) => ({ stdout: error.stdout }),
        );
        expect(run.stdout).toBe("");
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  },
  { WEBHOOK_ALLOW_PRIVATE: "true" },
);

/** What an integrator writes with the generated types; the @ts-expect-error lines prove the types are not `any`. */
const CLIENT_SCRIPT = `
import type { operations, paths, webhooks } from "./api";

type CreateOrder = operations["createOrder"];
type OrderInput = CreateOrder["requestBody"]["content"]["application/json"];
type Created = paths["/api/ops/v1/orders"]["post"]["responses"][201]["content"]["application/json"];
type Refusal = CreateOrder["responses"][400]["content"]["application/json"];

async function createOrder(baseUrl: string, key: string, order: OrderInput): Promise<Created> {
  const response = await fetch(new URL("/api/ops/v1/orders", baseUrl), {
    method: "POST",
    headers: { authorization: "Bearer " + key, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(order),
  });
  if (response.status >= 400) {
    const refusal = (await response.json()) as Refusal;
    throw new Error(refusal.message);
  }
  return (await response.json()) as Created;
}

export async function main(): Promise<number> {
  const { order } = await createOrder("http://localhost:3000", "key", {
    pharmacy_id: 1,
    external_id: "RX-PO-0042",
    patient_first_name: "Ada",
    patient_last_name: "Lovelace",
    phone_number: "2155550123",
    address: { street_address: "5 Elfreth's Alley", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19106" },
    rx_numbers: ["RX-1"],
    copay: "12.50",
  });
  const status: string = order.status.name;
  // @ts-expect-error phone_number is required
  const missing: OrderInput = { pharmacy_id: 1, external_id: "x", patient_first_name: "A", patient_last_name: "B", address: order.address, rx_numbers: [] };
  // @ts-expect-error a state is one of the abbreviations
  const wrongState: OrderInput["address"]["state_abbreviation"] = "Pennsylvania";
  const delivered: webhooks["order.delivered"]["post"]["requestBody"]["content"]["application/json"]["data"]["order"]["status"] = "delivered";
  void [status, missing, wrongState, delivered];
  return order.id;
}
`;
