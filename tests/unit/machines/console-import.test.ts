import { describe, expect, it } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { ImportReport } from "../../../domain/order-import/import-orders.ts";
import { checkOrderCsv, OrderCsvHeaderError } from "../../../domain/order-import/order-csv.ts";
import { consoleImportMachine } from "../../../machines/console-import.machine.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const HEADER = "external_id,patient_first_name,patient_last_name,phone_number,street_address,city,state_abbreviation,zipcode,rx_numbers";
const GOOD = "A-1,Ada,Lovelace,2155550123,5 Elfreth's Alley,Philadelphia,PA,19106,RX-1";
const BAD = "A-2,Alan,Turing,12,1 Market St,Philadelphia,PA,19106,RX-2";
const MIXED = [HEADER, GOOD, BAD].join("\n");
const ALL_BAD = [HEADER, BAD].join("\n");

const pharmacies = [
  { id: 1, name: "Riverside Community Pharmacy" },
  { id: 2, name: "Harbor Pharmacy" },
];
const report: ImportReport = { rows: 2, created: 1, unchanged: 0, rejected: [{ line: 3, endLine: 3, externalId: "A-2", reasons: ["phone_number must be a US phone number"] }], imported: [{ line: 2, externalId: "A-1", orderId: 40, status: "created" }] };
const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
const stopped = { report: { ...report, created: 0, imported: [] }, fromLine: 2, cause: offline };

// What the console's checkFile answers for each file: the domain's own verdict (the CLI's reader and rules).
const verdict = (fileName: string, text: string) => {
  try {
    return { type: "xstate.done.actor.checkFile", output: checkOrderCsv(fileName, text), file: fileName };
  } catch (error) {
    if (!(error instanceof OrderCsvHeaderError)) throw error;
    return { type: "xstate.error.actor.checkFile", error, file: fileName };
  }
};

const EVENTS = [
  { type: "CHOOSE_FILE", fileName: "day.csv", text: MIXED },
  { type: "CHOOSE_FILE", fileName: "bad.csv", text: ALL_BAD },
  { type: "CHOOSE_FILE", fileName: "empty.csv", text: "" },
  verdict("day.csv", MIXED),
  verdict("bad.csv", ALL_BAD),
  verdict("empty.csv", ""),
  { type: "SELECT_PHARMACY", pharmacyId: 2 },
  { type: "SELECT_PHARMACY", pharmacyId: 9 },
  { type: "IMPORT" },
  { type: "RETRY" },
  { type: "IMPORT_ANOTHER" },
  { type: "xstate.done.actor.loadPharmacies", output: pharmacies },
  { type: "xstate.error.actor.loadPharmacies", error: offline },
  { type: "xstate.done.actor.importOrders", output: report },
  { type: "xstate.error.actor.importOrders", error: stopped },
  { type: "xstate.error.actor.importOrders", error: offline },
];

const ACTORS = ["loadPharmacies", "checkFile", "importOrders"] as const;
const INPUT = { role: "dispatcher" as const, pharmacyId: null, csrfToken: "t" };

describe("console import machine (issue 27)", () => {
  const paths = transitionCoverPaths(consoleImportMachine, {
    input: INPUT,
    // A check answers for the file being checked.
    events: (snapshot) => possibleEvents(EVENTS)(snapshot).filter((event) => !("file" in event) || event.file === snapshot.context.fileName),
    serializeState: (s) =>
      JSON.stringify([s.value, s.context.pharmacyId, s.context.fileName, s.context.check?.fileName ?? null, s.context.error !== null, s.context.report !== null, s.context.stoppedAt, s.context.pharmacies.length]),
  });

  it.each(paths.map((path) => [pathName(path), path] as const))("replays %s", async (_name, path) => {
    const { snapshot, calls } = await replayPath(consoleImportMachine, ACTORS, INPUT, path);
    expect(snapshot.value).toEqual(path.state.value);
    expect(snapshot.context).toEqual(path.state.context);
    // An import sends exactly the file that was checked, for the pharmacy chosen.
    for (const call of calls.filter((c) => c.actor === "importOrders")) expect(call.input).toEqual({ text: MIXED, pharmacyId: 2, csrfToken: "t" });
    // A check reads the file chosen last, with its name.
    for (const call of calls.filter((c) => c.actor === "checkFile")) expect(["day.csv", "bad.csv", "empty.csv"]).toContain((call.input as { fileName: string }).fileName);
  });

  it("covers every state and transition", () => expectFullCoverage(consoleImportMachine, paths, { input: INPUT }));

  it("lists the rows that would be rejected by line and reason before anything is sent", () => {
    const checked = paths.find((p) => p.state.matches("checked") && p.state.context.check?.fileName === "day.csv")!;
    expect(checked.state.context.check).toMatchObject({ rows: 2, ready: 1 });
    expect(checked.state.context.check!.rejected.map((row: { line: number; reasons: string[] }) => [row.line, row.reasons])).toEqual([[3, ["phone_number must be a US phone number: 10 digits, optionally after a leading 1"]]]);
  });

  it("imports nothing without a pharmacy, nor a file whose every row is rejected", () => {
    const noPharmacy = paths.find((p) => p.state.matches("checked") && p.state.context.pharmacyId === null)!;
    expect(noPharmacy.state.can({ type: "IMPORT" })).toBe(false);
    const allBad = paths.find((p) => p.state.matches("checked") && p.state.context.check?.fileName === "bad.csv" && p.state.context.pharmacyId === 2)!;
    expect(allBad.state.can({ type: "IMPORT" })).toBe(false);
  });

  it("says why a file cannot be imported at all, and how far a stopped import got", () => {
    const empty = paths.find((p) => p.state.matches("file") && p.state.context.error !== null)!;
    expect(empty.state.context.error).toBe("empty.csv cannot be imported. The file is empty: it needs a header row and one order a row.");
    const halted = paths.find((p) => p.state.matches("failed") && p.state.context.stoppedAt === 2)!;
    expect(halted.state.context.error).toBe(
      "The server cannot be reached. Check the connection, then choose 'Try again'. The import stopped at line 2: rows from there on were not sent. Importing the same file again adds only what is missing.",
    );
  });

  it("fixes a pharmacist's pharmacy to theirs", () => {
    const snapshot = consoleImportMachine.resolveState({ value: "file", context: { role: "pharmacist", csrfToken: "t", pharmacies: [pharmacies[0]!], pharmacyId: 1, text: null, fileName: null, check: null, error: null, failure: null, report: null, stoppedAt: null } });
    expect(snapshot.can({ type: "SELECT_PHARMACY", pharmacyId: 1 })).toBe(false);
  });
});
