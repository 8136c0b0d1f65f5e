import { describe, expect, it } from "vitest";
import { RETRY_DELAYS_MS, retryDelayMs } from "../../../domain/webhook-events.ts";
import { checkWebhookUrl, isPrivateAddress } from "../../../server/services/webhooks/url-policy.ts";

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
