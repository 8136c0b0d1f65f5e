import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * Webhook endpoints must be public: a subscription may not make the server
 * call its own loopback, the private network it sits in, or the cloud's
 * metadata address. WEBHOOK_ALLOW_PRIVATE=true lifts this for tests and the demo.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, "ipv4");
  return blocked.check(address, "ipv6");
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** Whether the server may call this URL: http(s), no credentials, and (unless allowed) a public address. */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<UrlVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "The webhook url is not a valid URL." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: "The webhook url must be http or https." };
  if (url.username || url.password) return { ok: false, reason: "The webhook url may not carry a user name or password." };
  if (allowPrivate) return { ok: true, url };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      return { ok: false, reason: `The webhook url's host ${host} could not be resolved.` };
    }
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
    return { ok: false, reason: "The webhook url points at a private or loopback address; it must be reachable on the public internet." };
  }
  return { ok: true, url };
}
