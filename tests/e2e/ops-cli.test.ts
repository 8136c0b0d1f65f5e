import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { removeDataDir, startServer, type RunningServer } from "./support.ts";

/**
 * `npm run ops` (scripts/ops/index.ts) as a company would run it, against the
 * real server started with OPS_API_KEY: a pharmacy, a courier invite, a CSV
 * import with broken rows, its re-run, an assignment, and a pharmacy key.
 */

const run = promisify(execFile);
const DISPATCH_KEY = "e2e-dispatch-key-0123456789abcdefghijklmnop";
let server: RunningServer;
const dir = mkdtempSync(path.join(tmpdir(), "rxc-ops-e2e-"));

beforeAll(async () => {
  server = await startServer({ OPS_API_KEY: DISPATCH_KEY, DEMO_DATA: "false" });
});
afterAll(async () => {
  await server?.stop();
  if (server) removeDataDir(server);
  rmSync(dir, { recursive: true, force: true });
});

async function ops(args: string[], key = DISPATCH_KEY): Promise<{ status: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "scripts/ops/index.ts", ...args], {
      env: { ...process.env, RXC_URL: server.url, RXC_KEY: key },
      timeout: 60_000,
    });
    return { status: 0, out: stdout.trim(), err: stderr.trim() };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { status: failed.code, out: failed.stdout.trim(), err: failed.stderr.trim() };
  }
}

const HEADER = "external_id,patient_first_name,patient_last_name,phone_number,street_address,city,state_abbreviation,zipcode,rx_numbers,copay,delivery_instruction";
const row = (id: string, copay = "12.50", note = "") => `${id},Ana,Lopez,215-555-0100,1200 Walnut St,Philadelphia,PA,19107,RX-${id};RX-${id}b,${copay},${note}`;

it("sets a company up and imports, re-imports and assigns a day's orders through the CLI", async () => {
  const pharmacy = await ops([
    "--json", "pharmacies", "add", "--name", "Riverside Pharmacy", "--phone", "215-555-0100", "--street", "1 River Rd",
    "--city", "Philadelphia", "--state", "PA", "--zip", "19103", "--lat", "39.95", "--lng", "-75.16", "--payment-methods", "cash,card", "--collect-copay",
  ]);
  expect(pharmacy.status, pharmacy.err).toBe(0);
  const pharmacyId = (JSON.parse(pharmacy.out) as { pharmacy: { id: number } }).pharmacy.id;

  const invite = await ops(["couriers", "invite", "--first-name", "Sam", "--last-name", "Reyes", "--email", "sam.reyes@example.com"]);
  expect(invite.status, invite.err).toBe(0);
  expect(invite.out).toMatch(new RegExp(`^Courier \\d+: Sam Reyes <sam.reyes@example.com>`));
  expect(invite.out).toMatch(new RegExp(`${server.url}/set-password\\?token=[A-Za-z0-9_-]+`));
  const courierId = Number(/^Courier (\d+)/.exec(invite.out)![1]);

  const file = path.join(dir, "day.csv");
  writeFileSync(
    file,
    "\uFEFF" +
      [
        HEADER,
        row("E-1"),
        "",
        row("E-2", "0.50"), // line 4: copay under 1.00
        row("E-3", "", '"Ring twice, then knock"'),
        "E-4,Ana,Lopez,215-555-0100,1200 Walnut St,Philadelphia,PA,191,RX-1,,", // line 6: bad ZIP
        row("E-5", "3", '"never closed'), // line 7: the quote never closes
        row("E-6"),
        ",,,,,,,,,,",
        row("E-7"),
      ].join("\r\n") +
      "\r\n",
  );
  const imported = await ops(["orders", "import", file, "--pharmacy", String(pharmacyId), "--chunk-size", "2"]);
  expect(imported.status).toBe(1);
  expect(imported.out).toBe(
    [
      `${file}: 7 rows: 4 created, 0 unchanged (already imported), 3 rejected.`,
      "Rejected rows (nothing of them was imported; fix them and import the file again):",
      "  line 4 (E-2): copay must be 0.00 (no copay) or at least 1.00",
      "  line 6 (E-4): zipcode must be a ZIP code: 5 digits, or 5+4",
      "  line 7: a quote opened on this line is never closed",
    ].join("\n"),
  );
  expect(imported.err.split("\n")).toEqual([
    `Importing ${file}: 2/4 orders sent (50%)`,
    `Importing ${file}: 4/4 orders sent (100%)`,
  ]);

  // The same file again: nothing new, every order found by its external_id.
  const again = await ops(["--json", "orders", "import", file, "--pharmacy", String(pharmacyId)]);
  const report = JSON.parse(again.out) as { created: number; unchanged: number; imported: { line: number; externalId: string; orderId: number }[] };
  expect([report.created, report.unchanged]).toEqual([0, 4]);
  expect(report.imported.map((o) => [o.line, o.externalId])).toEqual([[2, "E-1"], [5, "E-3"], [8, "E-6"], [10, "E-7"]]);
  const orderIds = report.imported.map((o) => o.orderId);

  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
  const assigned = await ops(["assign", "--courier", String(courierId), "--date", today, "--orders", orderIds.join(",")]);
  expect(assigned.status, assigned.err).toBe(0);
  expect(assigned.out).toMatch(new RegExp(`^Assigned 4 orders to courier ${courierId} on ${today}\\. Pharmacy visits: visit \\d+ at pharmacy ${pharmacyId} \\(waiting for the courier to confirm\\)\\.$`));

  // A pharmacy's own key imports its orders, and no other pharmacy's.
  const key = await ops(["--json", "keys", "create", "--role", "pharmacy", "--pharmacy", String(pharmacyId), "--name", "Riverside PMS"]);
  expect(key.status, key.err).toBe(0);
  const pharmacyKey = (JSON.parse(key.out) as { key: string }).key;
  const single = path.join(dir, "one.csv");
  writeFileSync(single, `${HEADER}\n${row("P-1")}\n`);
  expect((await ops(["orders", "import", single, "--pharmacy", String(pharmacyId)], pharmacyKey)).out).toBe(
    `${single}: 1 row: 1 created, 0 unchanged (already imported), 0 rejected.`,
  );
  const elsewhere = await ops(["orders", "import", single, "--pharmacy", String(pharmacyId + 1000)], pharmacyKey);
  expect(elsewhere.status).toBe(1);
  expect(elsewhere.out).toContain(`  line 2 (P-1): Pharmacy ${pharmacyId + 1000} was not found.`);

  // A revoked key stops working at once.
  const keyId = (JSON.parse(key.out) as { id: number }).id;
  expect((await ops(["keys", "revoke", String(keyId)])).out).toBe(`Key ${keyId} revoked.`);
  expect((await ops(["orders", "import", single, "--pharmacy", String(pharmacyId)], pharmacyKey)).err).toMatch(/^401 unauthenticated: /m);

  // Issue 25: the keys are listed, the revoked one with its time, and never the key itself.
  const listed = await ops(["keys", "list"]);
  expect(listed.status, listed.err).toBe(0);
  const lines = listed.out.split("\n");
  expect(lines[0]).toMatch(/^ID\s+ROLE\s+PHARMACY\s+NAME\s+CREATED\s+LAST USED\s+REVOKED$/);
  expect(lines.find((line) => line.startsWith(`${keyId} `))).toMatch(
    new RegExp(`^${keyId}\\s+pharmacy\\s+${pharmacyId}\\s+Riverside PMS\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`),
  );
  expect(lines.find((line) => line.includes("OPS_API_KEY"))).toMatch(/\s+-$/);
  expect(listed.out).not.toContain(pharmacyKey);
  expect(listed.out).not.toContain(DISPATCH_KEY);
  const asJson = JSON.parse((await ops(["--json", "keys", "list"])).out) as { keys: { id: number; revoked_at: string | null }[] };
  expect(asJson.keys.find((k) => k.id === keyId)!.revoked_at).not.toBeNull();
  expect((await ops(["keys", "revoke", String(keyId)])).err).toBe(`404 not_found: Key ${keyId} was not found.`);
});
