import { expect, it } from "vitest";
import { opsCli } from "../support/ops-cli.ts";
import { describeOps, pharmacyBody } from "../support/ops-harness.ts";
import { STAFF_PASSWORD, staffLogin } from "../support/staff-harness.ts";

/** `npm run ops -- staff invite` (issue 27) against the real API listening on a port: the printed link sets the password. */
describeOps("npm run ops -- staff", (ctx) => {
  const ops = opsCli(ctx);

  it("invites a pharmacist and prints the set-password link that then works on /set-password's endpoint", async () => {
    const pharmacy = (await ctx().ops("POST", "/api/ops/v1/pharmacies", pharmacyBody({ name: "CLI Pharmacy" }))).json().pharmacy.id as number;
    const result = await ops(["staff", "invite", "--role", "pharmacist", "--pharmacy", String(pharmacy), "--email", "cli-pharmacist@example.com", "--first-name", "Rae", "--last-name", "Lin"]);
    expect(result.err).toBe("");
    expect(result.status).toBe(0);
    expect(result.out).toMatch(new RegExp(`^Staff \\d+: Rae Lin <cli-pharmacist@example.com>, pharmacist of pharmacy ${pharmacy}\\n`));
    const link = /(http:\/\/127\.0\.0\.1:\d+\/set-password\?token=([A-Za-z0-9_-]+))/.exec(result.out);
    expect(link, result.out).not.toBeNull();
    expect((await ctx().raw("POST", "/api/courier/password", { token: link![2], password: STAFF_PASSWORD })).statusCode).toBe(204);
    const session = await staffLogin(ctx(), "cli-pharmacist@example.com");
    expect(session.staffId).toBeGreaterThan(0);

    const listed = await ops(["staff", "list"]);
    expect(listed.out).toContain(`Rae Lin\tcli-pharmacist@example.com\tpharmacist of pharmacy ${pharmacy}\tactive`);
  });

  it("invites a dispatcher, and refuses a pharmacist without a pharmacy or an unknown role before sending (exit 2)", async () => {
    const dispatcher = await ops(["staff", "invite", "--role", "dispatcher", "--email", "cli-dispatcher@example.com", "--first-name", "Sam", "--last-name", "Ray"]);
    expect(dispatcher.status).toBe(0);
    expect(dispatcher.out).toContain("<cli-dispatcher@example.com>, dispatcher");
    const noPharmacy = await ops(["staff", "invite", "--role", "pharmacist", "--email", "x@example.com", "--first-name", "X", "--last-name", "Y"]);
    expect(noPharmacy.status).toBe(2);
    expect(noPharmacy.err).toContain("A pharmacist needs --pharmacy <id>");
    const badRole = await ops(["staff", "invite", "--role", "courier", "--email", "x@example.com", "--first-name", "X", "--last-name", "Y"]);
    expect(badRole.status).toBe(2);
    expect(badRole.err).toContain("must be dispatcher or pharmacist");
    const again = await ops(["staff", "invite", "--role", "dispatcher", "--email", "cli-dispatcher@example.com", "--first-name", "Sam", "--last-name", "Ray"]);
    expect(again.status).toBe(1);
    expect(again.err).toContain("already exists");
  });
});
