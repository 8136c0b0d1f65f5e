import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { KeyRole } from "../../domain/contract/ops.ts";
import { hashToken, newToken } from "../auth/tokens.ts";
import type { Db } from "../db/client.ts";
import { apiKeys } from "../db/schema.ts";
import type { Tx } from "../services/order-transitions.ts";

/** Who is calling the operations API: resolved from the Bearer key on every request. */
export interface OpsCaller {
  keyId: number;
  role: KeyRole;
  /** The pharmacy a pharmacy key belongs to; null for dispatch. */
  pharmacyId: number | null;
  name: string;
}

/**
 * OPS_API_KEY becomes a dispatch key whose hash is kept. A new value replaces
 * the old one (the old key stops working); a value dispatch revoked through
 * the API stays revoked. Several processes starting at once insert it once.
 */
export async function ensureEnvironmentKey(db: Db, key: string): Promise<void> {
  const keyHash = hashToken(key);
  await db.transaction(async (tx) => {
    await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.source, "environment"), ne(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
    await tx
      .insert(apiKeys)
      .values({ name: "OPS_API_KEY", role: "dispatch", pharmacyId: null, keyHash, source: "environment" })
      .onConflictDoNothing({ target: apiKeys.keyHash });
  });
}

/** A new key: a random 256-bit token, shown once; only its SHA-256 is stored. */
export async function createApiKey(
  tx: Tx,
  input: { name: string; role: KeyRole; pharmacyId: number | null; createdByKeyId: number | null },
): Promise<{ id: number; key: string }> {
  const key = newToken();
  const [row] = await tx
    .insert(apiKeys)
    .values({ name: input.name, role: input.role, pharmacyId: input.pharmacyId, keyHash: hashToken(key), source: "api", createdByKeyId: input.createdByKeyId })
    .returning({ id: apiKeys.id });
  return { id: row!.id, key };
}

/** Revokes a key at once; false when there is no live key with that id. */
export async function revokeApiKey(tx: Tx, id: number): Promise<boolean> {
  const rows = await tx
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/** Looks a presented key up by its hash; revoked keys are never found (no cache: a revoke is immediate in every process). */
export function createKeyLookup(db: Db) {
  const find = db
    .select({ id: apiKeys.id, role: apiKeys.role, pharmacyId: apiKeys.pharmacyId, name: apiKeys.name })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, sql.placeholder("keyHash")), isNull(apiKeys.revokedAt)))
    .prepare("rxc_find_api_key");
  return async (key: string): Promise<OpsCaller | null> => {
    const [row] = await find.execute({ keyHash: hashToken(key) });
    return row ? { keyId: row.id, role: row.role, pharmacyId: row.pharmacyId, name: row.name } : null;
  };
}
