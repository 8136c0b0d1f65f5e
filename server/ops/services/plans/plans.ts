import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Plan, PlanCreateRequest, PlanRoute } from "../../../../domain/contract/ops-plans.ts";
import { statusByName } from "../../../../domain/vocabulary.ts";
import type { RoutingConfig } from "../../../config.ts";
import type { Db, Tx } from "../../../db/client.ts";
import { couriers, orders, pharmacies, plannedStops, plans } from "../../../db/schema.ts";
import { badRequest, conflict, HttpError, notFound } from "../../../http/errors.ts";
import { assignOrders } from "../assignments.ts";
import type { Actor } from "../pharmacies.ts";
import { audit } from "../../../db/audit.ts";
import { statusNameOf, type OrderRow } from "../../../services/order-transitions.ts";
import type { TravelMatrixProvider } from "../../../services/routing/travel-matrix.ts";
import { buildProblem } from "./build-problem.ts";
import { planRoutes, unassignedView } from "./plan-view.ts";
import { solvePlanInWorker } from "./solver.ts";
import { dayClock } from "./zoned-time.ts";

export interface PlanDeps {
  db: Db;
  routing: RoutingConfig;
  travel: TravelMatrixProvider;
  timeZone: string;
}

type PlanRow = typeof plans.$inferSelect;
type StoredResult = Pick<Plan, "routes" | "unassigned" | "couriers_used" | "distance_km">;

/** Only an order not yet picked up can be planned (and assigned when the plan is applied). */
const PLANNABLE = new Set(["new", "submitted_to_courier"]);

/** What applying a plan relies on, field by field: any change since planning refuses the plan with the field named. */
function snapshotOf(row: OrderRow): Record<string, string> {
  return {
    status: statusNameOf(row),
    assignment: String(row.courierId ?? "none"),
    "service date": row.serviceDate,
    "delivery window": `${row.deliveryWindowStart ?? ""}-${row.deliveryWindowEnd ?? ""}`,
    address: [row.streetAddress, row.streetAddress2, row.city, row.stateAbbreviation, row.zipcode, row.latitude, row.longitude].join("|"),
    pharmacy: String(row.pharmacyId),
  };
}

function planView(row: PlanRow): Plan {
  const result = row.result as StoredResult;
  return { id: row.id, service_date: row.serviceDate, ...result, applied_at: row.appliedAt ? row.appliedAt.toISOString() : null };
}

async function couriersFor(db: Db, ids: number[]) {
  const rows = await db.select().from(couriers).where(inArray(couriers.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id, index) => {
    const row = byId.get(id);
    const path = `body.courier_ids.${index}`;
    if (!row) throw badRequest(`Invalid ${path}: courier ${id} does not exist`, [{ path, message: `courier ${id} does not exist` }]);
    if (row.deactivatedAt) throw badRequest(`Invalid ${path}: courier ${id} is deactivated`, [{ path, message: `courier ${id} is deactivated` }]);
    return row;
  });
}

/** The listed orders, each checked to be of the day and not yet picked up; or every unassigned order of the day. */
async function ordersFor(db: Db, body: PlanCreateRequest): Promise<OrderRow[]> {
  if (!body.order_ids) {
    return db
      .select()
      .from(orders)
      .where(and(eq(orders.serviceDate, body.service_date), isNull(orders.courierId), eq(orders.statusId, statusByName("new").id)))
      .orderBy(orders.id);
  }
  const rows = await db.select().from(orders).where(inArray(orders.id, body.order_ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return body.order_ids.map((id, index) => {
    const row = byId.get(id);
    const path = `body.order_ids.${index}`;
    const refuse = (message: string) => badRequest(`Invalid ${path}: ${message}`, [{ path, message }]);
    if (!row) throw refuse(`order ${id} does not exist`);
    if (row.serviceDate !== body.service_date) throw refuse(`order ${id} is for ${row.serviceDate}, not ${body.service_date}`);
    const status = statusNameOf(row);
    if (!PLANNABLE.has(status)) throw conflict(`Order ${id} is ${status.replace(/_/g, " ")}: only an order not yet picked up can be planned.`);
    return row;
  });
}

/**
 * POST plans: a proposal for the day, stored; nothing else changes. The
 * solver runs off the event loop (solvePlanInWorker), so the API keeps answering.
 */
export async function createPlan(deps: PlanDeps, actor: Actor, body: PlanCreateRequest): Promise<Plan> {
  const courierRows = await couriersFor(deps.db, body.courier_ids);
  const orderRows = await ordersFor(deps.db, body);
  const pharmacyIds = [...new Set(orderRows.map((row) => row.pharmacyId))];
  const pharmacyRows = pharmacyIds.length ? await deps.db.select().from(pharmacies).where(inArray(pharmacies.id, pharmacyIds)) : [];
  const pharmaciesById = new Map(pharmacyRows.map((row) => [row.id, row]));
  const ordersById = new Map(orderRows.map((row) => [row.id, row]));

  const clock = dayClock(body.service_date, deps.timeZone);
  const { problem, unplannable } = await buildProblem({
    orders: orderRows,
    pharmacies: pharmaciesById,
    couriers: courierRows,
    clock,
    routing: deps.routing,
    travel: deps.travel,
  });
  const solution = problem.tasks.length
    ? await solvePlanInWorker(problem, { timeLimitMs: body.time_limit_seconds * 1000, ...(body.seed !== undefined ? { seed: body.seed } : {}) })
    : { routes: [], unassigned: [] };

  const routes = planRoutes(solution, ordersById, pharmaciesById, clock);
  const result: StoredResult = {
    routes,
    unassigned: [...unplannable, ...unassignedView(solution, ordersById, pharmaciesById)].sort((a, b) => a.order_id - b.order_id),
    couriers_used: routes.length,
    distance_km: Math.round(routes.reduce((sum, route) => sum + route.distance_km, 0) * 10) / 10,
  };
  const snapshot = Object.fromEntries(routes.flatMap((route) => route.stops.flatMap((stop) => stop.order_ids)).map((id) => [String(id), snapshotOf(ordersById.get(id)!)]));
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(plans)
      .values({ serviceDate: body.service_date, courierIds: body.courier_ids, result, snapshot, apiKeyId: actor.apiKeyId })
      .returning();
    await audit(tx, [{ courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null, action: "plan_created", subject: `plan:${row!.id}` }]);
    return planView(row!);
  });
}

export async function getPlan(db: Db, id: number): Promise<Plan> {
  const [row] = await db.select().from(plans).where(eq(plans.id, id));
  if (!row) throw notFound(`Plan ${id}`);
  return planView(row);
}

/** Each order's 1-based pickup and delivery stop in its courier's route. */
function positionsOf(routes: PlanRoute[]) {
  const positions = new Map<number, { courierId: number; pickup: number; delivery: number }>();
  for (const route of routes) {
    route.stops.forEach((stop, index) => {
      for (const orderId of stop.order_ids) {
        const entry = positions.get(orderId) ?? { courierId: route.courier_id, pickup: index + 1, delivery: index + 1 };
        if (stop.kind === "pickup") entry.pickup = index + 1;
        else entry.delivery = index + 1;
        positions.set(orderId, entry);
      }
    });
  }
  return positions;
}

/**
 * POST plans/{id}/application: every route's orders assigned to its courier
 * through the same service as POST assignments (visits, events, custody),
 * and each order's place in the route kept for the courier's itinerary. A
 * plan whose orders changed since is refused whole, naming the change.
 */
export async function applyPlan(db: Db, actor: Actor, id: number): Promise<Plan> {
  return db.transaction(async (tx: Tx) => {
    const [row] = await tx.select().from(plans).where(eq(plans.id, id)).for("update");
    if (!row) throw notFound(`Plan ${id}`);
    if (row.appliedAt) {
      throw new HttpError(409, "plan_already_applied", `Plan ${id} was already applied at ${row.appliedAt.toISOString()}: make a new plan to change the day.`);
    }
    const snapshot = row.snapshot;
    const orderIds = Object.keys(snapshot).map(Number);
    const current = orderIds.length ? await tx.select().from(orders).where(inArray(orders.id, orderIds)).orderBy(orders.id).for("update") : [];
    const byId = new Map(current.map((order) => [order.id, order]));
    for (const orderId of orderIds) {
      const now = byId.get(orderId);
      if (!now) throw new HttpError(409, "plan_outdated", `Order ${orderId} no longer exists: make a new plan.`);
      const then = snapshot[String(orderId)]!;
      const changed = Object.entries(snapshotOf(now)).filter(([field, value]) => then[field] !== value).map(([field]) => field);
      if (changed.length) {
        throw new HttpError(409, "plan_outdated", `Order ${orderId} changed since plan ${id} was made (its ${changed.join(", ")}): nothing was assigned; make a new plan.`);
      }
    }

    const { routes } = row.result as StoredResult;
    for (const route of routes) {
      const routeOrders = [...new Set(route.stops.flatMap((stop) => stop.order_ids))];
      await assignOrders(tx, actor, { courier_id: route.courier_id, service_date: row.serviceDate, order_ids: routeOrders });
    }
    const positions = positionsOf(routes);
    if (positions.size) {
      await tx.delete(plannedStops).where(inArray(plannedStops.orderId, [...positions.keys()]));
      await tx.insert(plannedStops).values(
        [...positions].map(([orderId, place]) => ({ orderId, planId: id, courierId: place.courierId, pickupPosition: place.pickup, deliveryPosition: place.delivery })),
      );
    }
    const [applied] = await tx.update(plans).set({ appliedAt: new Date() }).where(eq(plans.id, id)).returning();
    await audit(tx, [{ courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null, action: "plan_applied", subject: `plan:${id}` }]);
    return planView(applied!);
  });
}
