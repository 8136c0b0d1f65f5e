import { z } from "zod";
import { Courier } from "./entities.ts";

export const LoginRequest = z.object({
  email: z.string().trim().min(1, "Enter your email").max(254).email("Enter a valid email"),
  password: z.string().min(1, "Enter your password").max(200),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const SessionResponse = z.object({
  courier: Courier,
  csrf_token: z.string(),
});
export type SessionResponse = z.infer<typeof SessionResponse>;
