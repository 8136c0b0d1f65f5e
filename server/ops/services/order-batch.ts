import { and, inArray, sql } from "drizzle-orm";
import type { FieldError, OrderBatchResult, OrderCreateRequest } from "../../../domain/contract/ops.ts";
import type { Db, Tx } from "../../db/client.ts";
import { backgroundTurn } from "../../http/interactive-first.ts";
import { orders, pharmacies } from "../../db/schema.ts";
import { audit } from "../../db/audit.ts";
import type { OrderRow } from "../../services/order-transitions.ts";
import { enqueueOrdersCreated } from "../../services/webhooks/order-events.ts";
import { pharmaciesHearing } from "../../services/webhooks/outbox.ts";
import { webhookOrderMiddle } from "../../services/webhooks/webhook-order.ts";
import { CheckedBatch } from "./batch-check/pool.ts";
import { checkBatchRow, type CheckedRow } from "./batch-check/rows.ts";
import { externalIdConflictMessage, type CreateOptions, type PharmacyRow } from "./orders.ts";
import { ORDER_COLUMNS, orderRowJson, orderValues, type OrderValues } from "./order-values.ts";
import type { Actor } from "./pharmacies.ts";

/** A row that passed the contract: what it would write, and what the date rule says of it. */
interface Candidate {
  index: number;
  body: OrderCreateRequest;
  hash: string;
  key: string;
  dateProblems: FieldError[];
  /** The row's JSON for the insert from the batch check's worker, if it built one (batch-check/rows.ts). */
  json: string | undefined;
  /** Its event's order without id and updated_at, from the worker if it built one (webhookOrderMiddle). */
  event: string | undefined;
}

/** The longest this thread works on a batch without a turn of the event loop (checking a row is ~0.1 ms, building one ~0.01 ms). */
const SLICE_MS = 3;

/**
 * Rows written per transaction (decision 0039): a 1000-row batch's one
 * transaction held the events' lock, which couriers' pickups and deliveries
 * wait for at their commits, for its 1,000 events and its commit (22-38 ms),
 * and PostgreSQL's core for ~100 ms in one block.
 */
export const PIECE_ROWS = 100;

/**
 * Slices a batch's CPU work: after SLICE_MS of it, a turn of the event loop
 * and a short wait while couriers' calls are being answered, so they go first
 * (server/http/interactive-first.ts).
 */
function slicer(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await backgroundTurn();
    since = performance.now();
  };
}

/** items.map(map), in slices. */
async function mapInSlices<T, R>(items: readonly T[], slice: () => Promise<void>, map: (item: T, index: number) => R): Promise<R[]> {
  const out: R[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    await slice();
    out[i] = map(items[i]!, i);
  }
  return out;
}

const keyOf = (pharmacyId: number, externalId: string) => `${pharmacyId}\u0000${externalId}`;

/**
 * A batch's rows checked on this thread, in slices (the way when the batch
 * check's worker does not read it: a small batch, or the worker not running;
 * batch-check/pool.ts).
 */
export async function checkBatchInSlices(rows: Record<string, unknown>[], today: string): Promise<CheckedBatch> {
  // Checking 1000 rows is ~50-100 ms of this thread's CPU: in slices, so couriers' calls go in between.
  return new CheckedBatch(await mapInSlices(rows, slicer(), (raw) => checkBatchRow(raw, today)), today);
}

const rejected = (externalId: string | null, errors: FieldError[]): OrderBatchResult => ({ external_id: externalId, status: "rejected", errors });

/**
 * POST orders/batch, validated first and written with a few multi-row
 * statements (issue 25: a row at a time on a savepoint each made ~360 orders/s
 * and held a 1000-row batch's transaction for seconds). The guarantees stay:
 * - a bad row is that row's rejection and never stops the others (every check
 *   that can refuse a row — contract, date rule, pharmacy, external_id — runs
 *   before anything is written, so no row is ever half-written);
 * - (pharmacy_id, external_id) is unique across processes: the rows go in with
 *   INSERT … ON CONFLICT DO NOTHING, sorted by that key so two batches racing on
 *   the same ids wait for each other instead of deadlocking; a row another
 *   process (or an earlier row of this batch) already made is compared with it:
 *   the same body is `unchanged`, another body is refused as a 409 would be;
 * - a date the rule refuses is accepted only as an exact replay of the stored order;
 * - written in pieces of PIECE_ROWS rows, each its own transaction (decision 0039): a row is
 *   written whole (order, audit row, event) or not at all; a failure of the database itself
 *   leaves the pieces committed before it, and the same batch sent again answers their rows
 *   `unchanged` and writes the rest once;
 * - each piece's events take their positions in its last statement, so its commit holds the events' lock only briefly.
 * Background work (server/http/interactive-first.ts, decision 0027): one batch
 * at a time per process; its rows come checked (in the batch check's worker,
 * batch-check/pool.ts, or in slices by checkBatchInSlices) and are built in
 * slices with a turn for the couriers' calls between two, a turn between two pieces, and a last
 * turn after the last commit paces the writes' share.
 */
export async function createOrderBatch(
  db: Db,
  actor: Actor,
  rows: readonly CheckedRow[],
  options: Omit<CreateOptions, "pharmacyCache"> & {
    /** Told how long the longest of its transactions took, ms (the route's Server-Timing header). */
    onTransaction?: (ms: number) => void;
  },
): Promise<OrderBatchResult[]> {
  const results: (OrderBatchResult | undefined)[] = new Array(rows.length);
  const candidates: Candidate[] = [];
  const slice = slicer();
  for (const [index, row] of rows.entries()) {
    if (!row.ok) {
      results[index] = rejected(row.externalId, row.errors);
      continue;
    }
    const { body } = row;
    // Another pharmacy's id is answered like a missing one: a pharmacy key learns nothing of the others.
    if (options.scope !== null && options.scope !== body.pharmacy_id) {
      results[index] = rejected(body.external_id, [{ path: "pharmacy_id", message: `Pharmacy ${body.pharmacy_id} was not found.` }]);
      continue;
    }
    candidates.push({ index, body, hash: row.hash, key: keyOf(body.pharmacy_id, body.external_id), dateProblems: row.dateProblems, json: row.json, event: row.event });
  }
  if (candidates.length === 0) return results as OrderBatchResult[];

  // Everything that reads without locking or only builds is done before the writes, in slices:
  // the transactions hold just the writes (a pharmacy removed meanwhile fails the insert on its foreign key, as before).
  const pharmacyById = await loadPharmacies(db, candidates);
  const live: Candidate[] = [];
  for (const candidate of candidates) {
    if (pharmacyById.has(candidate.body.pharmacy_id)) live.push(candidate);
    else results[candidate.index] = rejected(candidate.body.external_id, [{ path: "pharmacy_id", message: `Pharmacy ${candidate.body.pharmacy_id} was not found.` }]);
  }

  // The row that may insert each key: its first occurrence the date rule accepts. The rest are compared with what is stored after.
  const inserting = new Map<string, Candidate>();
  for (const candidate of live) if (candidate.dateProblems.length === 0 && !inserting.has(candidate.key)) inserting.set(candidate.key, candidate);
  const toInsert = [...inserting.values()].sort((a, b) => a.body.pharmacy_id - b.body.pharmacy_id || compareText(a.body.external_id, b.body.external_id));
  const values = await mapInSlices(toInsert, slice, (c) => orderValues(c.body, pharmacyById.get(c.body.pharmacy_id)!, c.hash, options.today));
  const keys = values.length ? (Object.keys(values[0]!) as (keyof OrderValues)[]) : [];
  // The worker's JSON of a row holds unless the pharmacy's pickup note stands in for a row without its own.
  const json = await mapInSlices(toInsert, slice, (c, i) =>
    c.json !== undefined && (c.body.pickup_note || !pharmacyById.get(c.body.pharmacy_id)!.pickupNote) ? c.json : orderRowJson(keys, values[i]!),
  );

  const events = await mapInSlices(toInsert, slice, (c, i) => c.event ?? webhookOrderMiddle(values[i]!));

  // Once per batch, not per piece: whose order.created some webhook subscription hears (only their bodies are built).
  // A subscription made while the batch writes hears from the next batch on (the insert still matches each event with
  // the subscriptions of its moment, but no body was built for a pharmacy nobody heard when the batch began).
  const heard = await pharmaciesHearing(db, "order.created");

  // The writes in pieces, each its own short transaction (decision 0039): a row whole with its audit row and event in
  // one, a turn for the couriers' calls between two, and the events' lock held for a piece's events, not the batch's.
  const stored = new Map<string, OrderRow>();
  let longest = 0;
  try {
    for (let first = 0; first < values.length; first += PIECE_ROWS) {
      if (first > 0) await backgroundTurn();
      const began = performance.now();
      try {
        const piece = { values: values.slice(first, first + PIECE_ROWS), json: json.slice(first, first + PIECE_ROWS), events: events.slice(first, first + PIECE_ROWS) };
        const inserted = await db.transaction((tx) => writePiece(tx, actor, keys, piece, heard));
        for (const row of inserted) stored.set(keyOf(row.pharmacyId, row.externalId!), row);
      } finally {
        longest = Math.max(longest, performance.now() - began);
      }
    }
  } finally {
    options.onTransaction?.(longest);
  }
  const created = new Set(stored.keys());

  // The rest are compared with what is stored (rows another process made first, repeats of a key, dates the rule refuses).
  for (const row of await storedOrders(db, live.filter((c) => !stored.has(c.key)))) stored.set(keyOf(row.pharmacyId, row.externalId!), row);
  for (const candidate of live) {
    const row = stored.get(candidate.key);
    const externalId = candidate.body.external_id;
    if (row && created.has(candidate.key) && inserting.get(candidate.key) === candidate) {
      results[candidate.index] = { external_id: externalId, status: "created", order_id: row.id };
    } else if (row && row.requestHash === candidate.hash) {
      results[candidate.index] = { external_id: externalId, status: "unchanged", order_id: row.id };
    } else if (candidate.dateProblems.length) {
      results[candidate.index] = rejected(externalId, candidate.dateProblems);
    } else if (row) {
      results[candidate.index] = rejected(externalId, [{ path: "external_id", message: externalIdConflictMessage(row, externalId) }]);
    } else {
      throw new Error(`order ${externalId} conflicted but cannot be found`);
    }
  }
  // PostgreSQL's work for the writes is paced after the last commit: a rest in proportion before the answer, while
  // the lane is still held (interactive-first.ts).
  await backgroundTurn();
  return results as OrderBatchResult[];
}

/**
 * One piece of a batch, in its own transaction: its orders, their audit rows,
 * and last their events, which take their positions as they are written
 * (under the lock every writer of events takes at commit, held from there to
 * this piece's commit), not one UPDATE each at commit (server/services/events/record.ts),
 * and announced when it commits (a NOTIFY once a batch measured no different, and left a
 * failed batch's committed pieces to be announced by someone else).
 */
async function writePiece(
  tx: Tx,
  actor: Actor,
  keys: readonly (keyof OrderValues)[],
  piece: { values: OrderValues[]; json: string[]; events: string[] },
  heard: (pharmacyId: number) => boolean,
): Promise<OrderRow[]> {
  const inserted = await insertOrders(tx, keys, piece.values, piece.json);
  const eventOf = new Map(piece.values.map((row, i) => [keyOf(row.pharmacyId, row.externalId!), piece.events[i]!]));
  await audit(
    tx,
    inserted.map((row) => ({ courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null, action: "order_created" as const, orderId: row.id, toStatus: "new" })),
  );
  const created = [...inserted].sort((a, b) => a.id - b.id).map((row) => ({ id: row.id, pharmacyId: row.pharmacyId, updatedAt: row.updatedAt, middle: eventOf.get(keyOf(row.pharmacyId, row.externalId!))! }));
  await enqueueOrdersCreated(tx, created, heard, { positionNow: true });
  return inserted;
}

/** The same order of text in JavaScript for every process: code units, not the locale. */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function loadPharmacies(db: Tx, candidates: Candidate[]): Promise<Map<number, PharmacyRow>> {
  const ids = [...new Set(candidates.map((c) => c.body.pharmacy_id))];
  const rows = await db.select().from(pharmacies).where(inArray(pharmacies.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The stored orders of these rows' keys, in one query (pharmacy and external id lists, matched exactly after). */
async function storedOrders(tx: Tx, candidates: Candidate[]): Promise<OrderRow[]> {
  if (candidates.length === 0) return [];
  const keys = new Set(candidates.map((c) => c.key));
  const rows = await tx
    .select()
    .from(orders)
    .where(
      and(
        inArray(orders.pharmacyId, [...new Set(candidates.map((c) => c.body.pharmacy_id))]),
        inArray(orders.externalId, [...new Set(candidates.map((c) => c.body.external_id))]),
      ),
    );
  return rows.filter((row) => row.externalId !== null && keys.has(keyOf(row.pharmacyId, row.externalId)));
}

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];


/**
 * The rows in one INSERT … SELECT over a JSON parameter, ON CONFLICT DO
 * NOTHING on (pharmacy_id, external_id). The rows travel as one parameter and
 * jsonb_populate_recordset gives each value the column's own type: a
 * 1000-row VALUES list built by Drizzle (30,000 parameters) cost about as much
 * CPU as everything else in the batch. Only the columns the rows set are
 * named, so the others take their defaults. The JSON of each row is built
 * before the transaction (in the batch check's worker, or here in slices). Returns the
 * rows inserted (a row another process made first is not among them), as the
 * rest of the server reads them for the ids, the results and the events.
 */
async function insertOrders(tx: Tx, keys: readonly (keyof OrderValues)[], values: OrderValues[], json: string[]): Promise<OrderRow[]> {
  if (values.length === 0) return [];
  const columns = sql.join(keys.map((key) => sql.identifier(ORDER_COLUMNS[key].name)), sql`, `);
  const result = await tx.execute(sql`insert into ${orders} (${columns})
    select ${columns} from jsonb_populate_recordset(null::${orders}, ${`[${json.join(",")}]`}::jsonb)
    on conflict (pharmacy_id, external_id) do nothing
    returning id, pharmacy_id, external_id, extract(epoch from updated_at) * 1000 as updated_ms`);
  const byKey = new Map(values.map((row) => [keyOf(row.pharmacyId, row.externalId!), row]));
  return rowsOf<{ id: number | string; pharmacy_id: number | string; external_id: string; updated_ms: number | string }>(result).map((row) => {
    const written = byKey.get(keyOf(Number(row.pharmacy_id), row.external_id))!;
    // What the rows were given plus what the database chose: enough for the results and webhookOrder (id, status, day, updated_at).
    return { ...written, id: Number(row.id), updatedAt: new Date(Number(row.updated_ms)) } as OrderRow;
  });
}
