import { createHash, randomBytes } from "node:crypto";
import { signerFactory } from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import { cookieIsSecure } from "./plugin.ts";

/**
 * Device cookies (OWASP, "Slow down online guessing attacks with device
 * cookies"): a browser that logged into an account gets a cookie that names
 * the account and a nonce, signed by the server. While that account is being
 * guessed at from elsewhere, a browser presenting its cookie is still let in,
 * with a limit of its own (server/auth/login-limits.ts).
 *
 * Value: `<nonce>.<account tag>.<HMAC-SHA256>` — @fastify/cookie's signer over
 * the first two parts. The account tag is a digest of the account key, so the
 * cookie binds one account without carrying its email. Only the login route
 * ever receives it (Path), never script (HttpOnly), never another site (SameSite).
 */

export const DEVICE_COOKIE = "rxc_device";
const DEVICE_COOKIE_PATH = "/api/sessions";
/** A year: long enough that a courier's own phone stays known between seasons. */
const DEVICE_COOKIE_DAYS = 365;

const accountTag = (account: string) => createHash("sha256").update(account).digest("base64url").slice(0, 22);

export interface DeviceCookies {
  /** The device id of a validly signed cookie issued for this account; null for none, another account's, or a forged one. */
  known(request: FastifyRequest, account: string): string | null;
  /** A fresh cookie (a new nonce) for the account, after a successful login. */
  issue(request: FastifyRequest, reply: FastifyReply, account: string): void;
}

/** `path`: the login route the cookie goes to (the courier's; the console's is /api/ops/v1/sessions, issue 27). */
export function deviceCookies(secret: string, path = DEVICE_COOKIE_PATH): DeviceCookies {
  const signer = signerFactory(secret, "sha256");
  return {
    known(request, account) {
      const raw = request.cookies[DEVICE_COOKIE];
      if (!raw) return null;
      const unsigned = signer.unsign(raw);
      if (!unsigned.valid) return null;
      const [nonce, tag, extra] = unsigned.value.split(".");
      if (!nonce || extra !== undefined || tag !== accountTag(account)) return null;
      return nonce;
    },
    issue(request, reply, account) {
      const nonce = randomBytes(16).toString("base64url");
      reply.setCookie(DEVICE_COOKIE, signer.sign(`${nonce}.${accountTag(account)}`), {
        path,
        httpOnly: true,
        sameSite: "strict",
        secure: cookieIsSecure(request),
        maxAge: DEVICE_COOKIE_DAYS * 24 * 60 * 60,
      });
    },
  };
}
