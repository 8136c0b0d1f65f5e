import { expect } from "vitest";
import { Custody, Proof, ReturnsResponse } from "../../domain/contract/ops-proof.ts";
import { TEST_DAY } from "./api-harness.ts";
import { courierActions } from "./courier-actions.ts";
import type { OpsContext } from "./ops-harness.ts";
import { freshOrder, freshPharmacy } from "./security-fixtures.ts";

/**
 * What the proof tests (tests/api/ops-proof*.test.ts) set up and read back:
 * a courier's day at a pharmacy of its own, and the operations API's proof,
 * custody and return manifests, each answered 200 and read by its contract.
 */

/**
 * courier@example.com logged in, at a new pharmacy (its visit confirmed)
 * with a new order submitted to them per name given, with that copay in
 * cents (0: none). Nothing is picked up yet.
 */
export async function courierAtFreshPharmacy<Name extends string>(ctx: OpsContext, pharmacyName: string, copays: Record<Name, number>) {
  const db = ctx.database.db;
  const courier = await ctx.loginCourier("courier@example.com");
  const act = courierActions(ctx.app, courier);
  const pharmacyId = await freshPharmacy(db, courier.courierId, pharmacyName);
  const ids = {} as Record<Name, number>;
  for (const [name, copayCents] of Object.entries(copays) as [Name, number][]) {
    ids[name] = await freshOrder(db, { courierId: courier.courierId, pharmacyId, status: "submitted_to_courier", copayCents });
  }
  return { courier, act, pharmacyId, ids };
}

/** GET /api/ops/v1/orders/{id}/proof (with the dispatch key unless another is given). */
export async function proofOf(ctx: OpsContext, orderId: number, key?: string) {
  const response = await ctx.ops("GET", `/api/ops/v1/orders/${orderId}/proof`, undefined, key);
  expect(response.statusCode, response.body).toBe(200);
  return Proof.parse(response.json());
}

/** GET /api/ops/v1/orders/{id}/custody: the chain's entries. */
export async function custodyOf(ctx: OpsContext, orderId: number) {
  const response = await ctx.ops("GET", `/api/ops/v1/orders/${orderId}/custody`);
  expect(response.statusCode, response.body).toBe(200);
  return Custody.parse(response.json()).custody;
}

/** GET /api/ops/v1/returns of a pharmacy's day: its return manifests. */
export async function returnsOf(ctx: OpsContext, pharmacyId: number, serviceDate = TEST_DAY) {
  const response = await ctx.ops("GET", `/api/ops/v1/returns?pharmacy_id=${pharmacyId}&service_date=${serviceDate}`);
  expect(response.statusCode, response.body).toBe(200);
  return ReturnsResponse.parse(response.json()).returns;
}
