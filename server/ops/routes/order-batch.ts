import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { OPS_API_PREFIX, OrderBatchRequest, OrderBatchResponse } from "../../../domain/contract/ops.ts";
import type { Db } from "../../db/client.ts";
import { validatorCompiler } from "../../http/validator.ts";
import { auditActor, opsCaller, pharmacyScope } from "../auth.ts";
import { CheckedBatch, type BatchCheckPool } from "../services/batch-check/pool.ts";
import { checkBatchInSlices, createOrderBatch } from "../services/order-batch.ts";
import { OPS_TAG, opsRefusals, opsSecurity } from "./shared.ts";

/** A batch of 1000 orders is about 1 MB of JSON; the rest of the API keeps its 256 KB limit. */
const BATCH_BODY_LIMIT = 2 * 1024 * 1024;

/**
 * POST orders/batch in a plugin of its own: its JSON body is read by the batch
 * check's worker thread (services/batch-check/pool.ts) through a content-type
 * parser of this route's context only. What the worker does not read (a small
 * or malformed body, the worker not running) goes to Fastify's own JSON parser
 * and the route's zod check, and its rows are checked here in slices: the
 * same answers and errors either way.
 */
export const opsOrderBatchRoutes =
  (deps: { db: Db; today: () => string; batchCheck: BatchCheckPool }): FastifyPluginAsyncZod =>
  async (app) => {
    const jsonParser = app.getDefaultJsonParser("error", "error");
    const parseOnThread = (request: FastifyRequest, text: string) =>
      new Promise<unknown>((resolve, reject) => jsonParser(request, text, (error, value) => (error ? reject(error) : resolve(value))));
    app.removeContentTypeParser("application/json");
    app.addContentTypeParser("application/json", { parseAs: "string" }, async (request: FastifyRequest, text: string) => {
      return (await deps.batchCheck.check(text, deps.today())) ?? parseOnThread(request, text);
    });

    app.post(
      `${OPS_API_PREFIX}/orders/batch`,
      {
        bodyLimit: BATCH_BODY_LIMIT,
        // Building its rows gives way to other calls (server/http/interactive-first.ts).
        config: { background: true },
        // A body the worker checked has passed the envelope's check there; any other body gets the route's zod check.
        validatorCompiler: (route) => {
          // Fastify hands the body's schema here (the route's schema type is the whole schema object).
          const validate = validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]);
          return route.httpPart === "body" ? (data: unknown) => (data instanceof CheckedBatch ? { value: data } : validate(data)) : validate;
        },
        schema: {
          summary: "Create up to 1000 orders, each row on its own: created, unchanged or rejected with its errors",
          description:
            "The rows that pass are written a hundred to a transaction, each whole (order, audit row, event) or not at all. " +
            "A 500 mid-batch keeps the rows already committed: send the same batch again; those rows answer `unchanged` and the rest are written once.",
          tags: [OPS_TAG],
          security: opsSecurity,
          body: OrderBatchRequest,
          response: { 200: OrderBatchResponse, ...opsRefusals },
        },
      },
      async (request, reply) => {
        const caller = opsCaller(request);
        const body: OrderBatchRequest | CheckedBatch = request.body;
        const batch = body instanceof CheckedBatch ? body : await checkBatchInSlices(body.orders, deps.today());
        const results = await createOrderBatch(deps.db, auditActor(caller), batch.rows, {
          today: batch.today,
          scope: pharmacyScope(caller),
          // How long the batch's longest transaction took, for the integrator and the bench (issue 25: ≤ 500 ms).
          onTransaction: (ms) => void reply.header("server-timing", `transaction;dur=${ms.toFixed(1)}`),
        });
        // Written as it is rather than through the route's zod serializer (a check of 1000 results built here, to the
        // contract's types): the same bytes (tests/api/order-batch-worker.test.ts), without ~5 ms on the couriers' thread.
        return reply.type("application/json; charset=utf-8").serializer(JSON.stringify).send({ results });
      },
    );
  };
