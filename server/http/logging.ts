import type { FastifyRequest } from "fastify";
import { routePattern } from "../../domain/client-error-rules.ts";

/**
 * What the server's logs may hold: never patient data, ID numbers, card
 * data, passwords, session cookies or CSRF tokens (docs/security.md "Logs").
 *
 * - A request is logged as its method, its route pattern and numeric path
 *   ids, never the raw URL: a query string or an unknown path may carry
 *   anything a client typed. No headers, no body.
 * - An error keeps its type, code and message, with the data a driver puts
 *   in a message cut out: Drizzle appends the query's parameters
 *   ("params: Eleanor,Abernathy,…"), PostgreSQL quotes the offending value
 *   ('invalid input syntax for type date: "…"') and adds a detail line
 *   ("Failing row contains (…)"). Other properties of an error are dropped.
 * - Belt and braces, for anyone who logs a header or a body by hand: those
 *   paths are redacted wherever they appear.
 */

export const REDACTED = "[redacted]";

const REDACT_PATHS = [
  "headers.cookie",
  "headers.authorization",
  'headers["x-csrf-token"]',
  'headers["set-cookie"]',
  "*.headers.cookie",
  "*.headers.authorization",
  '*.headers["x-csrf-token"]',
  '*.headers["set-cookie"]',
  "cookie",
  "authorization",
  "body",
  "*.body",
  "payload",
  "*.payload",
  "password",
  "*.password",
  "csrf_token",
  "*.csrf_token",
  "csrfToken",
  "*.csrfToken",
  "_csrf_token",
  "*._csrf_token",
];

/** Only ids: a path parameter that is not a plain number is not logged. */
function numericParams(params: unknown): Record<string, number> | undefined {
  if (!params || typeof params !== "object") return undefined;
  const kept: Record<string, number> = {};
  for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
    if (typeof value === "string" && /^\d{1,10}$/.test(value)) kept[name] = Number(value);
    else if (typeof value === "number" && Number.isInteger(value)) kept[name] = value;
  }
  return Object.keys(kept).length ? kept : undefined;
}

export function serializeRequest(request: FastifyRequest) {
  const route = request.routeOptions?.url;
  const path = (request.url ?? "").split("?")[0] ?? "";
  return {
    method: request.method,
    // An unmatched path (a 404) is logged as a pattern too: only route words survive.
    route: route && route !== "/*" ? route : routePattern(path),
    params: route ? numericParams(request.params) : undefined,
    remoteAddress: request.ip,
  };
}

const KEPT_ERROR_FIELDS = ["code", "statusCode", "severity", "routine", "constraint", "table", "column", "errno"] as const;

/** The error's message without the data drivers put in it. */
export function scrubErrorText(text: string): string {
  return text
    .replace(/\nparams: [\s\S]*$/, "\nparams: [redacted]")
    .replace(/"(?:[^"\\]|\\.){0,2000}"/g, '"[redacted]"')
    .replace(/'(?:[^'\\]|\\.){0,2000}'/g, "'[redacted]'")
    .replace(/\(([^()]*)\)=\(([^()]*)\)/g, "($1)=([redacted])");
}

interface SerializedError {
  type: string;
  message: string;
  stack: string;
  [field: string]: unknown;
}

export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) {
    return { type: typeof error, message: typeof error === "string" ? scrubErrorText(error) : "[a non-Error was thrown]", stack: "" };
  }
  const serialized: SerializedError = {
    type: error.constructor?.name ?? "Error",
    message: scrubErrorText(error.message),
    // The stack's first line repeats the message: keep only the frames.
    stack: (error.stack ?? "")
      .split("\n")
      .filter((line) => /^\s+at /.test(line))
      .slice(0, 20)
      .join("\n"),
  };
  const fields = error as unknown as Record<string, unknown>;
  for (const field of KEPT_ERROR_FIELDS) {
    const value = fields[field];
    if (typeof value === "string" || typeof value === "number") serialized[field] = typeof value === "string" ? scrubErrorText(value) : value;
  }
  if (error.cause !== undefined && depth < 3) serialized.cause = serializeError(error.cause, depth + 1);
  return serialized;
}

export interface LogDestination {
  write(line: string): void;
}

/** Fastify's logger options: level, redaction, the serializers above, and an optional destination (tests). */
export function loggerOptions(level: string, stream?: LogDestination) {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      req: serializeRequest,
      err: (error: unknown) => serializeError(error),
      error: (error: unknown) => serializeError(error),
    },
    ...(stream ? { stream } : {}),
  };
}
