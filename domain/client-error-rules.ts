/**
 * The scrubbing rules of a client error report (POST /api/client_errors),
 * shared by the app, which scrubs before sending, and the server, which
 * scrubs again before logging. Framework-free and zod-free: the app's first
 * screen carries it. The request schema is domain/contract/client-errors.ts.
 */

export const CLIENT_ERROR_KINDS = ["render", "unhandled"] as const;
export type ClientErrorKind = (typeof CLIENT_ERROR_KINDS)[number];

/** Input limits: a report larger than these is refused, not cut. */
export const CLIENT_ERROR_LIMITS = { message: 2000, stack: 8000, url: 2048, bodyBytes: 16 * 1024 } as const;
/** What is kept of a report. */
export const KEPT_MESSAGE_CHARS = 200;
export const KEPT_FRAMES = 8;

/** A report as the app sends it. */
export interface ClientErrorReportBody {
  kind: ClientErrorKind;
  message: string;
  stack?: string | null;
  url: string;
}

/** A quoted stretch of text ('…', "…", `…`, curly quotes): JSON.parse and TypeErrors quote the data they choked on. */
const QUOTED = /(["'`\u2018\u2019\u201c\u201d])[^"'`\u2018\u2019\u201c\u201d]{0,400}\1|[\u201c\u2018][^\u201d\u2019]{0,400}[\u201d\u2019]/g;
const EMAIL = /[^\s@<>()]{0,64}@[^\s@<>()]{1,255}/g;
const DATE = /\b\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b/g;
/** Three or more digits, possibly split by spaces, dashes, dots or parentheses: phones, zips, street numbers, Rx and ID numbers. */
const NUMBER = /\(?\d[\d\s().-]{1,40}\d/g;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
/** Links carry their data in the path and query (React's minified errors put arguments there). */
const LINK = /\b[a-z][a-z0-9+.-]{1,20}:\/\/\S+/gi;

/**
 * Capitalised words an error message is made of. Any other capitalised word
 * ("Eleanor", "Abernathy", "Pine") may be a name or a street and is removed;
 * code identifiers with a capital inside (TypeError, OrderRow) are kept.
 */
const MESSAGE_WORDS = new Set(
  (
    "A An The I No Not Only Too More Fewer Cannot Can Could Failed Unexpected Uncaught Invalid Illegal Unknown Unable Missing Expected " +
    "Maximum Minimum Minified React Network Error Errors Load Loading Script Request Response Object Objects Array Promise Function " +
    "Symbol String Number Boolean Date Map Set Module Chunk Type Reference Range Syntax Timeout Aborted Abort Fetch Unauthorized " +
    "Forbidden Internal Server Service Unavailable Many Requests Rendered Rendering Render Hydration Text Element Node Document Window " +
    "Storage Quota Exceeded Permission Denied Security Operation Assignment Constant Variable Undefined Null Infinity NaN Call Stack " +
    "Size Out Memory Please Refresh Try Again Something Went Wrong Valid Children Component Hook Hooks During Previous Update Depth " +
    "Property Properties Access Accessing Content Read Write Lock Locks Worker Service Navigator Geolocation Position Camera Canvas " +
    "Blob File Image Failed Invariant Violation Warning Offline Online Connection Lost Retry Redirect Route Router Not Found " +
    "Payment Card Braintree Signature Pad Order Orders Pharmacy Delivery Session Login Logout"
  ).split(" "),
);
const CAPITALISED = /\p{Lu}[\p{Ll}\p{M}'’-]*/gu;

/** The message with quoted text, links, emails, dates, numbers and names removed, on one line, at most `max` characters. */
export function scrubMessage(text: string, max = KEPT_MESSAGE_CHARS): string {
  const scrubbed = text
    .replace(CONTROL, " ")
    .replace(LINK, "[link]")
    .replace(QUOTED, "[text]")
    .replace(EMAIL, "[email]")
    .replace(DATE, "[date]")
    // "#418" is an error code (React's), kept; any other run of three digits or more is data.
    .replace(NUMBER, (run, offset: number, whole: string) =>
      whole[offset - 1] === "#" || run.replace(/\D/g, "").length < 3 ? run : "[number]",
    )
    .replace(CAPITALISED, (word, offset: number, whole: string) => {
      // Part of a code identifier (TypeError, OrderRow, JSON): kept.
      if (/[\p{L}\d_$]/u.test(whole[offset + word.length] ?? "") || /[\p{L}\d_$]/u.test(whole[offset - 1] ?? "")) return word;
      return MESSAGE_WORDS.has(word) ? word : "[word]";
    })
    .replace(/\s+/g, " ")
    .trim();
  return scrubbed.length > max ? `${scrubbed.slice(0, max - 1)}…` : scrubbed;
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

/** What is kept and logged of a report. */
export interface ScrubbedClientError {
  kind: ClientErrorKind;
  message: string;
  route: string;
  frames: string[];
}

export function scrubClientError(report: ClientErrorReportBody): ScrubbedClientError {
  return {
    kind: report.kind,
    message: scrubMessage(report.message),
    route: routePattern(report.url),
    frames: stackFrames(report.stack),
  };
}
