import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import type { Resolver } from "../../services/webhooks/url-policy.ts";
import { opsAssignmentRoutes } from "./assignments.ts";
import { opsCourierRoutes } from "./couriers.ts";
import { opsKeyRoutes } from "./keys.ts";
import { opsOrderRoutes } from "./orders.ts";
import { opsOrderBatchRoutes } from "./order-batch.ts";
import type { BatchCheckPool } from "../services/batch-check/pool.ts";
import { opsPharmacyRoutes } from "./pharmacies.ts";
import { opsPlanRoutes } from "./plans.ts";
import type { RoutingConfig } from "../../config.ts";
import { travelProviderFrom } from "../../services/routing/travel-matrix.ts";
import type { PaymentGateway } from "../../payments/gateway.ts";
import { opsProofRoutes } from "./proof.ts";
import type { RenderPool } from "../services/proof/render-pool.ts";
import { opsStaffRoutes } from "./staff.ts";
import { opsWebhookRoutes } from "./webhooks.ts";

export interface OpsRouteDeps {
  db: Db;
  /** The service's calendar day ("YYYY-MM-DD"): an order without a service_date is for today. */
  today: () => string;
  /** The process's payment gateway (the card's last 4 on a proof). */
  gateway: PaymentGateway;
  timeZone: string;
  /** WEBHOOK_ALLOW_PRIVATE: webhook URLs on private or loopback addresses are accepted. */
  webhookAllowPrivate: boolean;
  /** The host name lookup of the webhook URL check (tests); the system's otherwise. */
  webhookResolve?: Resolver;
  /** The PDF render pool (server/ops/services/proof/render-pool.ts). */
  renderPool: RenderPool;
  /** The orders batch's parse and check, off the event loop (server/ops/services/batch-check/pool.ts). */
  batchCheck: BatchCheckPool;
  /** The day planner's travel and stop times (issue 28). */
  routing: RoutingConfig;
}

/** Every route of /api/ops/v1, registered in one place. */
export async function registerOpsRoutes(app: FastifyInstance, deps: OpsRouteDeps): Promise<void> {
  await app.register(opsKeyRoutes({ db: deps.db }));
  await app.register(opsPharmacyRoutes({ db: deps.db }));
  await app.register(opsCourierRoutes({ db: deps.db }));
  await app.register(opsOrderRoutes({ db: deps.db, today: deps.today }));
  await app.register(opsOrderBatchRoutes({ db: deps.db, today: deps.today, batchCheck: deps.batchCheck }));
  await app.register(opsAssignmentRoutes({ db: deps.db, today: deps.today }));
  await app.register(opsProofRoutes({ db: deps.db, gateway: deps.gateway, timeZone: deps.timeZone, renderPool: deps.renderPool }));
  await app.register(opsPlanRoutes({ db: deps.db, routing: deps.routing, travel: travelProviderFrom(deps.routing), timeZone: deps.timeZone }));
  await app.register(opsStaffRoutes({ db: deps.db }));
  await app.register(opsWebhookRoutes({ db: deps.db, allowPrivate: deps.webhookAllowPrivate, resolve: deps.webhookResolve }));
}
