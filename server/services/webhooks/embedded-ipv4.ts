/**
 * The IPv4 addresses an IPv6 address carries, by the transition mechanisms
 * that put one inside it. A private IPv4 reached through any of them is still
 * a private IPv4 (issue 24 §4), so the URL policy checks each one:
 *
 * - IPv4-compatible ::a.b.c.d (::/96, deprecated) — the last 32 bits;
 * - IPv4-mapped ::ffff:a.b.c.d (::ffff:0:0/96) — the last 32 bits;
 * - SIIT ::ffff:0:a.b.c.d (::ffff:0:0:0/96, RFC 6145) — the last 32 bits;
 * - NAT64 well-known prefix 64:ff9b::/96 (RFC 6052) — the last 32 bits
 *   (the local-use 64:ff9b:1::/48 is refused whole by the policy);
 * - 6to4 2002::/16 (RFC 3056) — bits 16–47;
 * - Teredo 2001::/32 (RFC 4380) — the server at bits 32–63, the client in
 *   the last 32 bits, each bit inverted.
 */

/** The eight 16-bit groups, or null when the platform's URL parser does not read it as an IPv6 address. */
export function ipv6Groups(address: string): number[] | null {
  let canonical: string;
  try {
    // The WHATWG serializer writes every IPv6 address one way: lower-case hex, "::" for the longest zero run, no dotted quad.
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head = "", tail] = canonical.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const dotted = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** Every IPv4 address the IPv6 address carries (none for a plain IPv6 address); null when it is not an IPv6 address. */
export function embeddedIPv4(address: string): string[] | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const zero = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  const last32 = dotted(g[6]!, g[7]!);
  if (zero(0, 6)) return [last32]; // IPv4-compatible (:: and ::1 too: 0.0.0.0 and 0.0.0.1)
  if (zero(0, 5) && g[5] === 0xffff) return [last32]; // IPv4-mapped
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return [last32]; // SIIT
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return [last32]; // NAT64 well-known prefix
  if (g[0] === 0x2002) return [dotted(g[1]!, g[2]!)]; // 6to4
  if (g[0] === 0x2001 && g[1] === 0) return [dotted(g[2]!, g[3]!), dotted(g[6]! ^ 0xffff, g[7]! ^ 0xffff)]; // Teredo: server, client
  return [];
}
