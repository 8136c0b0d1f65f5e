import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { opsAssignmentRoutes } from "./assignments.ts";
import { opsCourierRoutes } from "./couriers.ts";
import { opsKeyRoutes } from "./keys.ts";
import { opsOrderRoutes } from "./orders.ts";
import { opsPharmacyRoutes } from "./pharmacies.ts";
import type { PaymentGateway } from "../../payments/gateway.ts";
import { opsProofRoutes } from "./proof.ts";
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
}

/** Every route of /api/ops/v1, registered in one place. */
export async function registerOpsRoutes(app: FastifyInstance, deps: OpsRouteDeps): Promise<void> {
  await app.register(opsKeyRoutes({ db: deps.db }));
  await app.register(opsPharmacyRoutes({ db: deps.db }));
  await app.register(opsCourierRoutes({ db: deps.db }));
  await app.register(opsOrderRoutes({ db: deps.db, today: deps.today }));
  await app.register(opsAssignmentRoutes({ db: deps.db, today: deps.today }));
  await app.register(opsProofRoutes({ db: deps.db, gateway: deps.gateway, timeZone: deps.timeZone }));
  await app.register(opsWebhookRoutes({ db: deps.db, allowPrivate: deps.webhookAllowPrivate }));
}
