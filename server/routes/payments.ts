import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ErrorBody, IdParams } from "../../domain/contract/common.ts";
import {
  AuthorizeRequest,
  AuthorizeResponse,
  ClientTokenResponse,
  SandboxTokenizeRequest,
  SaveChargeDataRequest,
  SaveChargeDataResponse,
  TokenizeResponse,
} from "../../domain/contract/payments.ts";
import { TEXT } from "../../domain/texts.ts";
import { currentSession } from "../auth/plugin.ts";
import type { Db } from "../db/client.ts";
import { HttpError } from "../http/errors.ts";
import { IDEMPOTENCY_KEY_HEADER } from "../http/idempotency.ts";
import { GatewayUnavailableError, type PaymentGateway } from "../payments/gateway.ts";
import { isSandboxGateway } from "../payments/index.ts";
import { authorizeCardPayment, saveChargeData } from "../services/payments.ts";

export const paymentRoutes =
  (deps: { db: Db; gateway: PaymentGateway }): FastifyPluginAsyncZod =>
  async (app) => {
    const { gateway } = deps;

    app.get(
      "/api/courier/payments/client_token",
      {
        schema: {
          summary: "A client token for the card fields, and which gateway issued it",
          tags: ["payments"],
          response: { 200: ClientTokenResponse, 401: ErrorBody, 503: ErrorBody },
        },
      },
      async (request, reply) => {
        // A token authorizes card tokenization: never let a cache hand one to someone else.
        reply.header("cache-control", "no-store");
        try {
          return { client_token: await gateway.clientToken(), gateway: gateway.name };
        } catch (error) {
          if (error instanceof GatewayUnavailableError) {
            request.log.warn({ err: error }, "client token unavailable");
            throw new HttpError(503, "processor_unavailable", TEXT.processorUnavailable);
          }
          throw error;
        }
      },
    );

    if (isSandboxGateway(gateway)) {
      app.post(
        "/api/payments/sandbox/tokenize",
        {
          // Runs before the Idempotency-Key hook: a stored fingerprint of this body would be a hash of card data.
          onRequest: async (request) => {
            delete request.headers[IDEMPOTENCY_KEY_HEADER];
          },
          schema: {
            summary: "Local sandbox only: card data in, a single-use nonce out (nothing is stored)",
            tags: ["payments"],
            body: SandboxTokenizeRequest,
            response: { 200: TokenizeResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
          },
        },
        async (request, reply) => {
          reply.header("cache-control", "no-store");
          const outcome = gateway.tokenize({
            number: request.body.number,
            cvv: request.body.cvv,
            expirationDate: request.body.expiration_date,
          });
          if (!outcome.ok) throw new HttpError(400, "card_invalid", outcome.message);
          return { nonce: outcome.nonce, details: { card_type: outcome.details.cardType, last_four: outcome.details.lastFour } };
        },
      );
    }

    app.put(
      "/api/courier/orders/:id/authorize",
      {
        schema: {
          summary: "Authorize the card payment for an order out for delivery (once per order)",
          description:
            "403 card_declined: the processor or gateway refused the card. 503 processor_unavailable: try again. " +
            "A retry or double submission returns the first authorization's transaction_id; 409 payment_in_progress while the first attempt is still with the gateway.",
          tags: ["payments"],
          params: IdParams,
          body: AuthorizeRequest,
          response: { 200: AuthorizeResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 503: ErrorBody },
        },
      },
      async (request) =>
        authorizeCardPayment(
          { db: deps.db, gateway, log: request.log },
          currentSession(request).courier.id,
          request.params.id,
          request.body.delivery.order_payment,
        ),
    );

    app.put(
      "/api/courier/orders/:id",
      {
        schema: {
          summary: "Save the delivery's charge data with the order",
          tags: ["payments"],
          params: IdParams,
          body: SaveChargeDataRequest,
          response: { 200: SaveChargeDataResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (request) => ({
        order: await saveChargeData(deps.db, currentSession(request).courier.id, request.params.id, request.body.delivery.charge_data),
      }),
    );
  };
