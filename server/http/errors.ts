import type { FastifyError, FastifyInstance } from "fastify";
import type { ErrorBody } from "../../domain/contract/common.ts";
import { fieldSentence } from "../../domain/contract/issue-words.ts";
import type { FieldIssue } from "./validator.ts";

/** A refusal the product means to give: status, stable code, and words for a person. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorBody["details"],
    /** Sent with the refusal, e.g. Retry-After on a 429 or 503. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new HttpError(404, "not_found", `${what} was not found.`);
export const conflict = (message: string) => new HttpError(409, "conflict", message);
export const badRequest = (message: string, details?: ErrorBody["details"]) =>
  new HttpError(400, "invalid_request", message, details);

const FASTIFY_CODES: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: "malformed_json", message: "The request body is not valid JSON." },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: "malformed_json", message: "The request body is empty but JSON was declared." },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: "body_too_large", message: "The request body is too large." },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: "unsupported_media_type", message: "Send the request body as JSON." },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: "invalid_request", message: "The request body length is wrong." },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: "body_too_large", message: "The uploaded file is too large." },
  FST_PARTS_LIMIT: { status: 413, code: "body_too_large", message: "The form has too many parts." },
  FST_FILES_LIMIT: { status: 413, code: "body_too_large", message: "The form has too many files." },
  FST_FIELDS_LIMIT: { status: 413, code: "body_too_large", message: "The form has too many fields." },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, code: "unsupported_media_type", message: "Send the form as multipart/form-data." },
};

/** The part of a request a refused value came from, in the message; the body's fields are named alone. */
const WHERE: Record<string, string | undefined> = { querystring: "query parameter", params: "path parameter", headers: "header" };

/** One place turns every failure into a clear JSON body; nothing leaks a stack trace. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) void reply.headers(error.headers);
      return reply.status(error.statusCode).send({ error: error.code, message: error.message, details: error.details });
    }
    if (error.code === "FST_ERR_VALIDATION" && Array.isArray(error.validation)) {
      const context = error.validationContext ?? "body";
      const issues = error.validation as unknown as FieldIssue[];
      const details = issues.map((issue) => ({
        path: [context, ...issue.path.map(String)].join("."),
        message: issue.message ?? "is invalid",
      }));
      const first = issues[0];
      return reply.status(400).send({
        error: "invalid_request",
        message: first ? `${fieldSentence(first.path, first.message, WHERE[context])}.` : "The request is invalid.",
        details,
      });
    }
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) return reply.status(known.status).send({ error: known.code, message: known.message });
    if (error.statusCode === 429) {
      return reply.status(429).send({ error: "rate_limited", message: "Too many attempts. Please wait a minute and try again." });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ error: "invalid_request", message: "The request is invalid." });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send({ error: "internal", message: "Something went wrong. Please try again." });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ error: "not_found", message: `No route ${request.method} ${request.url.split("?")[0]}.` });
  });
}
