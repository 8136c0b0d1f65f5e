import type { z } from "zod";

/**
 * The product's words for zod's own refusals (issue 25): an integrator reads
 * "phone_number is required", not "Invalid input: expected string, received
 * undefined". Passed as the per-parse error map wherever a request is checked
 * (the API's validator, a batch's rows, the CLI's CSV rows); a message a schema
 * states itself ("must be a ZIP code …") wins over these. Each phrase follows
 * the field's name: `${field} ${phrase}` (fieldSentence).
 */
export const issueWords: z.core.$ZodErrorMap = (issue) => {
  if (issue.input === undefined && (issue.code === "invalid_type" || issue.code === "invalid_union")) return "is required";
  switch (issue.code) {
    case "invalid_type":
      return typeWords(issue.expected, issue.input);
    case "too_big":
      return sizeWords("at most", issue.origin, issue.maximum, issue.inclusive !== false, "less than");
    case "too_small":
      if (issue.origin === "string" && Number(issue.minimum) <= 1) return "must not be empty";
      return sizeWords("at least", issue.origin, issue.minimum, issue.inclusive !== false, "greater than");
    case "invalid_value":
      return issue.values.length === 1 ? `must be ${show(issue.values[0])}` : `must be one of ${issue.values.map(show).join(", ")}`;
    case "unrecognized_keys":
      return `has ${issue.keys.length === 1 ? "an unknown field" : "unknown fields"} ${issue.keys.map((key) => `"${key}"`).join(", ")}`;
    case "invalid_format":
      return formatWords(issue.format);
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "invalid_union":
      return "is not in any of the accepted forms";
    case "invalid_key":
      return "has a key that is not valid";
    case "invalid_element":
      return "has an entry that is not valid";
    default:
      return "is not valid";
  }
};

function typeWords(expected: string, input: unknown): string {
  if (input === null) return "must not be null";
  switch (expected) {
    case "string":
      return "must be text";
    case "number":
      return "must be a number";
    case "int":
      return "must be a whole number";
    case "boolean":
      return "must be true or false";
    case "array":
    case "tuple":
      return "must be a list";
    case "object":
    case "record":
      return "must be an object";
    case "null":
      return "must be null";
    default:
      return `must be ${expected}`;
  }
}

function sizeWords(bound: string, origin: string, limit: number | bigint, inclusive: boolean, strict: string): string {
  switch (origin) {
    case "string":
      return `must be ${bound} ${limit} character${limit === 1 ? "" : "s"}`;
    case "array":
    case "set":
      return `must have ${bound} ${limit} item${limit === 1 ? "" : "s"}`;
    case "file":
      return `must be ${bound} ${limit} bytes`;
    default:
      return inclusive ? `must be ${bound} ${limit}` : `must be ${strict} ${limit}`;
  }
}

function formatWords(format: string): string {
  switch (format) {
    case "regex":
      return "is not in the expected format";
    case "datetime":
      return "must be an ISO 8601 time";
    case "date":
      return "must be a date as YYYY-MM-DD";
    case "email":
      return "must be an email address";
    case "url":
      return "must be a URL";
    default:
      return `must be a valid ${format}`;
  }
}

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * One refusal as a sentence naming the field: "phone_number is required",
 * "address.zipcode must be a ZIP code …"; `where` names the part of the
 * request when it is not the body ("query parameter", "path parameter").
 */
export function fieldSentence(path: readonly PropertyKey[], phrase: string, where?: string): string {
  const field = path.map(String).join(".");
  if (!field) return `The ${where ?? "request body"} ${phrase}`;
  return `${where ? `${capitalise(where)} ` : ""}${field} ${phrase}`;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
