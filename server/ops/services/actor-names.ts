import { inArray } from "drizzle-orm";
import { actingParty, type ActingIds } from "../../../domain/actors.ts";
import type { OpsActor } from "../../../domain/contract/ops.ts";
import type { Tx } from "../../db/client.ts";
import { apiKeys, couriers, staffAccounts } from "../../db/schema.ts";

export interface ActorNames {
  /** Who acted in an audit row (domain/actors.ts's rule), by name; null for the system. */
  actorOf(row: ActingIds): OpsActor | null;
  /** A courier by name ("Courier 7" once they are gone). */
  courierName(id: number): string;
}

const ids = (values: (number | null)[]) => [...new Set(values.filter((id): id is number => id !== null))];

/**
 * The names behind audit rows' ids, each table read once for the lot: the
 * status history and the chain of custody name the same people the same way.
 * `alsoCouriers`: couriers named beside the actors (an assignment's courier).
 */
export async function actorNames(tx: Tx, rows: ActingIds[], alsoCouriers: number[] = []): Promise<ActorNames> {
  const staffIds = ids(rows.map((row) => row.staffId));
  const keyIds = ids(rows.map((row) => row.apiKeyId));
  const courierIds = ids([...rows.map((row) => row.courierId), ...alsoCouriers]);
  const [staffRows, keyRows, courierRows] = await Promise.all([
    staffIds.length
      ? tx.select({ id: staffAccounts.id, role: staffAccounts.role, first: staffAccounts.firstName, last: staffAccounts.lastName }).from(staffAccounts).where(inArray(staffAccounts.id, staffIds))
      : [],
    keyIds.length ? tx.select({ id: apiKeys.id, name: apiKeys.name }).from(apiKeys).where(inArray(apiKeys.id, keyIds)) : [],
    courierIds.length ? tx.select({ id: couriers.id, first: couriers.firstName, last: couriers.lastName }).from(couriers).where(inArray(couriers.id, courierIds)) : [],
  ]);
  const staff = new Map(staffRows.map((row) => [row.id, row]));
  const keys = new Map(keyRows.map((row) => [row.id, row.name]));
  const courierNames = new Map(courierRows.map((row) => [row.id, `${row.first} ${row.last}`]));
  const courierName = (id: number) => courierNames.get(id) ?? `Courier ${id}`;
  return {
    courierName,
    actorOf(row) {
      const party = actingParty(row);
      if (!party) return null;
      if (party.kind === "courier") return { type: "courier", id: party.id, name: courierName(party.id) };
      if (party.kind === "key") return { type: "key", id: party.id, name: keys.get(party.id) ?? `API key ${party.id}` };
      // audit_events.staff_id references the account, and deactivation keeps it: it is there.
      const member = staff.get(party.id)!;
      return { type: member.role, id: party.id, name: `${member.first} ${member.last}` };
    },
  };
}
