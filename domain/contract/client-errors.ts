import { z } from "zod";
import { CLIENT_ERROR_KINDS, CLIENT_ERROR_LIMITS } from "../client-error-rules.ts";
import { StoredText } from "./scalars.ts";

export * from "../client-error-rules.ts";

/**
 * POST /api/client_errors: the app reports its render failures and
 * unexpected errors (spec §7 "Error reporting is active except on the local
 * host"). A report must never carry patient data, so both sides scrub it with
 * the same rules (domain/client-error-rules.ts): the app before sending, the
 * server again before logging. What is kept: the kind, the message with
 * anything data-like removed, the route with every id (and anything that is
 * not a route word) replaced by :id, and code locations from the stack.
 */
export const ClientErrorReport = z
  .object({
    kind: z.enum(CLIENT_ERROR_KINDS, { error: "must be render or unhandled" }),
    message: StoredText(CLIENT_ERROR_LIMITS.message, { min: 1, multiline: true }),
    stack: StoredText(CLIENT_ERROR_LIMITS.stack, { multiline: true, trim: false }).nullish(),
    url: StoredText(CLIENT_ERROR_LIMITS.url, { min: 1 }),
  })
  .strict();
export type ClientErrorReport = z.infer<typeof ClientErrorReport>;
