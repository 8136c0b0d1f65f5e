import type { CustodyEntry, Proof } from "../../../../domain/contract/ops-proof.ts";
import { centsToDecimal } from "../../../../domain/money.ts";
import type { Db } from "../../../db/client.ts";
import type { PaymentGateway } from "../../../payments/gateway.ts";
import { orderCustody } from "./custody.ts";
import { filed } from "./filing.ts";
import { orderProof } from "./proof.ts";
import type { OpsScope } from "./scope.ts";

/**
 * The proof of delivery as the pharmacy files it (JSON and PDF): the record
 * (proof.ts), the copay change at pickup from the chain of custody, and the
 * document id, generation time and zone (filing.ts).
 */
export async function filedProof(db: Db, gateway: PaymentGateway, scope: OpsScope, orderId: number, timeZone: string): Promise<Proof> {
  const record = await orderProof(db, gateway, scope, orderId);
  const { custody } = await orderCustody(db, scope, orderId);
  return filed("POD", record.order.id, { ...record, copay_change: copayChange(custody) }, timeZone);
}

/** A decimal amount from a custody detail: a decimal string as sent, or integer cents. */
function amount(value: CustodyEntry["details"][string] | undefined): string | null {
  if (typeof value === "string" && /^\d+\.\d{2}$/.test(value)) return value;
  if (typeof value === "string" && /^\d+(\.\d)?$/.test(value)) return Number(value).toFixed(2);
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return centsToDecimal(value)!;
  return null;
}

/**
 * The copay the courier changed at pickup: the latest custody entry carrying
 * `copay_before`/`copay_after` details. Entries without them (older records)
 * mean no change is known, never an error.
 */
export function copayChange(custody: CustodyEntry[]): Proof["copay_change"] {
  const entry = custody.findLast((candidate) => "copay_before" in candidate.details || "copay_after" in candidate.details);
  if (!entry) return null;
  const before = amount(entry.details.copay_before);
  const after = amount(entry.details.copay_after);
  if (before === after) return null;
  return { before, after, changed_by: entry.actor.name, at: entry.at };
}
