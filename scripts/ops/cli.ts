import { readFile } from "node:fs/promises";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import type {
  AssignmentRequest,
  AssignmentResponse,
  CourierInviteRequest,
  CourierInviteResponse,
  CourierUpdateRequest,
  KeyCreateRequest,
  OpsCourier,
  KeyCreateResponse,
  KeyListResponse,
  PharmacyCreateRequest,
} from "../../domain/contract/ops.ts";
import { KEY_ROLES, MAX_BATCH_ORDERS } from "../../domain/contract/ops.ts";
import { PAYMENT_TYPES, POD_RECIPIENT_CONFIGS, type PaymentType } from "../../domain/vocabulary.ts";
import { clientFromEnv, OpsApiError, UsageError, type OpsClient } from "./client.ts";
import { formatReport, ImportStopped, importOrders } from "../../domain/order-import/import-orders.ts";
import { OrderCsvHeaderError } from "../../domain/order-import/order-csv.ts";
import { addStaffCommands } from "./staff-commands.ts";

/** Where the CLI writes, and what it reads: the real process, or a test's. */
export interface OpsIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Whether err is a terminal: the import's progress then rewrites one line. */
  errIsTty?: boolean;
}

const positiveId = (what: string) => (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) throw new InvalidArgumentError(`${what} must be a positive whole number.`);
  return Number(value);
};

const idList = (value: string) => value.split(",").map((item) => positiveId("each order id")(item.trim()));

function number(value: string): number {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed)) throw new InvalidArgumentError("must be a number.");
  return parsed;
}

function paymentTypes(value: string): PaymentType[] {
  const types = value.split(",").map((item) => item.trim().toLowerCase()).filter(Boolean);
  const wrong = types.filter((type) => !(PAYMENT_TYPES as readonly string[]).includes(type));
  if (wrong.length) throw new InvalidArgumentError(`${wrong.join(", ")}: each must be one of ${PAYMENT_TYPES.join(", ")}.`);
  return types as PaymentType[];
}

/** "08:00-16:00" → the shift's two ends (the API checks each is HH:MM and the end after the start). */
function shift(value: string): { shift_start: string; shift_end: string } {
  const match = /^\s*([^-\s]+)\s*[-–]\s*([^-\s]+)\s*$/.exec(value);
  if (!match) throw new InvalidArgumentError("must be two times of day as HH:MM-HH:MM, e.g. 08:00-16:00.");
  return { shift_start: match[1]!, shift_end: match[2]! };
}

/** "39.95,-75.16" → a location. */
function location(value: string): { latitude: number; longitude: number } {
  const parts = value.split(",").map((part) => part.trim());
  const [latitude, longitude] = parts.map(Number);
  if (parts.length !== 2 || parts.some((part) => part === "") || !Number.isFinite(latitude) || !Number.isFinite(longitude)) {
    throw new InvalidArgumentError("must be a latitude and a longitude as LAT,LNG, e.g. 39.9526,-75.1652.");
  }
  return { latitude: latitude!, longitude: longitude! };
}

function describeCourierPlanning(courier: OpsCourier): string {
  const place = (where: OpsCourier["start_location"]) => (where ? `${where.latitude},${where.longitude}` : "their first stop");
  const end = courier.end_location ? `${courier.end_location.latitude},${courier.end_location.longitude}` : "their last stop";
  return [
    `Courier ${courier.id}: ${courier.first_name} ${courier.last_name}`,
    `  shift: ${courier.shift_start && courier.shift_end ? `${courier.shift_start}–${courier.shift_end}` : "all day"}`,
    `  capacity: ${courier.capacity ?? "no limit"} order${courier.capacity === 1 ? "" : "s"} at once`,
    `  starts at ${place(courier.start_location)}, ends at ${end}`,
  ].join("\n");
}

/** The invite link dispatch sends the courier (the app's /set-password screen). */
export const inviteLink = (baseUrl: string, token: string) => `${baseUrl.replace(/\/+$/, "")}/set-password?token=${encodeURIComponent(token)}`;

function describeInvite(invite: CourierInviteResponse, baseUrl: string): string {
  const { courier } = invite;
  return [
    `Courier ${courier.id}: ${courier.first_name} ${courier.last_name} <${courier.email}>`,
    `Send them this link to set their password (it works once, until ${invite.invite_expires_at}):`,
    `  ${inviteLink(baseUrl, invite.invite_token)}`,
  ].join("\n");
}

/** A visit's state in words: the courier confirms each pharmacy visit in the app. */
const visitState = (confirmed: boolean | null) => (confirmed === null ? "waiting for the courier to confirm" : confirmed ? "confirmed" : "declined by the courier");

function describeAssignment(answer: AssignmentResponse, options: { courier: number; date: string }): string {
  // Say what changed: a move from another day, and what was already so (a resent assignment changes nothing).
  const moved = answer.rescheduled.map((row) => `order ${row.order_id} moved from ${row.from}`);
  const notes = [...moved, ...(answer.unchanged.length ? [`${answer.unchanged.length} already there, unchanged`] : [])];
  const orders = `Assigned ${answer.orders.length} order${answer.orders.length === 1 ? "" : "s"} to courier ${options.courier} on ${options.date}${notes.length ? ` (${notes.join("; ")})` : ""}.`;
  if (answer.pharmacy_visits.length === 0) return `${orders} No pharmacy visit.`;
  const visits = answer.pharmacy_visits.map((visit) => `visit ${visit.id} at pharmacy ${visit.pharmacy_id} (${visitState(visit.confirmed)})`);
  return `${orders} Pharmacy visits: ${visits.join(", ")}.`;
}

/** "2026-11-25T14:05:09.120Z" → "2026-11-25 14:05 UTC"; null → "-". */
const minute = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "-");

/** GET /keys as a table a person reads: one key a line, revoked ones with their time. */
export function formatKeys(answer: KeyListResponse): string {
  const rows = [
    ["ID", "ROLE", "PHARMACY", "NAME", "CREATED", "LAST USED", "REVOKED"],
    ...answer.keys.map((key) => [String(key.id), key.role, key.pharmacy_id === null ? "-" : String(key.pharmacy_id), key.name, minute(key.created_at), minute(key.last_used_at), minute(key.revoked_at)]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()).join("\n");
}

/**
 * `npm run ops -- <command>`: the operations API from a terminal (issue 15),
 * documented in docs/operations.md. Returns the exit status: 0 done, 1 the
 * server refused (or an import had rejected rows), 2 a usage mistake.
 */
export async function runOps(argv: string[], io: OpsIo): Promise<number> {
  let client: OpsClient | null = null;
  const call: OpsClient = (method, path, body) => (client ??= clientFromEnv(io.env))(method, path, body);
  const baseUrl = () => io.env.RXC_URL ?? "";
  let status = 0;
  const print = (json: boolean, data: unknown, human: string) => io.out(json ? JSON.stringify(data, null, 2) : human);

  const program = new Command("ops")
    .description("Run the courier company's day through the Rx Courier operations API. Needs RXC_URL and RXC_KEY.")
    .option("--json", "print the API's JSON answer instead of a summary")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text.trimEnd()), writeErr: (text) => io.err(text.trimEnd()) })
    .showHelpAfterError("(run with --help for the commands and options)");
  const json = () => Boolean(program.opts().json);
  // Once the command line is understood, before anything is sent: RXC_URL and RXC_KEY must be there.
  program.hook("preAction", () => {
    client ??= clientFromEnv(io.env);
  });

  // ------------------------------------------------------------ pharmacies
  const pharmacies = program.command("pharmacies").description("pharmacies the company picks up from (dispatch key)");
  pharmacies
    .command("add")
    .description("add a pharmacy")
    .requiredOption("--name <name>", "the pharmacy's name")
    .requiredOption("--phone <number>", "its phone number")
    .requiredOption("--street <address>", "street address")
    .option("--street2 <line>", "suite, floor")
    .requiredOption("--city <city>", "city")
    .requiredOption("--state <XX>", "two-letter state")
    .requiredOption("--zip <zipcode>", "ZIP code")
    .requiredOption("--lat <degrees>", "latitude", number)
    .requiredOption("--lng <degrees>", "longitude", number)
    .option("--payment-methods <list>", `payment types the courier may take, comma-separated (${PAYMENT_TYPES.join(", ")})`, paymentTypes, [...PAYMENT_TYPES])
    .option("--collect-copay", "couriers collect copays at the door (allow_pod_copay_collection)", false)
    .option("--can-skip-copay", "the courier may skip copay collection", false)
    .option("--can-skip-signature", "the courier may skip the signature", false)
    .option("--routing", "route optimisation for this pharmacy's deliveries", false)
    .option("--dob-check", "the courier checks the patient's date of birth", false)
    .addOption(new Option("--pod-recipient <config>", "who may accept a delivery").choices([...POD_RECIPIENT_CONFIGS]))
    .option("--pickup-note <text>", "shown to the courier at check-in")
    .action(async (options) => {
      const body: PharmacyCreateRequest = {
        name: options.name,
        phone_number: options.phone,
        address: {
          street_address: options.street,
          street_address_2: options.street2 ?? null,
          city: options.city,
          state_abbreviation: String(options.state).toUpperCase() as PharmacyCreateRequest["address"]["state_abbreviation"],
          zipcode: options.zip,
          latitude: options.lat,
          longitude: options.lng,
        },
        payment_methods: PAYMENT_TYPES.map((type) => ({ type, allowed: (options.paymentMethods as PaymentType[]).includes(type) })),
        allow_pod_copay_collection: options.collectCopay,
        routing_enabled: options.routing,
        dob_verification_enabled: options.dobCheck,
        pod_recipient_config: options.podRecipient ?? null,
        can_skip_copay_collection: options.canSkipCopay,
        can_skip_signature: options.canSkipSignature,
        pickup_note: options.pickupNote ?? null,
      };
      const answer = await call<{ pharmacy: { id: number; name: string } }>("POST", "pharmacies", body);
      print(json(), answer, `Pharmacy ${answer.pharmacy.id}: ${answer.pharmacy.name}`);
    });
  pharmacies
    .command("list")
    .description("list the pharmacies")
    .action(async () => {
      const answer = await call<{ pharmacies: { id: number; name: string; address: { city: string; state_abbreviation: string } }[] }>("GET", "pharmacies");
      print(json(), answer, answer.pharmacies.map((p) => `${p.id}\t${p.name}\t${p.address.city}, ${p.address.state_abbreviation}`).join("\n") || "No pharmacies yet.");
    });

  // ------------------------------------------------------------ couriers
  const couriers = program.command("couriers").description("couriers and their invitations (dispatch key)");
  couriers
    .command("invite")
    .description("add a courier and print the link that lets them set a password (valid 7 days, once)")
    .requiredOption("--first-name <name>", "first name")
    .requiredOption("--last-name <name>", "last name")
    .requiredOption("--email <email>", "the email they log in with")
    .option("--phone <number>", "phone number")
    .action(async (options) => {
      const body: CourierInviteRequest = { first_name: options.firstName, last_name: options.lastName, email: options.email, phone_number: options.phone ?? null };
      const answer = await call<CourierInviteResponse>("POST", "couriers", body);
      print(json(), answer, describeInvite(answer, baseUrl()));
    });
  couriers
    .command("reinvite")
    .description("a new invite link for a courier who never set a password or forgot it (the old link stops working)")
    .argument("<courier-id>", "the courier's id", positiveId("courier-id"))
    .action(async (id: number) => {
      const answer = await call<CourierInviteResponse>("POST", `couriers/${id}/invitation`, {});
      print(json(), answer, describeInvite(answer, baseUrl()));
    });
  couriers
    .command("update")
    .description("set what the day planner plans a courier with: capacity, shift, start and end (PATCH couriers/{id})")
    .argument("<courier-id>", "the courier's id", positiveId("courier-id"))
    .option("--capacity <n>", "orders carried at once", positiveId("--capacity"))
    .option("--shift <HH:MM-HH:MM>", "working hours in the service's time zone, e.g. 08:00-16:00", shift)
    .option("--start <LAT,LNG>", "where the day starts (home or depot)", location)
    .option("--end <LAT,LNG>", "where the day ends", location)
    .action(async (id: number, options: { capacity?: number; shift?: ReturnType<typeof shift>; start?: ReturnType<typeof location>; end?: ReturnType<typeof location> }) => {
      const body: CourierUpdateRequest = {
        ...(options.capacity !== undefined ? { capacity: options.capacity } : {}),
        ...(options.shift ?? {}),
        ...(options.start ? { start_location: options.start } : {}),
        ...(options.end ? { end_location: options.end } : {}),
      };
      if (Object.keys(body).length === 0) throw new UsageError("Name at least one of --capacity, --shift, --start, --end.");
      const answer = await call<{ courier: OpsCourier }>("PATCH", `couriers/${id}`, body);
      print(json(), answer, describeCourierPlanning(answer.courier));
    });
  couriers
    .command("list")
    .description("list the couriers")
    .action(async () => {
      const answer = await call<{ couriers: { id: number; first_name: string; last_name: string; email: string; active: boolean; password_set: boolean }[] }>("GET", "couriers");
      const state = (c: { active: boolean; password_set: boolean }) => (!c.active ? "deactivated" : c.password_set ? "active" : "invited");
      print(json(), answer, answer.couriers.map((c) => `${c.id}\t${c.first_name} ${c.last_name}\t${c.email}\t${state(c)}`).join("\n") || "No couriers yet.");
    });

  // ------------------------------------------------------------ staff (issue 27)
  addStaffCommands(program, { call, print: (data, human) => print(json(), data, human), link: (token) => inviteLink(baseUrl(), token) });

  // ------------------------------------------------------------ orders
  const orders = program.command("orders").description("orders (dispatch key, or a pharmacy's key for its own orders)");
  orders
    .command("import")
    .description("import orders from a CSV file (columns: docs/operations.md); rejected rows are listed by line")
    .argument("<file>", "the CSV file (UTF-8)")
    .requiredOption("--pharmacy <id>", "the pharmacy the orders are from", positiveId("--pharmacy"))
    .option("--chunk-size <n>", `orders per request (at most ${MAX_BATCH_ORDERS})`, positiveId("--chunk-size"), MAX_BATCH_ORDERS)
    .action(async (file: string, options: { pharmacy: number; chunkSize: number }) => {
      const text = await readUtf8(file);
      let lastPercent = -1;
      const report = await importOrders(call, text, {
        pharmacyId: options.pharmacy,
        chunkSize: Math.min(options.chunkSize, MAX_BATCH_ORDERS),
        onProgress: (done, total) => {
          // A progress line once there is more than one batch: a large file takes a while.
          if (total <= options.chunkSize) return;
          const percent = Math.floor((done / total) * 100);
          if (percent === lastPercent) return;
          lastPercent = percent;
          const line = `Importing ${file}: ${done}/${total} orders sent (${percent}%)`;
          if (io.errIsTty) io.err(`\r${line}${done === total ? "\n" : ""}`);
          else io.err(line);
        },
      });
      print(json(), report, formatReport(report, file));
      if (report.rejected.length) status = 1;
    });

  // ------------------------------------------------------------ assignments
  program
    .command("assign")
    .description("give orders to a courier's day (each pharmacy's visit then waits for the courier to confirm it)")
    .requiredOption("--courier <id>", "the courier", positiveId("--courier"))
    .requiredOption("--date <YYYY-MM-DD>", "the service date")
    .requiredOption("--orders <ids>", "order ids, comma-separated", idList)
    .action(async (options: { courier: number; date: string; orders: number[] }) => {
      const body: AssignmentRequest = { courier_id: options.courier, service_date: options.date, order_ids: options.orders };
      const answer = await call<AssignmentResponse>("POST", "assignments", body);
      print(json(), answer, describeAssignment(answer, options));
    });

  // ------------------------------------------------------------ keys
  const keys = program.command("keys").description("API keys (dispatch key)");
  keys
    .command("create")
    .description("create an API key; it is printed this once (only its hash is stored)")
    .addOption(new Option("--role <role>", "dispatch, or pharmacy for one pharmacy's system").choices([...KEY_ROLES]).makeOptionMandatory())
    .option("--pharmacy <id>", "the pharmacy a pharmacy key belongs to", positiveId("--pharmacy"))
    .requiredOption("--name <name>", "what the key is for, e.g. 'Riverside PMS'")
    .action(async (options: { role: KeyCreateRequest["role"]; pharmacy?: number; name: string }) => {
      const body: KeyCreateRequest = { role: options.role, name: options.name, ...(options.pharmacy ? { pharmacy_id: options.pharmacy } : {}) };
      const answer = await call<KeyCreateResponse>("POST", "keys", body);
      print(
        json(),
        answer,
        `Key ${answer.id} (${answer.role}${answer.pharmacy_id ? ` for pharmacy ${answer.pharmacy_id}` : ""}): ${answer.name}\n  ${answer.key}\nStore it now: it is not shown again.`,
      );
    });
  keys
    .command("list")
    .description("every key: id, role, pharmacy, name, when it was made, last used and revoked (never the key itself)")
    .action(async () => {
      const answer = await call<KeyListResponse>("GET", "keys");
      print(json(), answer, formatKeys(answer));
    });
  keys
    .command("revoke")
    .description("revoke a key at once")
    .argument("<key-id>", "the key's id", positiveId("key-id"))
    .action(async (id: number) => {
      await call("DELETE", `keys/${id}`);
      print(json(), { id, revoked: true }, `Key ${id} revoked.`);
    });

  try {
    await program.parseAsync(argv, { from: "user" });
    return status;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof UsageError || error instanceof OrderCsvHeaderError) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof ImportStopped) {
      io.err(formatReport(error.report, "so far"));
      io.err(error.message);
      return 1;
    }
    if (error instanceof OpsApiError) {
      io.err(error.message);
      return 1;
    }
    io.err(unreachable(error, baseUrl()) ?? (error instanceof Error ? error.message : String(error)));
    return 1;
  }
}

/** fetch's "fetch failed" said as what it means, with the network's reason (refused, unknown host, timed out). */
function unreachable(error: unknown, baseUrl: string): string | null {
  const stopped = error instanceof ImportStopped ? error.cause : error;
  if (stopped instanceof DOMException && stopped.name === "TimeoutError") return `${baseUrl} did not answer in time.`;
  if (!(stopped instanceof TypeError) || !(stopped.cause instanceof Error)) return null;
  return `Cannot reach ${baseUrl} (RXC_URL): ${stopped.cause.message}`;
}

/** The file as UTF-8 text; a file saved in another encoding is refused rather than imported garbled. */
async function readUtf8(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${file} is not UTF-8 text: save it as "CSV UTF-8" and import it again.`);
  }
}
