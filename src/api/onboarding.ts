import type { SetPasswordRequest } from "../../domain/contract/onboarding.ts";
import { call } from "./client.ts";

/** POST /courier/password {token, password}: 204 when the invited courier's password is set (no session, no CSRF token, like login). */
export async function setPassword(token: string, password: string): Promise<void> {
  const json: SetPasswordRequest = { token, password };
  await call((http) => http.post("courier/password", { json }));
}
