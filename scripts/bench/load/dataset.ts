import argon2 from "argon2";
import { sql } from "drizzle-orm";
import { statusByName, type OrderStatusName } from "../../../domain/vocabulary.ts";
import type { Db } from "../../../server/db/client.ts";
import { ensureReferenceData } from "../../../server/db/reference-data.ts";
import { seededRandom, type Random } from "../../../server/services/routing/prng.ts";
import { DEMO_PASSWORD } from "../lib/api.ts";

/**
 * A fleet's database for the load test (issue 9): couriers, pharmacies, the
 * day's visits and orders, and earlier days already delivered, with the
 * fields spread the way a real day spreads them (most copays zero, some
 * fees, some controlled substances needing ID, notes, several prescriptions
 * per order, pharmacies with every setting). Seeded: the same size gives the
 * same rows. Rows go in by the thousand in multi-row inserts.
 */

export interface DatasetSize {
  couriers: number;
  pharmacies: number;
  /** Orders for the service date (add-ons nobody has taken included). */
  ordersToday: number;
  /** Earlier days, each with as many orders, all delivered. */
  historyDays: number;
}

export const FLEET: DatasetSize = { couriers: 500, pharmacies: 50, ordersToday: 20_000, historyDays: 1 };

export interface Dataset {
  size: DatasetSize;
  /** Courier emails in id order; every password is DEMO_PASSWORD. */
  emails: string[];
  rows: Record<string, number>;
  seconds: number;
}

export const courierEmail = (n: number) => `courier${String(n).padStart(4, "0")}@fleet.example.com`;

const FIRST = ["Mary", "James", "Patricia", "John", "Jennifer", "Robert", "Linda", "Michael", "Elizabeth", "David", "Barbara", "William", "Susan", "Richard", "Jessica", "Joseph", "Sarah", "Thomas", "Karen", "Carlos", "Nancy", "Daniel", "Lisa", "Matthew", "Aisha", "Anthony", "Mei", "Mark", "Priya", "Donald", "Fatima", "Steven", "Olga", "Andrew", "Grace", "Kwame"];
const LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Nguyen", "Okafor", "Kowalski", "Haddad", "Ivanova", "Patel", "Kim", "O'Brien", "Schaefer"];
const STREETS = ["Pine St", "Spruce St", "Walnut St", "Chestnut St", "Market St", "Arch St", "Race St", "Vine St", "Callowhill St", "Spring Garden St", "Fairmount Ave", "Girard Ave", "Baltimore Ave", "Chester Ave", "Woodland Ave", "Germantown Ave", "Frankford Ave", "Kensington Ave", "Lehigh Ave", "Allegheny Ave", "Erie Ave", "Broad St", "Passyunk Ave", "Washington Ave", "Christian St", "Catharine St", "Fitzwater St", "Lombard St", "South St", "Locust St"];
const INSTRUCTIONS = ["Leave with doorman if patient is out.", "Ring twice; patient is hard of hearing.", "Use the side entrance.", "Call on arrival, gate code 2231.", "Dog in yard, friendly.", "Do not leave at the door.", "Elevator on the left, unit at the end of the hall."];

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const chance = (random: Random, p: number) => random() < p;
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const pad = (n: number, width: number) => String(n).padStart(width, "0");

function shiftDate(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A small signature of a delivery already made (the load test sends its own, larger ones). */
const OLD_SIGNATURE =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 354 200" width="354" height="200">' +
  Array.from({ length: 6 }, (_, i) => `<path d="M ${20 + i * 50},120 C ${35 + i * 50},80 ${50 + i * 50},160 ${65 + i * 50},110" stroke-width="2.1" stroke="black" fill="none" stroke-linecap="round"></path>`).join("") +
  "</svg>";

type Row = Record<string, unknown>;

/**
 * Rows in one statement per few thousand: the rows travel as one JSON
 * parameter that json_populate_recordset turns into the table's row type
 * (much faster than thousands of bound parameters). Ids are given, not
 * generated, so related rows can point at each other without a round trip.
 */
async function bulkInsert(db: Db, table: string, rows: Row[], chunk = 4000): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!).map((column) => `"${column}"`).join(", ");
  for (let i = 0; i < rows.length; i += chunk) {
    const json = JSON.stringify(rows.slice(i, i + chunk));
    await db.execute(sql`insert into ${sql.identifier(table)} (${sql.raw(columns)}) select ${sql.raw(columns)} from json_populate_recordset(null::${sql.identifier(table)}, ${json}::json)`);
  }
}

/** Identity columns continue after the ids given here. */
async function resetIdentity(db: Db, table: string): Promise<void> {
  await db.execute(sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 0) + 1, false)`));
}

/** Loads the dataset into an empty, migrated database; serviceDate is "today" (YYYY-MM-DD). */
export async function generateDataset(db: Db, serviceDate: string, size: DatasetSize = FLEET, seed = 20261121): Promise<Dataset> {
  const started = performance.now();
  const random = seededRandom(seed);
  await ensureReferenceData(db);
  // One hash for everyone: argon2 is deliberately slow, and 500 identical passwords need no 500 hashes.
  const passwordHash = await argon2.hash(DEMO_PASSWORD);
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();

  const emails = Array.from({ length: size.couriers }, (_, i) => courierEmail(i + 1));
  const courierIds = emails.map((_, i) => i + 1);
  await bulkInsert(
    db,
    "couriers",
    emails.map((email, i) => ({ id: courierIds[i], email, password_hash: passwordHash, first_name: pick(random, FIRST), last_name: pick(random, LAST), self_service_addons_enabled: chance(random, 0.3) })),
  );

  interface PharmacyRow {
    id: number;
    latitude: number;
    longitude: number;
    [column: string]: unknown;
  }
  const pharmacyRows: PharmacyRow[] = Array.from({ length: size.pharmacies }, (_, i) => {
    const config = random();
    return {
      id: i + 1,
      name: `${pick(random, STREETS).replace(/ (St|Ave)$/, "")} ${pick(random, ["Pharmacy", "Apothecary", "Drugs", "Health Pharmacy", "Family Pharmacy"])} #${i + 1}`,
      phone_number: `215-555-${pad(1000 + i, 4)}`,
      street_address: `${between(random, 100, 7999)} ${pick(random, STREETS)}`,
      city: "Philadelphia",
      state_abbreviation: "PA",
      zipcode: `191${pad(between(random, 2, 54), 2)}`,
      latitude: 39.9 + random() * 0.15,
      longitude: -75.25 + random() * 0.15,
      payment_methods: (["cash", "check", "card"] as const).map((type) => ({ type, allowed: chance(random, type === "cash" ? 0.8 : 0.5) })),
      allow_pod_copay_collection: chance(random, 0.5),
      routing_enabled: chance(random, 0.6),
      dob_verification_enabled: chance(random, 0.2),
      pod_recipient_config: config < 0.8 ? null : config < 0.9 ? "require_recipient" : "covid19_contactless",
      can_skip_copay_collection: chance(random, 0.3),
      can_skip_signature: chance(random, 0.5),
    };
  });
  await bulkInsert(db, "pharmacies", pharmacyRows);
  const pharmacyIds = pharmacyRows.map((row) => row.id);
  const pharmacyAt = new Map(pharmacyRows.map((row) => [row.id, row]));

  // Each courier's round: 3–6 pharmacies, visits confirmed (a pending one would stop the app at the confirmation screen).
  const rounds = courierIds.map((courierId) => {
    const chosen = new Set<number>();
    const wanted = between(random, 3, 6);
    while (chosen.size < Math.min(wanted, pharmacyIds.length)) chosen.add(pick(random, pharmacyIds));
    return { courierId, pharmacyIds: [...chosen] };
  });

  const rows = { couriers: courierIds.length, pharmacies: pharmacyIds.length, pharmacy_visits: 0, orders: 0, deliveries: 0, delivery_orders: 0 };
  const delivered = statusByName("delivered").id;
  const attempted = statusByName("delivery_attempted").id;
  for (let day = -size.historyDays; day <= 0; day++) {
    const date = shiftDate(serviceDate, day);
    const visits = rounds.flatMap((round) =>
      round.pharmacyIds.map((pharmacyId) => ({
        id: ++rows.pharmacy_visits,
        courier_id: round.courierId,
        pharmacy_id: pharmacyId,
        service_date: date,
        confirmed: true,
        arrived_at: day < 0 || chance(random, 0.4) ? iso(now + day * 86_400_000 - between(random, 1, 5) * 3_600_000) : null,
      })),
    );
    await bulkInsert(db, "pharmacy_visits", visits);

    const dayOrders: Row[] = [];
    const finished: { orderId: number; courierId: number; statusId: number; first: string; last: string; lat: number | null; lng: number }[] = [];
    for (let i = 0; i < size.ordersToday; i++) {
      const addon = day === 0 && chance(random, 0.02);
      const round = rounds[i % rounds.length]!;
      const pharmacyId = pick(random, round.pharmacyIds);
      const pharmacy = pharmacyAt.get(pharmacyId)!;
      const status: OrderStatusName = day < 0 ? "delivered" : addon ? "submitted_to_courier" : todayStatus(random);
      const statusId = statusByName(status).id;
      const controlled = chance(random, 0.05);
      const first = pick(random, FIRST);
      const last = pick(random, LAST);
      const id = ++rows.orders;
      const lat = chance(random, 0.98) ? pharmacy.latitude + (random() - 0.5) * 0.12 : null;
      const lng = pharmacy.longitude + (random() - 0.5) * 0.14;
      if (statusId === delivered || statusId === attempted) finished.push({ orderId: id, courierId: round.courierId, statusId, first, last, lat, lng });
      dayOrders.push({
        id,
        courier_id: addon ? null : round.courierId,
        pharmacy_id: pharmacyId,
        service_date: date,
        status_id: statusId,
        patient_first_name: first,
        patient_last_name: last,
        patient_date_of_birth: chance(random, 0.7) ? `${between(random, 1930, 2005)}-${pad(between(random, 1, 12), 2)}-${pad(between(random, 1, 28), 2)}` : null,
        recipient_description: `${first} ${last}`,
        street_address: `${between(random, 100, 7999)} ${pick(random, STREETS)}`,
        street_address_2: chance(random, 0.25) ? `Apt ${between(random, 1, 30)}${pick(random, ["A", "B", "C", "D"])}` : null,
        city: "Philadelphia",
        state_abbreviation: "PA",
        zipcode: `191${pad(between(random, 2, 54), 2)}`,
        latitude: lat,
        longitude: lng,
        phone_number: `215555${pad(between(random, 0, 9999), 4)}`,
        rx_numbers: Array.from({ length: between(random, 1, 3) }, () => `RX-${between(random, 100000, 999999)}`),
        pickup_note: chance(random, 0.05) ? "Ask at the side counter." : null,
        copay_cents: chance(random, 0.6) ? 0 : chance(random, 0.1) ? null : between(random, 100, 5000),
        delivery_fee_cents: chance(random, 0.5) ? null : chance(random, 0.6) ? 0 : between(random, 199, 799),
        other_items_amount_due_cents: chance(random, 0.05) ? between(random, 300, 2500) : 0,
        pid_order: chance(random, 0.2),
        delivery_notes: chance(random, 0.3) ? [{ courier_note: chance(random, 0.3), delivery_instruction: pick(random, INSTRUCTIONS), superuser_note: false }] : [],
        collect_identification: controlled || chance(random, 0.03),
        controlled_substance: controlled,
        signature_required: controlled || chance(random, 0.3),
        available_as_addon: addon,
        service_window_instance_id: 10_000 + (day + size.historyDays) * 1000 + (i % 97),
        picked_up_at: status === "picked_up" || statusId === delivered || statusId === attempted ? iso(now + day * 86_400_000) : null,
      });
    }
    await bulkInsert(db, "orders", dayOrders);

    // The deliveries behind the orders already delivered or attempted.
    const deliveryRows = finished.map((done) => ({
      id: ++rows.deliveries,
      courier_id: done.courierId,
      outcome: done.statusId === delivered ? "completed" : "failed",
      failure_reason_id: done.statusId === delivered ? null : 1,
      relationship_id: done.statusId === delivered ? 1 : null,
      recipient_first_name: done.statusId === delivered ? done.first : null,
      recipient_last_name: done.statusId === delivered ? done.last : null,
      signature_svg: done.statusId === delivered ? OLD_SIGNATURE : null,
      client_occurred_at: iso(now + day * 86_400_000),
      latitude: done.lat,
      longitude: done.lng,
    }));
    await bulkInsert(db, "deliveries", deliveryRows);
    await bulkInsert(db, "delivery_orders", finished.map((done, i) => ({ delivery_id: deliveryRows[i]!.id, order_id: done.orderId })));
    rows.delivery_orders += finished.length;
  }
  for (const table of ["couriers", "pharmacies", "pharmacy_visits", "orders", "deliveries"]) await resetIdentity(db, table);
  // A fleet's database at steady state has its statistics and has been vacuumed: without this,
  // autovacuum would come for the 20,000 fresh rows in the middle of the measured run.
  await db.execute(sql`vacuum analyze`);
  return { size, emails, rows, seconds: Math.round((performance.now() - started) / 100) / 10 };
}

/** Mid-morning: most orders still to pick up or in the bag, some already delivered. */
function todayStatus(random: Random): OrderStatusName {
  const r = random();
  if (r < 0.45) return "submitted_to_courier";
  if (r < 0.5) return "verified";
  if (r < 0.9) return "picked_up";
  if (r < 0.97) return "delivered";
  return "delivery_attempted";
}
