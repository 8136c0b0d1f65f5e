import { z } from "zod";
import { Courier } from "./entities.ts";
import { StoredText } from "./scalars.ts";

export const LoginRequest = z.object({
  email: StoredText(254, { min: 1, tooShort: "Enter your email" }).pipe(z.email("Enter a valid email")),
  /** Not trimmed: every character of a password counts. */
  password: StoredText(200, { min: 1, trim: false, tooShort: "Enter your password" }),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const SessionResponse = z.object({
  courier: Courier,
  csrf_token: z.string(),
});
export type SessionResponse = z.infer<typeof SessionResponse>;
