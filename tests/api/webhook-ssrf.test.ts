import { isIP } from "node:net";
import { eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import type { Database } from "../../server/db/client.ts";
import { webhookAttempts, webhookMessages, webhookSubscriptions } from "../../server/db/schema.ts";
import { pinnedConnector, type PinnedConnect } from "../../server/services/webhooks/pinned-connect.ts";
import { systemResolver, type Resolver } from "../../server/services/webhooks/url-policy.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { databaseTargets } from "../support/databases.ts";
import { HOSTILE_WEBHOOK_HOSTS, PUBLIC_WEBHOOK_HOSTS } from "../support/hostile-sweep.ts";
import { TEST_OPS_KEY } from "../support/ops-harness.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

/**
 * Issue 24 §4: webhook URLs by the address actually connected to, without
 * WEBHOOK_ALLOW_PRIVATE. The server's host name lookup is replaced by a
 * script (a name can answer a public address first and 127.0.0.1 second) and
 * its connection is watched. "The internet" is a second receiver: a send the
 * server makes to PUBLIC lands there; the inside receiver on 127.0.0.1 stands
 * for everything an attacker would want to reach.
 */

/** A public address (TEST-NET-3) that, in this test, is the internet receiver. */
const PUBLIC = "203.0.113.10";

const PRIVATE_REFUSAL = /^The webhook url points at a private or loopback address \(.+\); it must be reachable on the public internet\.$/;

for (const target of databaseTargets()) {
  describe(`webhook URLs are checked by the address connected to [${target.name}]`, () => {
    let database: Database;
    let app: FastifyInstance;
    let inside: Receiver;
    let internet: Receiver;
    /** Per host name, the answers still to give; the last one repeats. Names not scripted are the system's. */
    const script = new Map<string, string[][]>();
    const asked: string[] = [];
    /** The checked addresses each new connection was opened for. */
    const connects: string[][] = [];

    const resolve: Resolver = async (host) => {
      asked.push(host);
      const answers = script.get(host);
      if (!answers) return systemResolver(host);
      const next = answers.length > 1 ? answers.shift()! : answers[0]!;
      return next.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
    };
    const connect: PinnedConnect = (addresses) => {
      connects.push(addresses.map((entry) => entry.address));
      const pinned = pinnedConnector(addresses);
      if (!addresses.every((entry) => entry.address === PUBLIC)) return pinned;
      // The product's own pinned connector, to PUBLIC; only the route from PUBLIC to the internet receiver is the test's.
      const toInternet = pinnedConnector([{ address: "127.0.0.1", family: 4 }]);
      const internetPort = new URL(internet.url("/")).port;
      return (options, callback) => toInternet({ ...options, port: internetPort }, callback);
    };

    beforeAll(async () => {
      database = await target.openDemoDay();
      inside = await startReceiver();
      internet = await startReceiver();
      const config = { ...loadConfig({ OPS_API_KEY: TEST_OPS_KEY, WEBHOOK_RETRY_SCALE: "1" }), webRoot: "/nonexistent" };
      // A long poll: sends happen when a test drains, not on their own.
      app = await buildApp({ config, database, today: () => TEST_DAY, logger: false, webhookPollMs: 3_600_000, webhookNetwork: { resolve, connect } });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await Promise.all([inside?.close(), internet?.close()]);
      await database?.close();
    });
    beforeEach(() => {
      script.clear();
      asked.length = 0;
      connects.length = 0;
    });

    const insidePort = () => new URL(inside.url("/")).port;
    const subscribe = (url: string) =>
      app.inject({
        method: "POST",
        url: "/api/ops/v1/webhooks",
        headers: { authorization: `Bearer ${TEST_OPS_KEY}`, "content-type": "application/json" },
        payload: JSON.stringify({ url, events: ["order.delivered"] }),
      });

    /** A subscription stored as it is (as if made before today's rules) with one message due now. */
    async function storedWithMessage(url: string): Promise<{ id: number; eventId: string }> {
      const [subscription] = await database.db
        .insert(webhookSubscriptions)
        .values({ url, events: ["order.delivered"], secret: `whsec_${Buffer.alloc(32, 7).toString("base64")}` })
        .returning();
      const [message] = await database.db
        .insert(webhookMessages)
        .values({
          subscriptionId: subscription!.id,
          eventId: `msg_ssrf_${subscription!.id}`,
          eventType: "order.delivered",
          body: JSON.stringify({ type: "order.delivered", timestamp: new Date().toISOString(), data: { order: { id: 1 } } }),
        })
        .returning();
      return { id: message!.id, eventId: message!.eventId };
    }

    async function attemptsOf(messageIds: number[]) {
      // Sent side by side: in the order of the messages, not of the answers.
      return database.db.select().from(webhookAttempts).where(inArray(webhookAttempts.messageId, messageIds)).orderBy(webhookAttempts.messageId);
    }

    it("refuses every IPv6 spelling of a private IPv4 address at subscription, with the reason in words (400)", async () => {
      for (const { name, host } of HOSTILE_WEBHOOK_HOSTS) {
        const response = await subscribe(`http://${host}:${insidePort()}/hook`);
        expect(response.statusCode, name).toBe(400);
        expect(response.json(), name).toMatchObject({ error: "invalid_request", message: expect.stringMatching(PRIVATE_REFUSAL) });
      }
      for (const host of PUBLIC_WEBHOOK_HOSTS) {
        const response = await subscribe(`https://${host}/hook`);
        expect(response.statusCode, host).toBe(201);
        await database.db.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, response.json().id));
      }
    });

    it("refuses them at send time too, for a subscription stored before the rule: nothing reaches the inside", async () => {
      const ids: number[] = [];
      for (const { host } of HOSTILE_WEBHOOK_HOSTS) ids.push((await storedWithMessage(`http://${host}:${insidePort()}/hook`)).id);
      await app.webhookSender.drain();
      const attempts = await attemptsOf(ids);
      expect(attempts).toHaveLength(ids.length);
      for (const attempt of attempts) {
        expect(attempt.statusCode).toBeNull();
        expect(attempt.error).toMatch(PRIVATE_REFUSAL);
      }
      expect(connects).toEqual([]);
      expect(inside.received).toEqual([]);
    });

    it("refuses at send time a host name that resolves to 127.0.0.1 (the system's localhost, or a name that turned)", async () => {
      script.set("turncoat.test", [[PUBLIC], ["127.0.0.1"]]);
      // At subscription the name answered a public address…
      const created = await subscribe(`http://turncoat.test:${insidePort()}/hook`);
      expect(created.statusCode, created.body).toBe(201);
      // …by the send it answers 127.0.0.1.
      const [message] = await database.db
        .insert(webhookMessages)
        .values({ subscriptionId: created.json().id, eventId: "msg_turncoat", eventType: "order.delivered", body: "{}" })
        .returning();
      const local = await storedWithMessage(`http://localhost:${insidePort()}/hook`);
      await app.webhookSender.drain();
      const attempts = await attemptsOf([message!.id, local.id]);
      expect(attempts.map((attempt) => attempt.error)).toEqual([
        "The webhook url points at a private or loopback address (127.0.0.1); it must be reachable on the public internet.",
        expect.stringMatching(PRIVATE_REFUSAL),
      ]);
      expect(connects).toEqual([]);
      expect(inside.received).toEqual([]);
    });

    it("DNS rebinding: the send connects to the answer it checked, never to a second answer (127.0.0.1)", async () => {
      const port = insidePort();
      const { id, eventId } = await storedWithMessage(`http://rebind.test:${port}/hook`);
      // The first lookup answers a public address; every later one, the inside.
      script.set("rebind.test", [[PUBLIC], ["127.0.0.1"]]);
      await app.webhookSender.drain();

      expect(asked).toEqual(["rebind.test"]);
      expect(connects).toEqual([[PUBLIC]]);
      expect(inside.received).toEqual([]);
      const [received] = await internet.waitFor("/hook", 1);
      // Only the address is pinned: the request still names the URL's host.
      expect(received!.headers.host).toBe(`rebind.test:${port}`);
      expect(received!.headers["webhook-id"]).toBe(eventId);
      const [message] = await database.db.select().from(webhookMessages).where(eq(webhookMessages.id, id));
      expect(message!.status).toBe("delivered");
    });
  });
}
