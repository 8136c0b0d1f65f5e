import { issueWords } from "../contract/issue-words.ts";
import { OrderCreateRequest } from "../contract/ops.ts";
import { readCsv, type CsvRecord } from "./csv-records.ts";

/**
 * The CSV a pharmacy imports its orders from (docs/operations.md lists the
 * same columns): one order a row, a header row naming the columns in any order.
 * Each row becomes the body of POST /api/ops/v1/orders (sent in batches), or a
 * rejection with its line number and the reasons, in the words of the columns.
 */

type Kind = "text" | "upper" | "money" | "boolean" | "number" | "date" | "list";

interface Column {
  name: string;
  /** The header must have it (a cell may still be blank where the API allows). */
  required: boolean;
  kind: Kind;
  /** Where the value goes in the order body. */
  path: readonly [string] | readonly ["address", string];
  description: string;
}

const column = (name: string, kind: Kind, required: boolean, description: string, inAddress = false): Column => ({
  name,
  kind,
  required,
  description,
  path: inAddress ? (["address", name] as const) : ([name] as const),
});

export const ORDER_COLUMNS: readonly Column[] = [
  column("external_id", "text", true, "The pharmacy's own id of the order; importing the same row again changes nothing."),
  column("patient_first_name", "text", true, "Patient's first name."),
  column("patient_last_name", "text", true, "Patient's last name."),
  column("patient_date_of_birth", "date", false, "YYYY-MM-DD (or MM/DD/YYYY); blank when not checked."),
  column("phone_number", "text", true, "Patient's US phone number, 10 digits in any layout."),
  column("street_address", "text", true, "Delivery street address.", true),
  column("street_address_2", "text", false, "Apartment, suite, floor.", true),
  column("city", "text", true, "City.", true),
  column("state_abbreviation", "upper", true, "Two-letter state, e.g. PA.", true),
  column("zipcode", "text", true, "5 digits, or 5+4.", true),
  column("latitude", "number", false, "Decimal degrees; blank when unknown.", true),
  column("longitude", "number", false, "Decimal degrees; blank when unknown.", true),
  column("rx_numbers", "list", true, "One or more prescription numbers in the cell, separated by ; (or | or ,)."),
  column("copay", "money", false, "Dollars, e.g. 12.50; 0.00 or blank for none; otherwise at least 1.00."),
  column("delivery_fee", "money", false, "Dollars, e.g. 5.00."),
  column("other_items_amount_due", "money", false, "Dollars, e.g. 3.25."),
  column("pid_order", "boolean", false, "true/false (yes/no, 1/0); blank is false."),
  column("collect_identification", "boolean", false, "true/false: the courier captures the recipient's ID."),
  column("controlled_substance", "boolean", false, "true/false."),
  column("signature_required", "boolean", false, "true/false."),
  column("delivery_instruction", "text", false, "Shown to the courier at the door."),
  column("superuser_note", "text", false, "Note from dispatch."),
  column("pickup_note", "text", false, "Shown to the courier at pickup."),
  column("service_date", "date", false, "YYYY-MM-DD: the day it is delivered; blank is today."),
  column("delivery_window_start", "text", false, "HH:MM (24-hour, service time zone): delivery promised from; with delivery_window_end."),
  column("delivery_window_end", "text", false, "HH:MM: delivery promised by; after delivery_window_start."),
];

const BY_NAME = new Map(ORDER_COLUMNS.map((c) => [c.name, c]));

export type OrderBody = Record<string, unknown> & { external_id?: unknown };

export interface MappedRow {
  line: number;
  endLine: number;
  externalId: string;
  body: OrderBody;
}

export interface RejectedRow {
  line: number;
  endLine: number;
  externalId: string | null;
  reasons: string[];
}

export interface OrderCsv {
  /** Rows ready to send, in file order. */
  orders: MappedRow[];
  /** Rows (or lines) refused before sending, with their reasons. */
  rejected: RejectedRow[];
}

/** The whole file is refused (nothing is sent): its header does not name the columns this import needs. */
export class OrderCsvHeaderError extends Error {}

const BOOLEAN_WORDS = new Map([
  ["true", true], ["yes", true], ["y", true], ["1", true],
  ["false", false], ["no", false], ["n", false], ["0", false],
]);

/** "12.5", "$12.50", "12" → "12.50": spreadsheets drop trailing zeros. Anything else is passed on for the API's reason. */
function money(cell: string): string {
  const match = /^\$?(\d+)(?:\.(\d{1,2}))?$/.exec(cell.replace(/,(?=\d{3}(\D|$))/g, ""));
  return match ? `${match[1]}.${(match[2] ?? "").padEnd(2, "0")}` : cell;
}

/** MM/DD/YYYY (a US spreadsheet's date) → YYYY-MM-DD; anything else is passed on for the API's reason. */
function date(cell: string): string {
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(cell);
  return us ? `${us[3]}-${us[1]!.padStart(2, "0")}-${us[2]!.padStart(2, "0")}` : cell;
}

type Converted = { value: unknown } | { problem: string };

function convert(kind: Kind, cell: string): Converted {
  switch (kind) {
    case "text":
      return { value: cell };
    case "upper":
      return { value: cell.toUpperCase() };
    case "money":
      return { value: money(cell) };
    case "date":
      return { value: date(cell) };
    case "list":
      return { value: cell.split(/[;|,\r\n]+/).map((item) => item.trim()).filter((item) => item !== "") };
    case "number": {
      const number = Number(cell);
      return Number.isFinite(number) ? { value: number } : { problem: "must be a number, e.g. 39.9526" };
    }
    case "boolean": {
      const value = BOOLEAN_WORDS.get(cell.toLowerCase());
      return value === undefined ? { problem: "must be true or false (yes/no, 1/0)" } : { value };
    }
  }
}

/** A zod issue's path ("address", "zipcode") or the API's ("orders.3.address.zipcode") → the CSV column it came from. */
export function columnOf(path: readonly PropertyKey[] | string): string | null {
  const segments = (typeof path === "string" ? path.split(".") : path.map(String)).filter((segment) => !/^\d+$/.test(segment));
  for (let i = segments.length - 1; i >= 0; i -= 1) if (BY_NAME.has(segments[i]!)) return segments[i]!;
  return segments.at(-1) === "address" ? "street_address" : null;
}

/** A refusal as a sentence naming the CSV column: "phone_number is required" (the API's words, domain/contract/issue-words.ts). */
export const describeError = (path: readonly PropertyKey[] | string, message: string) => {
  const name = columnOf(path);
  return name ? `${name} ${message}` : message;
};

/** The header's cells checked against the columns: every required one there, none unknown, none twice. */
function headerColumns(header: string[]): (Column | null)[] {
  const names = header.map((cell) => cell.trim().toLowerCase());
  const unknown = names.filter((name) => name !== "" && !BY_NAME.has(name));
  const missing = ORDER_COLUMNS.filter((c) => c.required && !names.includes(c.name)).map((c) => c.name);
  const twice = names.filter((name, index) => name !== "" && names.indexOf(name) !== index);
  const problems = [
    missing.length ? `missing column${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}` : null,
    unknown.length ? `unknown column${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")} (the columns are listed in docs/operations.md)` : null,
    twice.length ? `column named twice: ${[...new Set(twice)].join(", ")}` : null,
  ].filter((problem) => problem !== null);
  if (problems.length) throw new OrderCsvHeaderError(`The header row ${problems.join("; ")}.`);
  return names.map((name) => BY_NAME.get(name) ?? null);
}

/** A quoted cell that ran over line ends: its column, the line it opened on and the lines it took in. */
interface SpanningCell {
  column: string;
  fromLine: number;
  /** The lines after the first, each as written (a row swallowed by an unclosed quote shows here). */
  absorbed: { line: number; text: string }[];
}

function spanningCells(record: CsvRecord, columns: (Column | null)[]): SpanningCell[] {
  const spans: SpanningCell[] = [];
  let line = record.line;
  record.cells.forEach((cell, index) => {
    const [, ...rest] = cell.split("\n");
    if (rest.length) {
      spans.push({ column: columns[index]?.name ?? `cell ${index + 1}`, fromLine: line, absorbed: rest.map((text, i) => ({ line: line + i + 1, text })) });
    }
    line += rest.length;
  });
  return spans;
}

/** A line inside a cell with as many commas as half a row: it was an order of its own before a quote swallowed it. */
const looksLikeARow = (text: string, columns: number) => (text.match(/,/g)?.length ?? 0) >= Math.max(3, Math.floor(columns / 2));

const excerpt = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

/** The words for a quoted cell that ran over line ends: which line's content it absorbed. */
function spanReason(span: SpanningCell): string {
  const lines = span.absorbed.map((absorbed) => `line ${absorbed.line} ("${excerpt(absorbed.text)}")`).join(", ");
  const many = span.absorbed.length > 1;
  return (
    `${span.column}: a quoted cell opened on line ${span.fromLine} runs over ${many ? `${span.absorbed.length} line ends` : "the line end"} ` +
    `and took in the content of ${lines}; if ${many ? "those lines are orders" : "that line is an order"} of ${many ? "their" : "its"} own, close the quote on line ${span.fromLine}`
  );
}

function mapRecord(record: CsvRecord, columns: (Column | null)[], pharmacyId: number): MappedRow | RejectedRow {
  const reasons: string[] = [];
  // A quote left open swallows the next row into one cell: say so, whatever else is wrong with the record.
  const spans = spanningCells(record, columns);
  const swallowed = spans.filter((span) => span.absorbed.some((absorbed) => looksLikeARow(absorbed.text, columns.length)));
  if (record.cells.length !== columns.length) {
    reasons.push(`has ${record.cells.length} cells where the header has ${columns.length} (a comma inside a cell needs the cell in double quotes)`);
  }
  const body: OrderBody = { pharmacy_id: pharmacyId };
  const address: Record<string, unknown> = {};
  for (const [index, col] of columns.entries()) {
    const cell = (record.cells[index] ?? "").trim();
    // A blank cell is a field left out: the API says when it was needed.
    if (!col || cell === "") continue;
    const converted = convert(col.kind, cell);
    if ("problem" in converted) {
      reasons.push(`${col.name} ${converted.problem}`);
      continue;
    }
    if (col.path[0] === "address") address[col.path[1]!] = converted.value;
    else body[col.name] = converted.value;
  }
  body.address = address;
  const externalId = typeof body.external_id === "string" ? body.external_id : null;
  if (reasons.length === 0) {
    const checked = OrderCreateRequest.safeParse(body, { error: issueWords });
    if (!checked.success) {
      // The first reason per field: a cell that is not money at all need not also hear it is not a valid copay.
      const seen = new Set<string>();
      for (const issue of checked.error.issues) {
        const key = issue.path.join(".");
        if (!seen.has(key)) reasons.push(describeError(issue.path, issue.message));
        seen.add(key);
      }
    }
  }
  // A cell over several lines is fine (an address, a note) unless the record is refused or the cell holds what reads as a row.
  const explained = reasons.length ? spans : swallowed;
  if (explained.length) reasons.unshift(...explained.map(spanReason));
  if (reasons.length) return { line: record.line, endLine: record.endLine, externalId, reasons };
  return { line: record.line, endLine: record.endLine, externalId: externalId!, body };
}

/**
 * A CSV's text as order bodies for `pharmacyId`, each with its line, and the
 * rows refused before sending (cells that are not what their column needs, the
 * order contract's own checks, an external_id already on an earlier line, a
 * line the CSV reader could not read). Throws OrderCsvHeaderError when the
 * header does not fit: then nothing should be sent.
 */
export function ordersFromCsv(text: string, pharmacyId: number): OrderCsv {
  const table = readCsv(text);
  if (table.header.length === 0) throw new OrderCsvHeaderError("The file is empty: it needs a header row and one order a row.");
  const columns = headerColumns(table.header);
  const orders: MappedRow[] = [];
  const rejected: RejectedRow[] = table.problems.map((problem) => ({ ...problem, externalId: null, reasons: [problem.reason] }));
  const seen = new Map<string, number>();
  for (const record of table.records) {
    const row = mapRecord(record, columns, pharmacyId);
    if ("body" in row) {
      const earlier = seen.get(row.externalId);
      if (earlier !== undefined) {
        rejected.push({ ...row, reasons: [`external_id: ${row.externalId} is already on line ${earlier}; each order once per file`] });
        continue;
      }
      seen.set(row.externalId, row.line);
      orders.push(row);
    } else {
      rejected.push(row);
    }
  }
  rejected.sort((a, b) => a.line - b.line);
  return { orders, rejected };
}

/** A file as the console's import checks it before anything is sent (decision 0033): rows read, ready, refused by line. */
export interface OrderCsvCheck {
  fileName: string;
  rows: number;
  ready: number;
  rejected: RejectedRow[];
}

/** ordersFromCsv's verdict on a file, for any pharmacy (the pharmacy does not change which rows pass). Throws OrderCsvHeaderError. */
export function checkOrderCsv(fileName: string, text: string): OrderCsvCheck {
  const { orders, rejected } = ordersFromCsv(text, 1);
  return { fileName, rows: orders.length + rejected.length, ready: orders.length, rejected };
}
