/**
 * What a client error report (POST /api/client_errors) may say, shared by the
 * app, which sends no more than this, and the server, which logs no more than
 * this whatever it is sent: the error's class name, code locations in our own
 * scripts and the route with its ids replaced. No free text from the phone,
 * so no spelling of a patient's name can leave it. Framework-free and zod-free:
 * the app's first screen carries it. The request schema is domain/contract/client-errors.ts.
 */

export const CLIENT_ERROR_KINDS = ["render", "unhandled"] as const;
export type ClientErrorKind = (typeof CLIENT_ERROR_KINDS)[number];

/** Input limits: a report larger than these is refused, not cut. */
export const CLIENT_ERROR_LIMITS = { message: 2000, stack: 8000, url: 2048, bodyBytes: 16 * 1024 } as const;
/** What is kept of a report. */
export const KEPT_FRAMES = 8;

/** A report as the app sends it. */
export interface ClientErrorReportBody {
  kind: ClientErrorKind;
  message: string;
  stack?: string | null;
  url: string;
}

/** A route word: /pharmacies, deliver_orders, verify-dob. Anything else in a path is data or an id. */
const ROUTE_WORD = /^[a-z][a-z_-]{0,39}$/;

/** The page's path with ids replaced by :id; query string and fragment dropped. */
export function routePattern(url: string): string {
  let pathname: string;
  try {
    pathname = new URL(url, "http://client.invalid").pathname;
  } catch {
    return "/:unknown";
  }
  const segments = pathname.split("/").filter(Boolean).slice(0, 12);
  return `/${segments.map((segment) => (ROUTE_WORD.test(segment) ? segment : ":id")).join("/")}`;
}

/** Chrome "at fn (url:line:col)" / "at url:line:col"; Firefox and Safari "fn@url:line:col". */
const V8_FRAME = /^\s*at\s+(?:(.+?)\s+\()?(.+?):(\d{1,7}):(\d{1,7})\)?\s*$/;
const GECKO_FRAME = /^\s*([^@\s]*)@(.+?):(\d{1,7}):(\d{1,7})\s*$/;
const FUNCTION_NAME = /^[A-Za-z_$][\w$.<>]{0,79}$/;
const SCRIPT_PATH = /^\/[\w./@-]{0,200}$/;

/** Code locations only ("fn /assets/index-abc.js:1:2345"): no text of the message, no query strings. */
export function stackFrames(stack: string | null | undefined, max = KEPT_FRAMES): string[] {
  if (!stack) return [];
  const frames: string[] = [];
  for (const line of stack.split("\n")) {
    const match = V8_FRAME.exec(line) ?? GECKO_FRAME.exec(line);
    if (!match) continue;
    const [, name, location, row, column] = match;
    let path: string;
    try {
      path = new URL(location!, "http://client.invalid").pathname;
    } catch {
      continue;
    }
    if (!SCRIPT_PATH.test(path)) continue;
    const fn = name && FUNCTION_NAME.test(name.replace(/^async /, "")) ? name.replace(/^async /, "") : "?";
    frames.push(`${fn} ${path}:${row}:${column}`);
    if (frames.length >= max) break;
  }
  return frames;
}

// ---------------------------------------------------------------- what the server logs

/** "TypeError: …", "ChunkLoadError: …": the error's class name, the one word of the message that is ours to log. */
const ERROR_NAME = /^\s*([A-Z][A-Za-z]{0,40}(?:Error|Exception))(?=[:\s]|$)/;
/** Our own built scripts: the frames from anything else (extensions, injected code) are not kept. */
const OWN_SCRIPT = /^\/(?:assets|src)\/[\w./@-]{1,200}$/;
const LOCATION = /^(?:.* )?(\/[^\s]+):(\d{1,7}):(\d{1,7})$/;

/** The error's class name when the text starts with one ("TypeError: …"), else "Error". */
export function errorName(text: string): string {
  return ERROR_NAME.exec(text)?.[1] ?? "Error";
}

/**
 * What the server logs of a report (issue 14 finding 7): no free text from the
 * phone at all, so no spelling of a patient's name can reach the log. The
 * error's class name when the message starts with one ("Error" otherwise), the
 * frames in our own scripts as path:line:column (no function names), and the
 * route with its ids replaced.
 */
export interface LoggedClientError {
  kind: ClientErrorKind;
  error_name: string;
  route: string;
  frames: string[];
}

export function clientErrorLogRecord(report: ClientErrorReportBody): LoggedClientError {
  const frames = stackFrames(report.stack)
    .map((frame) => LOCATION.exec(frame))
    .filter((match): match is RegExpExecArray => match !== null && OWN_SCRIPT.test(match[1]!))
    .map(([, path, row, column]) => `${path}:${row}:${column}`);
  return {
    kind: report.kind,
    error_name: errorName(report.message),
    route: routePattern(report.url),
    frames,
  };
}
