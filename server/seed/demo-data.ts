/**
 * The demo courier's day. Between them the pharmacies and orders exercise
 * every branch of the spec: each pharmacy flag on and off, each
 * pod_recipient_config, each payment method allowed or not, copays and fees,
 * controlled substances, ID collection, signatures, date-of-birth checks,
 * delivery notes of each kind, a pickup note, a group of zero-copay orders at
 * one address, a pending visit confirmation and add-ons.
 */
import type { OrderStatusName } from "../../domain/vocabulary.ts";

export const DEMO_PASSWORD = "deliver-safely";

export const demoCouriers = [
  { key: "courier", email: "courier@example.com", firstName: "Dana", lastName: "Whitfield", selfServiceAddonsEnabled: true },
  { key: "courier2", email: "courier2@example.com", firstName: "Marcus", lastName: "Ortega", selfServiceAddonsEnabled: false },
] as const;
export type DemoCourierKey = (typeof demoCouriers)[number]["key"];

/** The console's password of the demo day's staff (issue 27). */
export const DEMO_STAFF_PASSWORD = "dispatch-safely";

/** Who runs the demo day from the dispatch console: a dispatcher, and a pharmacist of Riverside. */
export const demoStaff = [
  { email: "dispatch@example.com", firstName: "Jordan", lastName: "Reyes", role: "dispatcher", pharmacy: null },
  { email: "pharmacist@example.com", firstName: "Priya", lastName: "Natarajan", role: "pharmacist", pharmacy: "riverside" },
] as const;

type PaymentMethodType = "cash" | "check" | "card";
const methods = (allowed: PaymentMethodType[]) =>
  (["cash", "check", "card"] as const).map((type) => ({ type, allowed: allowed.includes(type) }));

export const demoPharmacies = [
  {
    key: "riverside",
    name: "Riverside Community Pharmacy",
    phoneNumber: "215-555-0142",
    streetAddress: "1520 South St",
    city: "Philadelphia",
    stateAbbreviation: "PA",
    zipcode: "19146",
    latitude: 39.9436,
    longitude: -75.1689,
    paymentMethods: methods(["cash", "check", "card"]),
    allowPodCopayCollection: true,
    routingEnabled: true,
    dobVerificationEnabled: true,
    podRecipientConfig: null,
    canSkipCopayCollection: false,
    canSkipSignature: true,
  },
  {
    key: "market",
    name: "Market Street Apothecary",
    phoneNumber: "215-555-0177",
    streetAddress: "2001 Market St",
    streetAddress2: "Suite 110",
    city: "Philadelphia",
    stateAbbreviation: "PA",
    zipcode: "19103",
    latitude: 39.9540,
    longitude: -75.1737,
    paymentMethods: methods(["cash", "card"]),
    allowPodCopayCollection: true,
    routingEnabled: false,
    dobVerificationEnabled: false,
    podRecipientConfig: "require_recipient",
    canSkipCopayCollection: true,
    canSkipSignature: false,
  },
  {
    key: "greenway",
    name: "Greenway Health Pharmacy",
    phoneNumber: "215-555-0109",
    streetAddress: "4400 Baltimore Ave",
    city: "Philadelphia",
    stateAbbreviation: "PA",
    zipcode: "19104",
    latitude: 39.9496,
    longitude: -75.2115,
    paymentMethods: methods(["cash"]),
    allowPodCopayCollection: false,
    routingEnabled: true,
    dobVerificationEnabled: false,
    podRecipientConfig: "covid19_contactless",
    canSkipCopayCollection: false,
    canSkipSignature: true,
  },
  {
    key: "northside",
    name: "Northside Family Drugs",
    phoneNumber: "215-555-0188",
    streetAddress: "2735 Germantown Ave",
    city: "Philadelphia",
    stateAbbreviation: "PA",
    zipcode: "19133",
    latitude: 39.9943,
    longitude: -75.1467,
    paymentMethods: methods(["check", "cash"]),
    allowPodCopayCollection: true,
    routingEnabled: false,
    dobVerificationEnabled: true,
    podRecipientConfig: null,
    canSkipCopayCollection: true,
    canSkipSignature: false,
  },
  {
    key: "lakeside",
    name: "Lakeside Specialty Pharmacy",
    phoneNumber: "215-555-0123",
    streetAddress: "7300 Frankford Ave",
    city: "Philadelphia",
    stateAbbreviation: "PA",
    zipcode: "19136",
    latitude: 40.0339,
    longitude: -75.0434,
    paymentMethods: methods(["card"]),
    allowPodCopayCollection: true,
    routingEnabled: true,
    dobVerificationEnabled: false,
    podRecipientConfig: null,
    canSkipCopayCollection: false,
    canSkipSignature: true,
  },
] as const;
export type DemoPharmacyKey = (typeof demoPharmacies)[number]["key"];

/** confirmed: null = the visit confirmation is still pending. */
export const demoVisits: { courier: DemoCourierKey; pharmacy: DemoPharmacyKey; confirmed: boolean | null }[] = [
  { courier: "courier", pharmacy: "riverside", confirmed: true },
  { courier: "courier", pharmacy: "market", confirmed: true },
  { courier: "courier", pharmacy: "greenway", confirmed: true },
  { courier: "courier", pharmacy: "northside", confirmed: true },
  { courier: "courier", pharmacy: "lakeside", confirmed: null },
  { courier: "courier2", pharmacy: "riverside", confirmed: true },
  { courier: "courier2", pharmacy: "market", confirmed: true },
];

export interface DemoNote {
  courier_note: boolean;
  delivery_instruction: string;
  superuser_note: boolean;
}

export interface DemoOrder {
  courier: DemoCourierKey | null;
  pharmacy: DemoPharmacyKey;
  status: OrderStatusName;
  first: string;
  last: string;
  dob?: string;
  street: string;
  street2?: string;
  city?: string;
  zip: string;
  lat: number;
  lng: number;
  phone: string;
  rx: string[];
  copay?: number | null;
  fee?: number | null;
  other?: number;
  pickupNote?: string;
  notes?: DemoNote[];
  pid?: boolean;
  collectId?: boolean;
  controlled?: boolean;
  signatureRequired?: boolean;
  addon?: boolean;
}

const instruction = (text: string): DemoNote => ({ courier_note: false, delivery_instruction: text, superuser_note: false });
const superuser = (text: string): DemoNote => ({ courier_note: false, delivery_instruction: text, superuser_note: true });
const courierNote = (text: string): DemoNote => ({ courier_note: true, delivery_instruction: text, superuser_note: false });

export const demoOrders: DemoOrder[] = [
  // Riverside: DOB checks, every payment method, signature may be skipped, routing on.
  { courier: "courier", pharmacy: "riverside", status: "submitted_to_courier", first: "Eleanor", last: "Abernathy", dob: "1948-03-14", street: "1012 Pine St", zip: "19107", lat: 39.9446, lng: -75.1588, phone: "2155550101", rx: ["RX-400112", "RX-400113"], copay: 1250, fee: 500, pickupNote: "Ring the bell at the side counter; ask for Priya.", notes: [instruction("Leave with doorman if patient is out."), courierNote("Dog in yard, friendly.")], pid: true, signatureRequired: true },
  { courier: "courier", pharmacy: "riverside", status: "submitted_to_courier", first: "Walter", last: "Brennan", dob: "1955-11-02", street: "2210 Catharine St", zip: "19146", lat: 39.9420, lng: -75.1795, phone: "(215) 555-0102", rx: ["RX-400201"], copay: 0, fee: 0, pid: true },
  { courier: "courier", pharmacy: "riverside", status: "submitted_to_courier", first: "Rosa", last: "Delgado", dob: "1972-06-21", street: "819 S 9th St", zip: "19147", lat: 39.9389, lng: -75.1575, phone: "12155550103", rx: ["RX-400305"], copay: 4500, collectId: true, controlled: true, signatureRequired: true, pid: true, notes: [superuser("Controlled substance: verify ID against the name on the label.")] },
  { courier: "courier", pharmacy: "riverside", status: "submitted_to_courier", first: "Harold", last: "Johnson", dob: "1961-02-27", street: "1200 Spruce St", street2: "Apt 4B", zip: "19107", lat: 39.9468, lng: -75.1612, phone: "2155550104", rx: ["RX-400410"], copay: 0, fee: null },
  { courier: "courier", pharmacy: "riverside", status: "submitted_to_courier", first: "Margaret", last: "Johnson", dob: "1963-10-15", street: "1200 Spruce St", street2: "Apt 4B", zip: "19107", lat: 39.9468, lng: -75.1612, phone: "2155550104", rx: ["RX-400411"], copay: 0, fee: 0 },
  { courier: "courier", pharmacy: "riverside", status: "submitted_to_courier", first: "Timothy", last: "Johnson", dob: "2008-05-09", street: "1200 Spruce St", street2: "Apt 4B", zip: "19107", lat: 39.9468, lng: -75.1612, phone: "2155550104", rx: ["RX-400412"], copay: null, fee: null, notes: [instruction("Buzz 4B; elevator is on the left.")] },
  { courier: "courier", pharmacy: "riverside", status: "new", first: "Grace", last: "Kowalski", dob: "1944-12-01", street: "2301 Fitzwater St", zip: "19146", lat: 39.9431, lng: -75.1808, phone: "2155550105", rx: ["RX-400520"], copay: 800 },

  // Market Street: require_recipient, can skip copay collection, card and cash, no check.
  { courier: "courier", pharmacy: "market", status: "submitted_to_courier", first: "Samuel", last: "Okafor", street: "1819 John F Kennedy Blvd", street2: "Unit 1502", zip: "19103", lat: 39.9548, lng: -75.1707, phone: "2155550201", rx: ["RX-510001"], copay: 2500, fee: 399, signatureRequired: true, notes: [instruction("Front desk will call up.")] },
  { courier: "courier", pharmacy: "market", status: "submitted_to_courier", first: "Linda", last: "Park", street: "2400 Chestnut St", street2: "Apt 910", zip: "19103", lat: 39.9522, lng: -75.1802, phone: "2155550202", rx: ["RX-510002", "RX-510003", "RX-510004"], copay: 0, fee: 0 },
  { courier: "courier", pharmacy: "market", status: "submitted_to_courier", first: "Anthony", last: "Russo", street: "255 S 17th St", zip: "19103", lat: 39.9481, lng: -75.1694, phone: "2155550203", rx: ["RX-510005"], copay: 1599, collectId: true, signatureRequired: true },
  { courier: "courier", pharmacy: "market", status: "submitted_to_courier", first: "Priya", last: "Shah", street: "1600 Arch St", street2: "Apt 2207", zip: "19103", lat: 39.9553, lng: -75.1672, phone: "2155550204", rx: ["RX-510006"], copay: 0, fee: 750, other: 1200 },
  { courier: "courier", pharmacy: "market", status: "submitted_to_courier", first: "George", last: "Turner", street: "2031 Locust St", zip: "19103", lat: 39.9495, lng: -75.1754, phone: "2155550205", rx: ["RX-510007"], copay: 300, controlled: true, collectId: true, signatureRequired: true },

  // Greenway: contactless only; copay not collected at the door; routing on; already picked up.
  { courier: "courier", pharmacy: "greenway", status: "picked_up", first: "Nadia", last: "Haddad", street: "4601 Larchwood Ave", zip: "19143", lat: 39.9479, lng: -75.2146, phone: "2155550301", rx: ["RX-620001"], copay: 0, fee: 0, notes: [instruction("Leave in the lockbox by the porch; code 4471.")] },
  { courier: "courier", pharmacy: "greenway", status: "picked_up", first: "Curtis", last: "Mayfield", street: "4210 Chester Ave", zip: "19104", lat: 39.9470, lng: -75.2070, phone: "2155550302", rx: ["RX-620002"], copay: 0, fee: null },
  { courier: "courier", pharmacy: "greenway", status: "picked_up", first: "Joanne", last: "Nguyen", street: "5020 Cedar Ave", zip: "19143", lat: 39.9481, lng: -75.2251, phone: "2155550303", rx: ["RX-620003", "RX-620004"], copay: 0, fee: 0 },
  { courier: "courier", pharmacy: "greenway", status: "picked_up", first: "Raymond", last: "Price", street: "4300 Spruce St", zip: "19104", lat: 39.9531, lng: -75.2084, phone: "2155550304", rx: ["RX-620005"], copay: 0, fee: 0 },

  // Northside: DOB checks, check and cash, copay collection may be skipped, add-ons.
  { courier: "courier", pharmacy: "northside", status: "submitted_to_courier", first: "Beatrice", last: "Coleman", dob: "1939-09-30", street: "3001 N Broad St", zip: "19132", lat: 40.0000, lng: -75.1530, phone: "2155550401", rx: ["RX-730001"], copay: 1000, fee: 250, pid: true, signatureRequired: true },
  { courier: "courier", pharmacy: "northside", status: "submitted_to_courier", first: "Franklin", last: "Diaz", dob: "1981-01-17", street: "2820 N 5th St", zip: "19133", lat: 39.9946, lng: -75.1407, phone: "2155550402", rx: ["RX-730002"], copay: 0, fee: 0, pid: true },
  // No date of birth on file: the date-of-birth step can only be 'Did not verify date of birth'.
  { courier: "courier", pharmacy: "northside", status: "submitted_to_courier", first: "Yolanda", last: "Evans", street: "1900 W Lehigh Ave", zip: "19132", lat: 39.9968, lng: -75.1640, phone: "2155550403", rx: ["RX-730003"], copay: 650, signatureRequired: true },
  { courier: "courier", pharmacy: "northside", status: "submitted_to_courier", first: "Isaac", last: "Freeman", dob: "1966-07-04", street: "3100 Germantown Ave", zip: "19133", lat: 39.9980, lng: -75.1485, phone: "2155550404", rx: ["RX-730004"], copay: 0, fee: 0, collectId: true, pid: true },

  // Lakeside: visit not yet confirmed; card only.
  { courier: "courier", pharmacy: "lakeside", status: "submitted_to_courier", first: "Helen", last: "Ivanova", street: "7500 Frankford Ave", zip: "19136", lat: 40.0355, lng: -75.0405, phone: "2155550501", rx: ["RX-840001"], copay: 3500, fee: 500, signatureRequired: true },
  { courier: "courier", pharmacy: "lakeside", status: "submitted_to_courier", first: "Oscar", last: "Jimenez", street: "4000 Cottman Ave", zip: "19135", lat: 40.0321, lng: -75.0521, phone: "2155550502", rx: ["RX-840002"], copay: 0, fee: 0 },

  // Add-ons on offer at Northside: no courier yet.
  { courier: null, addon: true, pharmacy: "northside", status: "submitted_to_courier", first: "Kevin", last: "Lambert", street: "2600 N 6th St", zip: "19133", lat: 39.9911, lng: -75.1425, phone: "2155550601", rx: ["RX-730101"], copay: 500 },
  { courier: null, addon: true, pharmacy: "northside", status: "submitted_to_courier", first: "Monica", last: "Lopez", street: "2900 N 3rd St", zip: "19133", lat: 39.9960, lng: -75.1375, phone: "2155550602", rx: ["RX-730102"], copay: 0 },
  { courier: null, addon: true, pharmacy: "northside", status: "submitted_to_courier", first: "Nathan", last: "Moore", street: "3200 N 2nd St", zip: "19140", lat: 40.0012, lng: -75.1340, phone: "2155550603", rx: ["RX-730103"], copay: 1200 },
  { courier: null, addon: true, pharmacy: "northside", status: "submitted_to_courier", first: "Olivia", last: "Reed", street: "2500 W Somerset St", zip: "19132", lat: 39.9989, lng: -75.1700, phone: "2155550604", rx: ["RX-730104"], copay: 0 },

  // The second demo courier's own day.
  { courier: "courier2", pharmacy: "riverside", status: "submitted_to_courier", first: "Paul", last: "Schaefer", dob: "1958-08-19", street: "1900 Christian St", zip: "19146", lat: 39.9403, lng: -75.1750, phone: "2155550701", rx: ["RX-400901"], copay: 900 },
  { courier: "courier2", pharmacy: "riverside", status: "submitted_to_courier", first: "Quinn", last: "Sullivan", dob: "1990-04-03", street: "700 S Broad St", zip: "19146", lat: 39.9418, lng: -75.1660, phone: "2155550702", rx: ["RX-400902"], copay: 0 },
  { courier: "courier2", pharmacy: "market", status: "picked_up", first: "Rita", last: "Thompson", street: "1700 Walnut St", zip: "19103", lat: 39.9497, lng: -75.1697, phone: "2155550703", rx: ["RX-510901"], copay: 0, fee: 0 },
  { courier: "courier2", pharmacy: "market", status: "picked_up", first: "Victor", last: "Underwood", street: "2100 Pine St", zip: "19103", lat: 39.9466, lng: -75.1776, phone: "2155550704", rx: ["RX-510902"], copay: 1500 },
];
