import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, fetch } from "undici";
import { describe, expect, it } from "vitest";
import { RETRY_DELAYS_MS, retryDelayMs } from "../../../domain/webhook-events.ts";
import { embeddedIPv4 } from "../../../server/services/webhooks/embedded-ipv4.ts";
import { pinnedConnector } from "../../../server/services/webhooks/pinned-connect.ts";
import { checkWebhookUrl, isPrivateAddress, type Resolver } from "../../../server/services/webhooks/url-policy.ts";
import { HOSTILE_WEBHOOK_HOSTS, PUBLIC_WEBHOOK_HOSTS } from "../../support/hostile-sweep.ts";

describe("the webhook retry schedule", () => {
  it("retries first within 10 s, then within 60 s, grows to a day, then gives up after the 10th attempt", () => {
    for (const random of [0, 0.5, 0.999]) {
      expect(retryDelayMs(1, random)!).toBeLessThanOrEqual(10_000);
      expect(retryDelayMs(1, random)!).toBeGreaterThanOrEqual(5_000);
      expect(retryDelayMs(2, random)!).toBeLessThanOrEqual(60_000);
      expect(retryDelayMs(2, random)!).toBeGreaterThanOrEqual(30_000);
    }
    for (let i = 1; i < RETRY_DELAYS_MS.length; i++) expect(RETRY_DELAYS_MS[i]!).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[i - 1]!);
    expect(Math.max(...RETRY_DELAYS_MS)).toBe(86_400_000);
    expect(retryDelayMs(RETRY_DELAYS_MS.length, 0.5)).not.toBeNull();
    expect(retryDelayMs(RETRY_DELAYS_MS.length + 1, 0.5)).toBeNull();
  });

  it("jitters: two failures at the same moment are not retried at the same moment", () => {
    expect(retryDelayMs(3, 0.1)).not.toBe(retryDelayMs(3, 0.9));
  });
});

describe("webhook URLs", () => {
  it("knows private, loopback, link-local and mapped addresses from public ones", () => {
    for (const address of ["127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "::", "fd00::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1"]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ["203.0.113.10", "8.8.8.8", "172.32.0.1", "2001:4860:4860::8888", "::ffff:8.8.8.8"]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it("refuses what is not http(s), carries credentials or points inside; allows private ones when told", async () => {
    expect((await checkWebhookUrl("https://203.0.113.10/hook", false)).ok).toBe(true);
    expect((await checkWebhookUrl("http://[::1]:8080/", false)).ok).toBe(false);
    expect((await checkWebhookUrl("file:///etc/passwd", true)).ok).toBe(false);
    expect((await checkWebhookUrl("https://a:b@203.0.113.10/", true)).ok).toBe(false);
    expect((await checkWebhookUrl("http://127.0.0.1:3000/hook", true)).ok).toBe(true);
  });
});

describe("IPv6 addresses that carry an IPv4 address (issue 24 §4)", () => {
  it("finds the IPv4 address of every transition form, Teredo's client with its bits inverted", () => {
    expect(embeddedIPv4("::127.0.0.1")).toEqual(["127.0.0.1"]);
    expect(embeddedIPv4("::ffff:7f00:1")).toEqual(["127.0.0.1"]);
    expect(embeddedIPv4("::ffff:0:a9fe:a9fe")).toEqual(["169.254.169.254"]);
    expect(embeddedIPv4("64:ff9b::7f00:1")).toEqual(["127.0.0.1"]);
    expect(embeddedIPv4("2002:7f00:1::1")).toEqual(["127.0.0.1"]);
    // RFC 4380's example: server 65.54.227.120, client 192.0.2.45.
    expect(embeddedIPv4("2001:0:4136:e378:8000:63bf:3fff:fdd2")).toEqual(["65.54.227.120", "192.0.2.45"]);
    expect(embeddedIPv4("2001:4860:4860::8888")).toEqual([]);
    expect(embeddedIPv4("fe80::1%eth0")).toBeNull();
  });

  it("refuses every IPv6 spelling of a private IPv4 address, in words, and allows the same forms carrying a public one", async () => {
    for (const { name, host } of HOSTILE_WEBHOOK_HOSTS) {
      const verdict = await checkWebhookUrl(`https://${host}/hook`, false);
      expect(verdict.ok, name).toBe(false);
      if (!verdict.ok) expect(verdict.reason, name).toMatch(/^The webhook url points at a private or loopback address \(.+\); it must be reachable on the public internet\.$/);
      // WEBHOOK_ALLOW_PRIVATE keeps allowing them (tests, the demo).
      expect((await checkWebhookUrl(`https://${host}/hook`, true)).ok, name).toBe(true);
    }
    for (const host of PUBLIC_WEBHOOK_HOSTS) expect((await checkWebhookUrl(`https://${host}/hook`, false)).ok, host).toBe(true);
  });

  it("checks every answer of a host name's lookup and hands back the checked answers", async () => {
    const resolve: Resolver = async (host) =>
      host === "mixed.test" ? [{ address: "203.0.113.10", family: 4 }, { address: "::ffff:0:7f00:1", family: 6 }] : [{ address: "203.0.113.10", family: 4 }];
    expect(await checkWebhookUrl("https://mixed.test/hook", false, resolve)).toMatchObject({ ok: false, reason: expect.stringContaining("which carries 127.0.0.1") });
    expect(await checkWebhookUrl("https://public.test/hook", false, resolve)).toMatchObject({ ok: true, addresses: [{ address: "203.0.113.10", family: 4 }] });
  });
});

describe("the pinned connection", () => {
  it("connects to the checked address whatever the host name resolves to, with the host name in Host", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((request, response) => {
      seen.push(request.headers);
      response.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    // .invalid never resolves (RFC 6761): only the pin can take the request anywhere.
    const url = `http://pinned.invalid:${port}/hook`;
    const pinned = new Agent({ connect: pinnedConnector([{ address: "127.0.0.1", family: 4 }]) });
    const plain = new Agent();
    try {
      const response = await fetch(url, { method: "POST", body: "{}", dispatcher: pinned });
      expect(response.status).toBe(200);
      expect(seen.map((headers) => headers.host)).toEqual([`pinned.invalid:${port}`]);
      await expect(fetch(url, { method: "POST", body: "{}", dispatcher: plain })).rejects.toThrow();
      expect(seen).toHaveLength(1);
    } finally {
      await Promise.all([pinned.close(), plain.close()]);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
