import type { FastifyPluginAsync, FastifySchema } from "fastify";
import type { FastifyDynamicSwaggerOptions, SwaggerTransform, SwaggerTransformObject } from "@fastify/swagger";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { z } from "zod";
import { WEBHOOK_EVENT_TYPES, webhookDescription, webhookPayload, webhookSummary } from "../../domain/contract/webhook-payloads.ts";
import type { WebhookEventType } from "../../domain/webhook-events.ts";
import { OPERATION_TAGS, OPERATIONS, operationKey } from "./openapi-operations.ts";

export const openApiRoutes: FastifyPluginAsync = async (app) => {
  app.get("/api/openapi.json", { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
};

/**
 * Each route's schema as fastify-type-provider-zod renders it, named from the
 * table (openapi-operations.ts): operationId, a short summary and a tag; the
 * route's own longer summary becomes the description. A public route (no key,
 * no cookie) says so with an empty security list.
 */
const transform: SwaggerTransform = (input) => {
  const rendered = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]);
  const method = Array.isArray(input.route.method) ? input.route.method[0]! : input.route.method;
  const name = OPERATIONS[operationKey(method, input.url)];
  if (!name) return rendered; // tests/api/openapi-document.test.ts names the route that needs an entry
  const schema = rendered.schema as FastifySchema & { summary?: string; description?: string; security?: unknown; operationId?: string };
  const longer = [schema.summary, schema.description].filter((text) => text && text !== name.summary).join("\n\n");
  const isPublic = (input.route.config as { public?: boolean } | undefined)?.public === true;
  return {
    url: rendered.url,
    schema: {
      ...schema,
      operationId: name.operationId,
      summary: name.summary,
      tags: [name.tag],
      ...(longer ? { description: longer } : {}),
      ...(isPublic && schema.security === undefined ? { security: [] } : {}),
    },
  };
};

/**
 * A union with one usable branch (the other one a transform JSON Schema cannot
 * state) is written as that branch: `anyOf` of one schema says nothing more,
 * and linters and generators flag it.
 */
function collapseLoneAnyOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(collapseLoneAnyOf);
  if (node === null || typeof node !== "object") return node;
  const entries = Object.entries(node).map(([key, value]) => [key, collapseLoneAnyOf(value)] as const);
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  const anyOf = object.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 1 && typeof anyOf[0] === "object") {
    const { anyOf: _single, ...rest } = object;
    return { ...(anyOf[0] as object), ...rest };
  }
  return object;
}

const transformObject: SwaggerTransformObject = (document) => collapseLoneAnyOf(jsonSchemaTransformObject(document)) as ReturnType<SwaggerTransformObject>;

/** The webhook events, one per WEBHOOK_EVENT_TYPES entry: what is POSTed to a subscription's URL, signed (Standard Webhooks). */
/** The document's webhooks section, in @fastify/swagger's OpenAPI types. */
type Webhooks = NonNullable<Extract<NonNullable<FastifyDynamicSwaggerOptions["openapi"]>, { webhooks?: unknown }>["webhooks"]>;

function webhooks(): Record<string, unknown> {
  const header = (name: string, description: string) => ({ name, in: "header", required: true, description, schema: { type: "string" } });
  const entries = WEBHOOK_EVENT_TYPES.map((type: WebhookEventType) => {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(webhookPayload(type), { target: "draft-2020-12", io: "output" });
    return [
      type,
      {
        post: {
          operationId: `on${type.split(/[._]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("")}`,
          summary: webhookSummary(type),
          description: `${webhookDescription(type)} Sent to every subscription that names \`${type}\`; verify the signature before reading the body (docs/operations.md "Webhooks").`,
          tags: ["webhook events"],
          security: [],
          parameters: [
            header("webhook-id", "The delivery's id: the same on every attempt; dedupe on it."),
            header("webhook-timestamp", "Unix seconds of this attempt."),
            header("webhook-signature", "v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`> with the subscription's secret."),
          ],
          requestBody: { required: true, content: { "application/json": { schema } } },
          responses: {
            "200": { description: "Received (any 2xx): the delivery is done." },
            "400": { description: "Any other status, or no answer within 10 s: the delivery is retried on the schedule." },
          },
        },
      },
    ] as const;
  });
  return Object.fromEntries(entries);
}

/** @fastify/swagger's options: the document served at /api/openapi.json (OpenAPI 3.1). */
export function openApiOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Rx Courier API",
        version: "1",
        description:
          "The courier app's API (session cookie and CSRF token; send Accept: application/vnd.rxcourier.v1+json) " +
          "and the operations API under /api/ops/v1 (Authorization: Bearer <key>; docs/operations.md).",
      },
      // Paths already start with /api: the server is the document's own origin.
      servers: [{ url: "/" }],
      tags: [
        ...Object.entries(OPERATION_TAGS).map(([name, description]) => ({ name, description })),
        { name: "webhook events", description: "What the operations API POSTs to a webhook subscription's URL." },
      ],
      components: {
        securitySchemes: {
          session: { type: "apiKey", in: "cookie", name: "rxc_session" },
          csrf: { type: "apiKey", in: "header", name: "X-CSRF-Token" },
          opsKey: { type: "http", scheme: "bearer", description: "An operations API key: OPS_API_KEY or one made with POST /api/ops/v1/keys." },
          staffSession: { type: "apiKey", in: "cookie", name: "rxc_staff_session", description: "A dispatcher's or pharmacist's console session (POST /api/ops/v1/sessions), with its X-CSRF-Token on every change." },
        },
      },
      security: [{ session: [], csrf: [] }],
      // zod's JSON Schema (draft 2020-12) is OpenAPI 3.1's schema dialect; the two libraries only type it differently.
      webhooks: webhooks() as Webhooks,
    },
    transform,
    transformObject,
  };
}
