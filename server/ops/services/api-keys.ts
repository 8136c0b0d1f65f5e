import { and, asc, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { ApiKeyView } from "../../../domain/contract/ops.ts";
import type { KeyRole } from "../../../domain/contract/ops.ts";
import type { StaffRole } from "../../../domain/contract/staff.ts";
import { hashToken, newToken } from "../../auth/tokens.ts";
import { audit } from "../../db/audit.ts";
import { inTransaction, type Db, type Tx } from "../../db/client.ts";
import { apiKeys } from "../../db/schema.ts";
import { notFound } from "../../http/errors.ts";
import { assertPharmacyExists } from "./pharmacies.ts";

/**
 * Who is calling the operations API: resolved from the Bearer key, or from a
 * dispatcher's or pharmacist's console session (issue 27), on every request.
 * A dispatcher has the role "dispatch", a pharmacist "pharmacy" with their
 * pharmacy: the reach of the key of that role.
 */
export interface OpsCaller {
  /** The key; null for a staff session. */
  keyId: number | null;
  role: KeyRole;
  /** The pharmacy a pharmacy key (or pharmacist) belongs to; null for dispatch. */
  pharmacyId: number | null;
  name: string;
  /** The staff member logged in to the console; null for a key. */
  staff: { id: number; role: StaffRole; sessionHash: string } | null;
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

/** POST keys: a new key (of a pharmacy that exists, for a pharmacy key), with its audit row. */
export const issueApiKey = inTransaction(async function issueApiKey(
  tx: Tx,
  caller: OpsCaller,
  input: { name: string; role: KeyRole; pharmacyId: number | null },
): Promise<{ id: number; key: string }> {
  if (input.pharmacyId !== null) await assertPharmacyExists(tx, input.pharmacyId);
  const key = await createApiKey(tx, { ...input, createdByKeyId: caller.keyId });
  await audit(tx, [{ courierId: null, apiKeyId: caller.keyId, action: "key_created", subject: `key:${key.id}` }]);
  return key;
});

/** DELETE keys/{id}: the key stops working at once (404 when there is no live key with that id), with its audit row. */
export const withdrawApiKey = inTransaction(async function withdrawApiKey(tx: Tx, caller: OpsCaller, id: number): Promise<void> {
  if (!(await revokeApiKey(tx, id))) throw notFound(`Key ${id}`);
  await audit(tx, [{ courierId: null, apiKeyId: caller.keyId, action: "key_revoked", subject: `key:${id}` }]);
});

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
  return async (key: string): Promise<(OpsCaller & { keyId: number }) | null> => {
    const [row] = await find.execute({ keyHash: hashToken(key) });
    return row ? { keyId: row.id, role: row.role, pharmacyId: row.pharmacyId, name: row.name, staff: null } : null;
  };
}

/** Every key, oldest first, as GET /keys lists it: never the key nor its hash. */
export async function listApiKeys(db: Db): Promise<ApiKeyView[]> {
  const rows = await db
    .select({
      id: apiKeys.id,
      role: apiKeys.role,
      pharmacyId: apiKeys.pharmacyId,
      name: apiKeys.name,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .orderBy(asc(apiKeys.id));
  return rows.map((row) => ({
    id: row.id,
    role: row.role,
    pharmacy_id: row.pharmacyId,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  }));
}

const USE_RESOLUTION_MS = 60_000;

/**
 * Records that a key was used, at most once a minute per key: this process
 * remembers when it last wrote, and the statement itself skips a row another
 * process wrote less than a minute ago. A failed write never fails the call.
 */
export function createUseRecorder(db: Db, now: () => number = Date.now) {
  const written = new Map<number, number>();
  return async (keyId: number): Promise<void> => {
    const time = now();
    if (time - (written.get(keyId) ?? -Infinity) < USE_RESOLUTION_MS) return;
    written.set(keyId, time);
    if (written.size > 10_000) written.clear(); // bounded: at worst one more write per key
    const at = new Date(time);
    await db
      .update(apiKeys)
      .set({ lastUsedAt: at })
      .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(time - USE_RESOLUTION_MS)))));
  };
}
