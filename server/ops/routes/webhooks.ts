import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { OPS_API_PREFIX, OpsIdParams } from "../../../domain/contract/ops.ts";
import {
  WebhookCreateRequest,
  WebhookCreateResponse,
  WebhookDeliveriesQuery,
  WebhookDeliveriesResponse,
  WebhookDeliveryParams,
  WebhookListResponse,
  WebhookRedeliverResponse,
  OrderWebhookDeliveriesResponse,
} from "../../../domain/contract/ops-webhooks.ts";
import type { Db } from "../../db/client.ts";
import type { Resolver } from "../../services/webhooks/url-policy.ts";
import {
  createSubscription,
  deleteSubscription,
  listDeliveries,
  listOrderDeliveries,
  listSubscriptions,
  redeliver,
  type WebhookScope,
} from "../services/webhook-subscriptions.ts";
import { opsCaller, pharmacyScope } from "../auth.ts";
import { OPS_TAG, opsRefusals, opsSecurity } from "./shared.ts";

/** Webhook subscriptions and their deliveries (docs/operations.md "Webhooks"). */
export const opsWebhookRoutes =
  (deps: { db: Db; allowPrivate: boolean; resolve?: Resolver }): FastifyPluginAsyncZod =>
  async (app) => {
    const scopeOf = (request: Parameters<typeof opsCaller>[0]): WebhookScope => {
      const caller = opsCaller(request);
      return { keyId: caller.keyId, pharmacyId: pharmacyScope(caller) };
    };

    app.post(
      `${OPS_API_PREFIX}/webhooks`,
      {
        schema: {
          summary: "Subscribe a URL to events; the signing secret is in the answer, once.",
          tags: [OPS_TAG],
          security: opsSecurity,
          body: WebhookCreateRequest,
          response: { 201: WebhookCreateResponse, ...opsRefusals },
        },
      },
      async (request, reply) => reply.status(201).send(await createSubscription(deps.db, scopeOf(request), request.body, deps.allowPrivate, deps.resolve)),
    );

    app.get(
      `${OPS_API_PREFIX}/webhooks`,
      {
        schema: { summary: "The key's webhook subscriptions.", tags: [OPS_TAG], security: opsSecurity, response: { 200: WebhookListResponse, ...opsRefusals } },
      },
      async (request) => ({ webhooks: await listSubscriptions(deps.db, scopeOf(request)) }),
    );

    app.delete(
      `${OPS_API_PREFIX}/webhooks/:id`,
      {
        schema: {
          summary: "Unsubscribe; undelivered events to it are dropped.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          response: { 204: z.null().describe("Deleted"), ...opsRefusals },
        },
      },
      async (request, reply) => {
        await deleteSubscription(deps.db, scopeOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      `${OPS_API_PREFIX}/webhooks/:id/deliveries`,
      {
        schema: {
          summary: "The subscription's deliveries, newest first, each with its attempts (status code, time, error).",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          querystring: WebhookDeliveriesQuery,
          response: { 200: WebhookDeliveriesResponse, ...opsRefusals },
        },
      },
      async (request) => ({ deliveries: await listDeliveries(deps.db, scopeOf(request), request.params.id, request.query) }),
    );

    app.get(
      `${OPS_API_PREFIX}/orders/:id/webhook-deliveries`,
      {
        schema: {
          summary: "The webhooks sent about an order, oldest first: each delivery with its subscription's URL and attempts (a pharmacy's caller: its own subscriptions').",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          response: { 200: OrderWebhookDeliveriesResponse, ...opsRefusals },
        },
      },
      async (request) => ({ deliveries: await listOrderDeliveries(deps.db, scopeOf(request), request.params.id) }),
    );

    app.post(
      `${OPS_API_PREFIX}/webhooks/:id/deliveries/:deliveryId/redeliver`,
      {
        schema: {
          summary: "Send a delivery again now, with the same webhook-id.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: WebhookDeliveryParams,
          response: { 202: WebhookRedeliverResponse, ...opsRefusals },
        },
      },
      async (request, reply) =>
        reply.status(202).send({ delivery: await redeliver(deps.db, scopeOf(request), request.params.id, request.params.deliveryId) }),
    );
  };
