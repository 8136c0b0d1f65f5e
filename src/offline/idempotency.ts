/** The header every mutating call sends; the server keeps the first response per courier and key. */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/**
 * A new key for one courier action, made when the courier acts and stored
 * with any queued payload, so every resubmission of that action carries it.
 */
export function newIdempotencyKey(): string {
  // randomUUID exists only in secure contexts; a phone testing over plain http on the LAN still needs keys.
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return uuidFromRandomBytes(crypto.getRandomValues(new Uint8Array(16)));
}

/** RFC 9562 version 4 layout over 16 random bytes. */
export function uuidFromRandomBytes(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new Error("a UUID needs 16 bytes");
  const b = Uint8Array.from(bytes);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
