import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "../http/errors.ts";
import { isOpsUrl } from "../http/ops-url.ts";
import type { ActiveSession, SessionStore } from "./session-store.ts";
import { sameToken } from "./tokens.ts";

export const SESSION_COOKIE = "rxc_session";

declare module "fastify" {
  interface FastifyContextConfig {
    /** No session needed (login, health, OpenAPI). */
    public?: boolean;
    /** Skip the CSRF check: only login, which has no token yet. */
    csrf?: false;
  }
  interface FastifyRequest {
    session: ActiveSession | null;
  }
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** Secure cookies everywhere but on a developer's own machine (behind TLS in production). */
export function cookieIsSecure(request: FastifyRequest): boolean {
  return request.protocol === "https" || !LOOPBACK.has(request.hostname.replace(/:\d+$/, ""));
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expires: Date): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: cookieIsSecure(request),
    expires,
  });
}

/** What a login needs of a session store (the courier's or the console's staff sessions). */
interface LoginSessions {
  destroyToken(token: string): Promise<void>;
  create(accountId: number): Promise<{ token: string; csrfToken: string; expiresAt: Date }>;
}

/**
 * The session a login opens, its cookie set; answers its CSRF token. A new
 * session id at every login: a planted cookie never becomes a logged-in one.
 */
export async function openLoginSession(
  request: FastifyRequest,
  reply: FastifyReply,
  login: { sessions: LoginSessions; cookie: string; setCookie: typeof setSessionCookie; accountId: number },
): Promise<string> {
  const previous = request.cookies[login.cookie];
  if (previous) await login.sessions.destroyToken(previous);
  const session = await login.sessions.create(login.accountId);
  login.setCookie(request, reply, session.token, session.expiresAt);
  return session.csrfToken;
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure: cookieIsSecure(request) });
}

/** The courier behind the request; only called on routes that require a session. */
export function currentSession(request: FastifyRequest): ActiveSession {
  if (!request.session) throw new HttpError(401, "unauthenticated", "Please log in.");
  return request.session;
}

function csrfFromBody(body: unknown): string | undefined {
  if (body && typeof body === "object" && "_csrf_token" in body) {
    const value = (body as Record<string, unknown>)._csrf_token;
    return typeof value === "string" ? value : undefined;
  }
  return undefined;
}

export function installAuth(app: FastifyInstance, store: SessionStore): void {
  app.decorateRequest("session", null);

  app.addHook("onRequest", async (request) => {
    // The operations API authenticates with Bearer keys only (server/ops/auth.ts): the cookie is not read there.
    if (!request.url.startsWith("/api/") || isOpsUrl(request.url)) return;
    const token = request.cookies[SESSION_COOKIE];
    request.session = token ? await store.find(token) : null;
    const config = request.routeOptions.config;
    if (!config?.public && request.routeOptions.url && !request.session) {
      throw new HttpError(401, "unauthenticated", "Please log in.");
    }
  });

  // After the body is parsed (multipart forms may carry _csrf_token) and before it is validated.
  app.addHook("preValidation", async (request) => {
    if (!MUTATING.has(request.method) || request.routeOptions.config?.csrf === false) return;
    if (!request.session) return;
    const header = request.headers["x-csrf-token"];
    const sent = (typeof header === "string" ? header : undefined) ?? csrfFromBody(request.body);
    if (!sent || !sameToken(sent, request.session.csrfToken)) {
      throw new HttpError(403, "csrf", "The security token is missing or out of date. Please refresh and try again.");
    }
  });
}
