import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { embeddedIPv4 } from "./embedded-ipv4.ts";

/**
 * Webhook endpoints must be public: a subscription may not make the server
 * call its own loopback, the private network it sits in, or the cloud's
 * metadata address — however the address is spelled, IPv6 forms that carry an
 * IPv4 address included (./embedded-ipv4.ts). The check is made on every
 * answer of one lookup, and the send then connects to those answers only
 * (./pinned-connect.ts), so a name cannot answer differently the second time.
 * WEBHOOK_ALLOW_PRIVATE=true lifts this for tests and the demo.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 included
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, the cloud's metadata address
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.88.99.0", 24], // 6to4 relays (deprecated)
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, the broadcast address included
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b:1::", 48], // NAT64 local use (RFC 8215): not global, and where it carries the IPv4 is the operator's choice
  ["100::", 64], // discard only
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** Why the address may not be called, or null when it is public. */
export function privateAddressReason(address: string): string | null {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4") ? address : null;
  if (family !== 6) return address;
  const embedded = embeddedIPv4(address);
  if (embedded === null) return address; // not an address the URL parser reads (a zone id): never called
  for (const ipv4 of embedded) {
    if (blocked.check(ipv4, "ipv4")) return `${address}, which carries ${ipv4}`;
  }
  return blocked.check(address, "ipv6") ? address : null;
}

export const isPrivateAddress = (address: string): boolean => privateAddressReason(address) !== null;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Answers a host name with every address it has; injectable so a test can make a name answer differently each time. */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));

export type UrlVerdict =
  /** `addresses`: the checked answers the send must connect to; null when private addresses are allowed (no check made). */
  { ok: true; url: URL; addresses: ResolvedAddress[] | null } | { ok: false; reason: string };

const PUBLIC_ONLY = "it must be reachable on the public internet.";

/** Whether the server may call this URL: http(s), no credentials, and (unless allowed) public addresses only. */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<UrlVerdict> {
  let url: URL;
  try {
    // The platform's (WHATWG) parser: what it reads is what the HTTP client will read.
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "The webhook url is not a valid URL." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: "The webhook url must be http or https." };
  if (url.username || url.password) return { ok: false, reason: "The webhook url may not carry a user name or password." };
  if (allowPrivate) return { ok: true, url, addresses: null };
  // The parser has already turned octal, hex and decimal IPv4 spellings into dotted quads and IPv6 into its canonical form.
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const family = isIP(host);
  let addresses: ResolvedAddress[];
  if (family !== 0) {
    addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      return { ok: false, reason: `The webhook url's host ${host} could not be resolved.` };
    }
    if (addresses.length === 0) return { ok: false, reason: `The webhook url's host ${host} could not be resolved.` };
  }
  for (const { address } of addresses) {
    const reason = privateAddressReason(address);
    if (reason !== null) return { ok: false, reason: `The webhook url points at a private or loopback address (${reason}); ${PUBLIC_ONLY}` };
  }
  return { ok: true, url, addresses };
}
