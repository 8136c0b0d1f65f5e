import type { OpsActor } from "./contract/ops.ts";

/** The ids an audit row carries about who acted (server/db/audit.ts). */
export interface ActingIds {
  courierId: number | null;
  apiKeyId: number | null;
  staffId: number | null;
}

export type ActingParty = { kind: "staff" | "key" | "courier"; id: number } | null;

/**
 * Who acted, from an audit row: the console's dispatcher or pharmacist, else
 * the operations key, else the courier; nobody is the system. A key's
 * assignment row carries the courier assigned in courier_id, so the key comes
 * before the courier.
 */
export function actingParty(row: ActingIds): ActingParty {
  if (row.staffId !== null) return { kind: "staff", id: row.staffId };
  if (row.apiKeyId !== null) return { kind: "key", id: row.apiKeyId };
  if (row.courierId !== null) return { kind: "courier", id: row.courierId };
  return null;
}

/** The status history's actor string: "courier:7", "key:3", "staff:2", or null for the system. */
export const actingPartyRef = (party: ActingParty): string | null => (party ? `${party.kind}:${party.id}` : null);

const ACTOR_WORDS: Record<OpsActor["type"], string> = {
  courier: "Courier",
  key: "API key",
  staff: "Pharmacy staff",
  dispatcher: "Dispatcher",
  pharmacist: "Pharmacist",
};

/** Who acted, as the console says it wherever an actor is shown: "Courier: Dana Whitfield", "Dispatcher: …"; "System" when nobody did. */
export function actorInWords(actor: OpsActor | null): string {
  return actor ? `${ACTOR_WORDS[actor.type]}: ${actor.name}` : "System";
}
