/**
 * The schema-driven hostile sweep (issue 14): every operation in /api/openapi.json,
 * every field of its body, path and query, gets every class of hostile value.
 * Nothing here names an endpoint: a new operation is swept because it is in the
 * document. Authentication is chosen by path prefix (sweepAuthFor).
 */

import { jpegDeclaring, pngBomb } from "./test-images.ts";

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  minItems?: number;
  minimum?: number;
  exclusiveMinimum?: number;
};

export interface Operation {
  method: string;
  path: string;
  parameters: { in: string; name: string; schema: JsonSchema; required?: boolean }[];
  /** The body schema per media type. */
  bodies: Record<string, JsonSchema>;
}

export function operationsOf(document: { paths: Record<string, Record<string, { parameters?: Operation["parameters"]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const bodies = Object.fromEntries(Object.entries(operation.requestBody?.content ?? {}).map(([type, { schema }]) => [type, schema]));
      operations.push({ method: method.toUpperCase(), path, parameters: operation.parameters ?? [], bodies });
    }
  }
  return operations;
}

/** A value a hostile request puts in a field; `invalid` ones must be refused (4xx) wherever they go. */
export interface Hostile {
  name: string;
  value: unknown;
  invalid: boolean;
}

const MEGABYTE = "a".repeat(1024 * 1024);

/** Every class the issue names, whatever the field's declared type: a wrong type is one of the classes. */
export const HOSTILE_VALUES: Hostile[] = [
  { name: "NUL", value: "a\u0000b", invalid: true },
  { name: "control character", value: "a\u0001b", invalid: true },
  { name: "escape sequence", value: "\u001b[31mred", invalid: true },
  { name: "lone surrogate", value: "a\uD800b", invalid: true },
  { name: "1 MB string", value: MEGABYTE, invalid: true },
  { name: "instant year 0", value: "0000-01-01T00:00:00Z", invalid: false },
  { name: "instant year 1 +14:00", value: "0001-01-01T00:00:00+14:00", invalid: false },
  { name: "instant year 9999 -23:59", value: "9999-12-31T23:59:59-23:59", invalid: false },
  // Issue 24 §3: dates PostgreSQL cannot store (year 0000: 22008) or that no rule accepts; a 500 anywhere fails the sweep.
  { name: "date year 0000", value: "0000-01-01", invalid: false },
  { name: "date before 1900", value: "1899-12-31", invalid: false },
  { name: "date after 2100", value: "2101-01-01", invalid: false },
  { name: "date year 9999", value: "9999-12-31", invalid: false },
  { name: "date year 10000", value: "+010000-01-01", invalid: false },
  { name: "money at the ceiling", value: "99999.99", invalid: false },
  { name: "money past the ceiling", value: "100000.00", invalid: false },
  { name: "money past int4", value: "21474836.48", invalid: false },
  { name: "money past safe integers", value: "90071992547409.91", invalid: false },
  { name: "money of 20 digits", value: "99999999999999999999.99", invalid: false },
  { name: "huge integer", value: 2 ** 31, invalid: false },
  { name: "unsafe integer", value: 2 ** 53 + 1, invalid: false },
  { name: "1e308", value: 1e308, invalid: false },
  { name: "negative", value: -1, invalid: false },
  { name: "fraction", value: 0.5, invalid: false },
  { name: "huge integer as text", value: "99999999999999999999", invalid: false },
  { name: "object", value: { a: 1 }, invalid: false },
  { name: "array", value: ["a"], invalid: false },
  { name: "boolean", value: true, invalid: false },
  { name: "null", value: null, invalid: false },
];

const svgOf = (attributes: string, inner: string) => `<svg xmlns="http://www.w3.org/2000/svg" ${attributes}>${inner}</svg>`;
const PAD = 'viewBox="0 0 354 200" width="354" height="200"';
const STROKE = '<path d="M 20,150 C 60,40 90,40 110,120" stroke-width="3" stroke="black" fill="none"/>';

/**
 * Issue 24 §2: signatures whose numbers a PDF cannot write (pdfkit's
 * `unsupported number`) or a viewer cannot draw. `refused`: a 400 at upload;
 * the others are accepted and drawn. Every one must be answered without a 5xx
 * wherever a signature goes, and none may ever make a later proof fail.
 */
export const HOSTILE_SIGNATURES: { name: string; svg: string; refused: boolean }[] = [
  { name: "coordinate 1e21", svg: svgOf(PAD, '<path d="M0 0 L1e21 0" stroke="black"/>'), refused: true },
  { name: "coordinate -1e21", svg: svgOf(PAD, '<path d="M0 0 L-1e21 0" stroke="black"/>'), refused: true },
  { name: "coordinate 1e999 (Infinity)", svg: svgOf(PAD, '<line x1="0" y1="0" x2="1e999" y2="0" stroke="black"/>'), refused: true },
  { name: "polyline point 1e21", svg: svgOf(PAD, '<polyline points="0,0 1e21,5" stroke="black"/>'), refused: true },
  { name: "viewBox of 1e-300", svg: svgOf('viewBox="0 0 1e-300 1e-300"', STROKE), refused: true },
  { name: "viewBox of -1e-300", svg: svgOf('viewBox="0 0 -1e-300 -1e-300"', STROKE), refused: true },
  { name: "viewBox at 1e21", svg: svgOf('viewBox="1e21 1e21 354 200"', STROKE), refused: true },
  { name: "viewBox of 1e21", svg: svgOf('viewBox="0 0 1e21 1e21"', STROKE), refused: true },
  { name: "width of 1e-300 (no viewBox)", svg: svgOf('width="1e-300" height="1e-300"', STROKE), refused: true },
  { name: "stroke-width 1e30", svg: svgOf(PAD, '<path d="M0 0 L5 5" stroke="black" stroke-width="1e30"/>'), refused: true },
  { name: "stroke-width -1e30", svg: svgOf(PAD, '<path d="M0 0 L5 5" stroke="black" stroke-width="-1e30"/>'), refused: true },
  { name: "r 1e300", svg: svgOf(PAD, '<circle cx="5" cy="5" r="1e300" fill="black"/>'), refused: true },
  { name: "r -1e300", svg: svgOf(PAD, '<circle cx="5" cy="5" r="-1e300" fill="black"/>'), refused: true },
  { name: "cx 1e300", svg: svgOf(PAD, '<circle cx="1e300" cy="5" r="3" fill="black"/>'), refused: true },
  { name: "a coordinate of 1e-300 (rounds to 0)", svg: svgOf(PAD, `<path d="M0 0 L1e-300 150" stroke="black"/>${STROKE}`), refused: false },
  { name: "a stroke just outside the pad", svg: svgOf(PAD, '<path d="M-20 -10 L370 210" stroke="black" stroke-width="4"/>'), refused: false },
];

/**
 * Issue 24 §1: photos whose header declares more than the server decodes
 * (40 megapixels, 12,000 px a side). `words`: what the 400 names.
 */
export const HOSTILE_PHOTOS: { name: string; bytes: () => Buffer; words: string }[] = [
  { name: "a tiny PNG declaring 30000×30000 RGBA", bytes: () => pngBomb(30_000, 30_000), words: "30000×30000 pixels" },
  { name: "a JPEG declaring 30000×30000", bytes: () => jpegDeclaring(30_000, 30_000), words: "30000×30000 pixels" },
  { name: "a JPEG 12,001 px wide", bytes: () => jpegDeclaring(12_001, 10), words: "12001×10 pixels" },
  { name: "a PNG of 7000×7000 (49 megapixels)", bytes: () => pngBomb(7_000, 7_000), words: "7000×7000 pixels" },
];

/** What multipart can carry: text only (a lone surrogate becomes U+FFFD on the way, so it is not a refusal there). */
export const HOSTILE_FORM_VALUES: Hostile[] = HOSTILE_VALUES.filter((hostile) => typeof hostile.value === "string").map((hostile) =>
  hostile.name === "lone surrogate" ? { ...hostile, invalid: false } : hostile,
);

/** Path and query parameters travel as URL text. */
export const HOSTILE_URL_VALUES: Hostile[] = [
  { name: "NUL", value: "%00", invalid: true },
  { name: "control character", value: "%01", invalid: true },
  { name: "lone surrogate", value: "%ED%A0%80", invalid: true },
  { name: "huge integer", value: "99999999999999999999", invalid: true },
  { name: "int4 + 1", value: "2147483648", invalid: true },
  { name: "negative", value: "-1", invalid: true },
  { name: "fraction", value: "1.5", invalid: true },
  // Issue 24 §9: an id is decimal digits only ("0x10" was read as 16, "1e3" as 1000, " 1" as 1).
  { name: "exponent", value: "1e3", invalid: true },
  { name: "hexadecimal", value: "0x10", invalid: true },
  { name: "leading space", value: "%201", invalid: true },
  { name: "plus sign", value: "%2B1", invalid: true },
  { name: "past int4, 11 digits", value: "99999999999", invalid: true },
  { name: "date year 0000", value: "0000-01-01", invalid: false },
  { name: "date year 9999", value: "9999-12-31", invalid: false },
  { name: "text", value: "abc", invalid: true },
  { name: "64 KB", value: "9".repeat(65_536), invalid: true },
];

/**
 * Issue 24 §4: IPv6 spellings of a private, loopback, link-local, CGNAT,
 * multicast, unspecified or reserved IPv4 address. A webhook URL on any of
 * them is refused at subscription and at send (unless WEBHOOK_ALLOW_PRIVATE).
 * Each is a URL host as written in brackets.
 */
export const HOSTILE_WEBHOOK_HOSTS: { name: string; host: string }[] = [
  { name: "IPv4-compatible loopback", host: "[::127.0.0.1]" },
  { name: "IPv4-compatible metadata", host: "[::169.254.169.254]" },
  { name: "IPv4-compatible loopback in hex", host: "[::7f00:1]" },
  { name: "IPv4-mapped loopback", host: "[::ffff:127.0.0.1]" },
  { name: "IPv4-mapped loopback in hex", host: "[::ffff:7f00:1]" },
  { name: "IPv4-mapped metadata", host: "[0:0:0:0:0:ffff:a9fe:a9fe]" },
  { name: "IPv4-mapped unspecified", host: "[::ffff:0.0.0.0]" },
  { name: "SIIT loopback", host: "[::ffff:0:7f00:1]" },
  { name: "SIIT private", host: "[::ffff:0:10.0.0.1]" },
  { name: "NAT64 well-known loopback", host: "[64:ff9b::7f00:1]" },
  { name: "NAT64 well-known metadata", host: "[64:ff9b::169.254.169.254]" },
  { name: "NAT64 well-known CGNAT", host: "[64:ff9b::100.64.0.1]" },
  { name: "NAT64 local-use loopback", host: "[64:ff9b:1::7f00:1]" },
  { name: "6to4 loopback", host: "[2002:7f00:1::1]" },
  { name: "6to4 private", host: "[2002:c0a8:101::]" },
  { name: "6to4 reserved", host: "[2002:f000:1::1]" },
  { name: "Teredo client loopback", host: "[2001:0:4136:e378:8000:63bf:80ff:fffe]" },
  { name: "Teredo server private", host: "[2001:0:a00:1::f7f7:f7f7]" },
  { name: "IPv4-compatible multicast", host: "[::224.0.0.1]" },
];

/** The same transition forms carrying a public IPv4 address (or none): still allowed. */
export const PUBLIC_WEBHOOK_HOSTS: string[] = [
  "[::ffff:8.8.8.8]",
  "[64:ff9b::808:808]",
  "[2002:808:808::1]",
  "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
  "[2001:4860:4860::8888]",
];

const branches = (schema: JsonSchema): JsonSchema[] => schema.anyOf ?? schema.oneOf ?? [schema];
const typeOf = (schema: JsonSchema): string | undefined => (Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type);

/** A plausible value for the schema: the frame the hostile value is put into. Optional fields are left out. */
export function baselineValue(schema: JsonSchema, context: { svg: string }): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf || schema.oneOf) {
    const options = branches(schema).filter((branch) => typeOf(branch) !== "null");
    return baselineValue(options[0] ?? {}, context);
  }
  switch (typeOf(schema)) {
    case "object": {
      const properties = schema.properties ?? {};
      if ("filename" in properties && "content" in properties) return { filename: "signature.svg", type: "image/svg+xml", content: context.svg };
      return Object.fromEntries((schema.required ?? []).map((key) => [key, baselineValue(properties[key] ?? {}, context)]));
    }
    case "array":
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => baselineValue(schema.items ?? {}, context));
    case "integer":
    case "number":
      return Math.max(1, schema.minimum ?? 1);
    case "boolean":
      return true;
    case "string":
      if (schema.format === "date-time") return new Date(Date.now() - 60_000).toISOString();
      if (schema.format === "email") return "courier@example.com";
      if (schema.pattern === "^\\d+\\.\\d{2}$") return "1.00";
      if (schema.pattern && /\\d/.test(schema.pattern)) return "1";
      return "x".repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return "x";
  }
}

/** Every field the schema names, as a path of keys (array items as index 0), including optional ones. */
export function fieldPaths(schema: JsonSchema, prefix: (string | number)[] = []): (string | number)[][] {
  const found: (string | number)[][] = [];
  for (const branch of branches(schema)) {
    if (branch.properties) {
      for (const [key, child] of Object.entries(branch.properties)) {
        found.push([...prefix, key]);
        found.push(...fieldPaths(child, [...prefix, key]));
      }
    }
    if (branch.items) {
      found.push([...prefix, 0]);
      found.push(...fieldPaths(branch.items, [...prefix, 0]));
    }
  }
  const seen = new Set<string>();
  return found.filter((path) => {
    const key = JSON.stringify(path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The value with `path` set to `leaf`, creating the objects and lists on the way. */
export function withField(value: unknown, path: (string | number)[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  if (typeof head === "number") {
    const list = Array.isArray(value) ? [...(value as unknown[])] : [];
    list[head] = withField(list[head], rest, leaf);
    return list;
  }
  const object = value && typeof value === "object" && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
  object[head!] = withField(object[head!], rest, leaf);
  return object;
}
