import { FAILURE_REASONS, ORDER_STATUSES, RELATIONSHIPS, SIGNATURE_REFUSAL_REASONS } from "../../domain/vocabulary.ts";
import type { Db } from "./client.ts";
import { failureReasons, orderStatuses, relationships, signatureRefusalReasons } from "./schema.ts";

/** The vocabulary tables hold the domain's fixed lists; run on every start. */
export async function ensureReferenceData(db: Db): Promise<void> {
  await db.insert(orderStatuses).values([...ORDER_STATUSES]).onConflictDoNothing();
  await db.insert(relationships).values([...RELATIONSHIPS]).onConflictDoNothing();
  await db.insert(failureReasons).values([...FAILURE_REASONS]).onConflictDoNothing();
  await db
    .insert(signatureRefusalReasons)
    .values(SIGNATURE_REFUSAL_REASONS.map((r) => ({ key: r.key, displayName: r.display_name })))
    .onConflictDoNothing();
}
