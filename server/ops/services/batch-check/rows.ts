import { OrderBatchRequest, OrderCreateRequest, type FieldError } from "../../../../domain/contract/ops.ts";
import { issueWords } from "../../../../domain/contract/issue-words.ts";
import { orderDateProblems } from "../../../../domain/date-rules.ts";
import { requestHashOf } from "../order-hash.ts";
import { orderRowJson, orderValues } from "../order-values.ts";
import { webhookOrderMiddle } from "../../../services/webhooks/webhook-order.ts";

/**
 * One row of an orders batch, checked (issue 25): either refused by the
 * contract, with its errors in the product's words, or what it would write —
 * the body as the contract reads it, its request hash and what the date rule
 * says of it. Plain data, so it crosses from the worker thread by structured
 * clone. The pharmacy (scope and existence) is checked later, on the server's
 * thread, against the caller and the database.
 *
 * In the worker a row the date rule accepts also comes with its JSON for the
 * insert (order-values.ts), built as if its pharmacy had no pickup note of
 * its own: the server's thread uses it when that holds or the row has its
 * own note, and builds the row itself otherwise. And with it the middle of its
 * order.created event's order (webhookOrderMiddle: all but the id and
 * updated_at the insert gives), which no pickup note changes.
 */
export type CheckedRow =
  | { ok: false; externalId: string | null; errors: FieldError[] }
  | { ok: true; body: OrderCreateRequest; hash: string; dateProblems: FieldError[]; json?: string; event?: string };

/** Zod issues of one batch row → paths inside the row ("address.zipcode"). */
function rowErrors(issues: { path: PropertyKey[]; message: string }[]): FieldError[] {
  return issues.map((issue) => ({ path: issue.path.map(String).join(".") || "(row)", message: issue.message }));
}

export function checkBatchRow(raw: Record<string, unknown>, today: string, options: { withJson?: boolean } = {}): CheckedRow {
  const externalId = typeof raw.external_id === "string" ? raw.external_id : raw.external_id == null ? null : String(raw.external_id);
  const parsed = OrderCreateRequest.safeParse(raw, { error: issueWords });
  if (!parsed.success) return { ok: false, externalId, errors: rowErrors(parsed.error.issues) };
  const body = parsed.data;
  const hash = requestHashOf(body);
  const dateProblems = orderDateProblems(body, today);
  if (!options.withJson || dateProblems.length) return { ok: true, body, hash, dateProblems };
  const values = orderValues(body, { id: body.pharmacy_id, pickupNote: null }, hash, today);
  return { ok: true, body, hash, dateProblems, json: orderRowJson(Object.keys(values) as (keyof typeof values)[], values), event: webhookOrderMiddle(values) };
}

// The keys Fastify's JSON parser (secure-json-parse) looks for, escapes included: such a body is left to it.
const SUSPECT_PROTO = /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;
const SUSPECT_CONSTRUCTOR =
  /"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:/;

/**
 * A batch's JSON text → its rows checked, or null when the text is not a
 * batch this check reads as it is: not JSON, an envelope the contract refuses
 * (empty, over 1000 rows, another key), or a key the server's JSON parser
 * guards against (`__proto__`, `constructor`). Those go to the server's own
 * parser and route check, which answer them exactly as every other route does.
 */
export function checkBatchText(text: string, today: string): CheckedRow[] | null {
  if (text.length === 0 || SUSPECT_PROTO.test(text) || SUSPECT_CONSTRUCTOR.test(text)) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const envelope = OrderBatchRequest.safeParse(value);
  if (!envelope.success) return null;
  return envelope.data.orders.map((row) => checkBatchRow(row, today, { withJson: true }));
}
