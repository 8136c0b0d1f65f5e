import { eq } from "drizzle-orm";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, expect, it } from "vitest";
import { API_MEDIA_TYPE } from "../../domain/contract/common.ts";
import { buildApp } from "../../server/app.ts";
import { hashToken } from "../../server/auth/tokens.ts";
import { loadConfig } from "../../server/config.ts";
import { sessions } from "../../server/db/schema.ts";
import { DEMO_PASSWORD, describeApi, TEST_DAY } from "../support/api-harness.ts";

/**
 * docs/security.md "Sessions": a new session id at every login, the cookie
 * is HttpOnly/SameSite=Lax (Secure behind TLS), the CSRF token belongs to
 * one session, and logout, the idle limit (SESSION_IDLE_MINUTES) and the
 * absolute limit (SESSION_ABSOLUTE_HOURS) end the session on the server, not
 * just in the browser.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Login {
  response: LightMyRequestResponse;
  token: string;
  csrf: string;
}

async function login(app: FastifyInstance, cookie?: string, headers: Record<string, string> = {}): Promise<Login> {
  const response = await app.inject({
    method: "POST",
    url: "/api/sessions",
    headers: { accept: API_MEDIA_TYPE, "content-type": "application/json", ...(cookie ? { cookie } : {}), ...headers },
    payload: JSON.stringify({ email: "courier@example.com", password: DEMO_PASSWORD }),
  });
  expect(response.statusCode, response.body).toBe(200);
  const token = response.cookies.find((c) => c.name === "rxc_session")!.value;
  return { response, token, csrf: (response.json() as { csrf_token: string }).csrf_token };
}

const current = (app: FastifyInstance, token: string) =>
  app.inject({ method: "GET", url: "/api/sessions/current", headers: { accept: API_MEDIA_TYPE, cookie: `rxc_session=${token}` } });

describeApi("session lifetime", (api) => {
  const db = () => api().database.db;
  const row = async (token: string) => (await db().select().from(sessions).where(eq(sessions.idHash, hashToken(token))))[0];
  const extraApps: FastifyInstance[] = [];
  afterAll(async () => {
    for (const app of extraApps) await app.close();
  });

  it("keeps only the sha256 of the session id, and a fresh id and CSRF token at every login", async () => {
    const first = await login(api().app);
    const second = await login(api().app);
    expect(second.token).not.toBe(first.token);
    expect(second.csrf).not.toBe(first.csrf);
    expect(await row(first.token)).toBeDefined();
    expect(await db().select().from(sessions).where(eq(sessions.idHash, first.token))).toEqual([]);
    expect(first.token.length).toBeGreaterThanOrEqual(43);
  });

  it("rotates the id at login: the cookie the browser already had (planted or old) is not the one it gets, and the old one is dead", async () => {
    const old = await login(api().app);
    const rotated = await login(api().app, `rxc_session=${old.token}`);
    expect(rotated.token).not.toBe(old.token);
    expect((await current(api().app, old.token)).statusCode).toBe(401);
    expect(await row(old.token)).toBeUndefined();
    expect((await current(api().app, rotated.token)).statusCode).toBe(200);

    const planted = "attacker-chosen-session-id-0123456789abcdef";
    const victim = await login(api().app, `rxc_session=${planted}`);
    expect(victim.token).not.toBe(planted);
    expect((await current(api().app, planted)).statusCode).toBe(401);
  });

  it("sets the cookie HttpOnly, SameSite=Lax, Path=/, expiring at the absolute limit; Secure once the host is not the local one", async () => {
    const local = await login(api().app);
    const cookie = local.response.cookies.find((c) => c.name === "rxc_session")!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(cookie.secure).toBeFalsy();
    const expires = new Date(cookie.expires!).getTime();
    expect(Math.abs(expires - (Date.now() + 16 * HOUR))).toBeLessThan(5 * MINUTE);

    const remote = await login(api().app, undefined, { host: "courier.example.com" });
    expect(remote.response.cookies.find((c) => c.name === "rxc_session")!.secure).toBe(true);
  });

  it("behind a TLS-terminating load balancer (TRUST_PROXY=true) the cookie is Secure; X-Forwarded-Proto is ignored when the proxy is not trusted", async () => {
    const forwarded = { host: "127.0.0.1:3000", "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9" };
    const untrusted = await login(api().app, undefined, forwarded);
    expect(untrusted.response.cookies.find((c) => c.name === "rxc_session")!.secure).toBeFalsy();

    const config = { ...loadConfig({ TRUST_PROXY: "true" }), webRoot: "/nonexistent", loginAttemptsPerMinute: 1000, loginAttemptsPerAddressPerMinute: 1000 };
    const app = await buildApp({ config, database: api().database, today: () => TEST_DAY, logger: false });
    extraApps.push(app);
    await app.ready();
    const trusted = await login(app, undefined, forwarded);
    expect(trusted.response.cookies.find((c) => c.name === "rxc_session")!.secure).toBe(true);
  });

  it("limits login attempts to LOGIN_ATTEMPTS_PER_MINUTE per email from any address, then 429 in words with Retry-After", async () => {
    const config = { ...loadConfig({ LOGIN_ATTEMPTS_PER_MINUTE: "3" }), webRoot: "/nonexistent" };
    const app = await buildApp({ config, database: api().database, today: () => TEST_DAY, logger: false });
    extraApps.push(app);
    await app.ready();
    // The counts live in the shared database: emails of this test only, so other tests' logins do not count here.
    const attempt = (email: string, remoteAddress = "10.7.0.1") =>
      app.inject({
        method: "POST",
        url: "/api/sessions",
        remoteAddress,
        headers: { accept: API_MEDIA_TYPE, "content-type": "application/json" },
        payload: JSON.stringify({ email, password: "guess" }),
      });
    for (let i = 0; i < 3; i++) expect((await attempt("limit-one@example.com")).statusCode).toBe(401);
    const limited = await attempt("limit-one@example.com");
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: "rate_limited", message: "Too many attempts. Please wait a minute and try again." });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    // Another address does not reset the email's count.
    expect((await attempt("limit-one@example.com", "10.7.0.2")).statusCode).toBe(429);
    // Couriers behind one address (a depot's Wi-Fi) each keep their own attempts, up to the address's own limit.
    expect((await attempt("limit-two@example.com")).statusCode).toBe(401);
  });

  it("ties the CSRF token to its session: another session's token is refused", async () => {
    const mine = await login(api().app);
    const theirs = await login(api().app);
    const logout = (token: string, csrf: string) =>
      api().app.inject({ method: "DELETE", url: "/api/sessions/current", headers: { accept: API_MEDIA_TYPE, cookie: `rxc_session=${token}`, "x-csrf-token": csrf } });
    expect((await logout(mine.token, theirs.csrf)).statusCode).toBe(403);
    expect((await current(api().app, mine.token)).statusCode).toBe(200);
  });

  it("logout deletes the session on the server and clears the cookie: the old cookie is refused afterwards", async () => {
    const session = await login(api().app);
    const response = await api().app.inject({
      method: "DELETE",
      url: "/api/sessions/current",
      headers: { accept: API_MEDIA_TYPE, cookie: `rxc_session=${session.token}`, "x-csrf-token": session.csrf },
    });
    expect(response.statusCode).toBe(204);
    const cleared = response.cookies.find((c) => c.name === "rxc_session")!;
    expect(cleared.value).toBe("");
    expect(new Date(cleared.expires!).getTime()).toBeLessThan(Date.now());
    expect(await row(session.token)).toBeUndefined();
    expect((await current(api().app, session.token)).statusCode).toBe(401);
  });

  it("ends a session idle longer than SESSION_IDLE_MINUTES (8 h by default) on the server; use inside the limit keeps it alive", async () => {
    const idle = await login(api().app);
    await db().update(sessions).set({ lastSeenAt: new Date(Date.now() - 8 * HOUR - MINUTE) }).where(eq(sessions.idHash, hashToken(idle.token)));
    expect((await current(api().app, idle.token)).statusCode).toBe(401);

    const active = await login(api().app);
    await db().update(sessions).set({ lastSeenAt: new Date(Date.now() - 8 * HOUR + 5 * MINUTE) }).where(eq(sessions.idHash, hashToken(active.token)));
    expect((await current(api().app, active.token)).statusCode).toBe(200);
    // The request counted as use: the idle clock starts again.
    expect(Date.now() - (await row(active.token))!.lastSeenAt.getTime()).toBeLessThan(MINUTE);
  });

  it("ends a session past SESSION_ABSOLUTE_HOURS (16 h by default) however recently it was used", async () => {
    const session = await login(api().app);
    const stored = (await row(session.token))!;
    expect(Math.abs(stored.expiresAt.getTime() - (Date.now() + 16 * HOUR))).toBeLessThan(5 * MINUTE);
    await db().update(sessions).set({ expiresAt: new Date(Date.now() - 1000), lastSeenAt: new Date() }).where(eq(sessions.idHash, hashToken(session.token)));
    expect((await current(api().app, session.token)).statusCode).toBe(401);
    const refused = await api().app.inject({
      method: "POST",
      url: "/api/courier/cancellation",
      headers: { accept: API_MEDIA_TYPE, "content-type": "application/json", cookie: `rxc_session=${session.token}`, "x-csrf-token": session.csrf },
      payload: JSON.stringify({ order_id: 1 }),
    });
    expect(refused.statusCode).toBe(401);
  });

  it("deletes the rows of expired and idle sessions when a process starts (and hourly), keeping live ones", async () => {
    const live = await login(api().app);
    const expired = await login(api().app);
    const idle = await login(api().app);
    await db().update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.idHash, hashToken(expired.token)));
    await db().update(sessions).set({ lastSeenAt: new Date(Date.now() - 9 * HOUR) }).where(eq(sessions.idHash, hashToken(idle.token)));
    const config = { ...loadConfig({}), webRoot: "/nonexistent" };
    const app = await buildApp({ config, database: api().database, today: () => TEST_DAY, logger: false });
    extraApps.push(app);
    await app.ready();
    expect(await row(expired.token)).toBeUndefined();
    expect(await row(idle.token)).toBeUndefined();
    expect(await row(live.token)).toBeDefined();
  });

  it("reads both limits from SESSION_IDLE_MINUTES and SESSION_ABSOLUTE_HOURS", async () => {
    const config = { ...loadConfig({ SESSION_IDLE_MINUTES: "5", SESSION_ABSOLUTE_HOURS: "1" }), webRoot: "/nonexistent", loginAttemptsPerMinute: 1000, loginAttemptsPerAddressPerMinute: 1000 };
    expect([config.sessionIdleMinutes, config.sessionAbsoluteHours]).toEqual([5, 1]);
    const app = await buildApp({ config, database: api().database, today: () => TEST_DAY, logger: false });
    extraApps.push(app);
    await app.ready();

    const session = await login(app);
    expect(Math.abs((await row(session.token))!.expiresAt.getTime() - (Date.now() + HOUR))).toBeLessThan(MINUTE);
    await db().update(sessions).set({ lastSeenAt: new Date(Date.now() - 4 * MINUTE) }).where(eq(sessions.idHash, hashToken(session.token)));
    expect((await current(app, session.token)).statusCode).toBe(200);
    await db().update(sessions).set({ lastSeenAt: new Date(Date.now() - 6 * MINUTE) }).where(eq(sessions.idHash, hashToken(session.token)));
    expect((await current(app, session.token)).statusCode).toBe(401);
  });
});
