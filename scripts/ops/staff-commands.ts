import { InvalidArgumentError, type Command } from "commander";
import { STAFF_ROLES, type StaffInviteRequest, type StaffInviteResponse, type StaffRole } from "../../domain/contract/staff.ts";
import type { OpsClient } from "./client.ts";
import { UsageError } from "./client.ts";

/** What the staff commands need of the CLI (scripts/ops/cli.ts). */
export interface StaffCommandDeps {
  call: OpsClient;
  print: (data: unknown, human: string) => void;
  link: (token: string) => string;
}

const role = (value: string): StaffRole => {
  if (!(STAFF_ROLES as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be ${STAFF_ROLES.join(" or ")}.`);
  return value as StaffRole;
};

const positiveId = (what: string) => (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) throw new InvalidArgumentError(`${what} must be a positive whole number.`);
  return Number(value);
};

function describeStaffInvite(invite: StaffInviteResponse, link: (token: string) => string): string {
  const { staff } = invite;
  const who = staff.role === "pharmacist" ? `pharmacist of pharmacy ${staff.pharmacy_id}` : "dispatcher";
  return [
    `Staff ${staff.id}: ${staff.first_name} ${staff.last_name} <${staff.email}>, ${who}`,
    `Send them this link to set their password (it works once, until ${invite.invite_expires_at}); then they log in at /dispatch/login:`,
    `  ${link(invite.invite_token)}`,
  ].join("\n");
}

/** `npm run ops -- staff …` (issue 27): the dispatch console's people, managed with a dispatch key. */
export function addStaffCommands(program: Command, deps: StaffCommandDeps): void {
  const staff = program.command("staff").description("dispatchers and pharmacists who log in to the dispatch console (dispatch key)");
  staff
    .command("invite")
    .description("add a dispatcher or a pharmacist and print the link that lets them set a password (valid 7 days, once)")
    .requiredOption("--role <role>", "dispatcher (every pharmacy, every courier) or pharmacist (one pharmacy)", role)
    .option("--pharmacy <id>", "the pharmacist's pharmacy (required for a pharmacist)", positiveId("--pharmacy"))
    .requiredOption("--email <email>", "the email they log in with")
    .requiredOption("--first-name <name>", "first name")
    .requiredOption("--last-name <name>", "last name")
    .action(async (options: { role: StaffRole; pharmacy?: number; email: string; firstName: string; lastName: string }) => {
      if (options.role === "pharmacist" && options.pharmacy === undefined) throw new UsageError("A pharmacist needs --pharmacy <id>: the pharmacy they work for.");
      if (options.role === "dispatcher" && options.pharmacy !== undefined) throw new UsageError("A dispatcher sees every pharmacy: leave out --pharmacy.");
      const body: StaffInviteRequest = {
        role: options.role,
        email: options.email,
        first_name: options.firstName,
        last_name: options.lastName,
        ...(options.pharmacy !== undefined ? { pharmacy_id: options.pharmacy } : {}),
      };
      const answer = await deps.call<StaffInviteResponse>("POST", "staff", body);
      deps.print(answer, describeStaffInvite(answer, deps.link));
    });
  staff
    .command("reinvite")
    .description("a new invite link for a staff member who never set a password or forgot it (the old link stops working)")
    .argument("<staff-id>", "the staff member's id", positiveId("staff-id"))
    .action(async (id: number) => {
      const answer = await deps.call<StaffInviteResponse>("POST", `staff/${id}/invitation`, {});
      deps.print(answer, describeStaffInvite(answer, deps.link));
    });
  staff
    .command("deactivate")
    .description("end a staff member's access: no more logins, every session ends at once")
    .argument("<staff-id>", "the staff member's id", positiveId("staff-id"))
    .action(async (id: number) => {
      const answer = await deps.call<{ staff: { id: number; first_name: string; last_name: string } }>("POST", `staff/${id}/deactivation`, {});
      deps.print(answer, `Staff ${answer.staff.id} (${answer.staff.first_name} ${answer.staff.last_name}) is deactivated; every session of theirs has ended.`);
    });
  staff
    .command("list")
    .description("list the dispatchers and pharmacists")
    .action(async () => {
      const answer = await deps.call<{ staff: { id: number; first_name: string; last_name: string; email: string; role: StaffRole; pharmacy_id: number | null; active: boolean; password_set: boolean }[] }>("GET", "staff");
      const state = (s: { active: boolean; password_set: boolean }) => (!s.active ? "deactivated" : s.password_set ? "active" : "invited");
      const line = (s: (typeof answer.staff)[number]) =>
        `${s.id}\t${s.first_name} ${s.last_name}\t${s.email}\t${s.role}${s.pharmacy_id !== null ? ` of pharmacy ${s.pharmacy_id}` : ""}\t${state(s)}`;
      deps.print(answer, answer.staff.map(line).join("\n") || "No staff yet.");
    });
}
