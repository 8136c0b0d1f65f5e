import { createHash } from "node:crypto";

/**
 * What makes a proof or a manifest a document a pharmacy can file and find
 * again: an id that is the same whenever the content is the same (the record's
 * id and a hash of what it says), the time this copy was generated, and the
 * zone its times are written in.
 */

export type Filing = { document_id: string; generated_at: string; time_zone: string };

/** JSON with object keys sorted at every depth, so the hash does not depend on property order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export function documentId(prefix: "POD" | "RET", id: number, content: unknown): string {
  const hash = createHash("sha256").update(canonical(content)).digest("hex").slice(0, 12).toUpperCase();
  return `${prefix}-${id}-${hash}`;
}

/** The record with its filing fields first; the id hashes the content and the zone (a different zone prints different times). */
export function filed<T extends object>(prefix: "POD" | "RET", id: number, content: T, timeZone: string, now = new Date()): T & Filing {
  return {
    document_id: documentId(prefix, id, { ...content, time_zone: timeZone }),
    generated_at: now.toISOString(),
    time_zone: timeZone,
    ...content,
  };
}
