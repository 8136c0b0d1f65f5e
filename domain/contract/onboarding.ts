import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "../password-rules.ts";

/**
 * POST /api/courier/password: an invited courier sets their password with the
 * token from the invitation (no session, no CSRF token, like login). The
 * password rule itself (domain/password-rules.ts passwordProblem) is checked
 * by the server after this shape, so its 400 carries the reason in words.
 * Answers 204 on success; 400 for a bad, used or expired token or a refused
 * password; 429 past the login rate limit.
 */
export const SetPasswordRequest = z.object({
  token: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .regex(/^[A-Za-z0-9_-]+$/, "must be the token from the invitation link"),
  // Not trimmed: a space is part of a passphrase.
  password: z.string().min(1, "Enter a password").max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`),
});
export type SetPasswordRequest = z.infer<typeof SetPasswordRequest>;
