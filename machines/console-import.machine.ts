import { assign, fromPromise, setup } from "xstate";
import { toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import type { StaffRole } from "../domain/order-actions.ts";
import type { ImportReport } from "../domain/order-import/import-orders.ts";
import type { OrderCsvCheck } from "../domain/order-import/order-csv.ts";
import { tellSessionEnded } from "./console-session-ended.ts";

/**
 * The dispatch console's import (issue 27, /dispatch/import): a CSV file and a
 * pharmacy are chosen; the file is checked at once, in the browser, by the
 * same parser and rules as the CLI (domain/order-import's checkOrderCsv, the
 * checkFile actor the console provides; decision 0033) —
 * nothing is written, and the rows that would be rejected are listed by line
 * with their reasons; 'Import {n} orders' then sends the rest through POST
 * /api/ops/v1/orders/batch exactly as `npm run ops -- orders import` does, and
 * shows the same report. A batch the server refuses as a whole stops the
 * import: what was imported until then is reported, and importing the same
 * file again adds only the rest (external_id makes each order once).
 */
export interface ImportPharmacy {
  id: number;
  name: string;
}

/** The file as checked: the orders ready to send and the rows that would be rejected. */
export type ImportCheck = OrderCsvCheck;

/** The import stopped part way: the report until then and from which line nothing was sent. */
export interface ImportStoppedAt {
  report: ImportReport;
  fromLine: number;
}

export interface ConsoleImportContext {
  role: StaffRole;
  /** The staff session's CSRF token, sent with each batch. */
  csrfToken: string | null;
  pharmacies: ImportPharmacy[];
  pharmacyId: number | null;
  /** The chosen file's text (UTF-8), kept to import exactly what was checked. */
  text: string | null;
  /** The file being checked. */
  fileName: string | null;
  check: ImportCheck | null;
  /** Why the file cannot be imported at all (empty, a header that does not fit), or the pharmacies could not load. */
  error: string | null;
  failure: ApiFailure | null;
  report: ImportReport | null;
  stoppedAt: number | null;
}

export type ConsoleImportEvent =
  | { type: "CHOOSE_FILE"; fileName: string; text: string }
  | { type: "SELECT_PHARMACY"; pharmacyId: number }
  | { type: "IMPORT" }
  | { type: "RETRY" }
  | { type: "IMPORT_ANOTHER" };

/** A refused or failed import call in a dispatcher's words. */
export function importFailureText(failure: ApiFailure): string {
  switch (failure.kind) {
    case "network":
    case "unavailable":
      return "The server cannot be reached. Check the connection, then choose 'Try again'.";
    case "unauthenticated":
      return "Your session has ended. Please log in again.";
    case "forbidden":
      return "You are not allowed to import orders for this pharmacy.";
    case "refused":
      return failure.message || "The server refused the import.";
    case "server":
    case "other":
      return "Something went wrong on the server. Choose 'Try again'.";
  }
}

function stoppedOf(error: unknown): ImportStoppedAt | null {
  const candidate = error as Partial<ImportStoppedAt> | null;
  return candidate && typeof candidate === "object" && candidate.report && typeof candidate.fromLine === "number" ? { report: candidate.report, fromLine: candidate.fromLine } : null;
}

/** An import actor rejects with {report, fromLine, cause} when it stopped part way (src/console/api/import.ts). */
const causeOf = (error: unknown) => toApiFailure((error as { cause?: unknown } | null)?.cause ?? error);

export const consoleImportMachine = setup({
  types: {
    context: {} as ConsoleImportContext,
    events: {} as ConsoleImportEvent,
    input: {} as { role: StaffRole; pharmacyId: number | null; csrfToken: string | null },
  },
  actors: {
    /** A dispatcher's: every pharmacy. A pharmacist's: their own, by name. */
    loadPharmacies: fromPromise<ImportPharmacy[], { role: StaffRole; pharmacyId: number | null }>(async () => {
      throw new Error("provide loadPharmacies");
    }),
    /** The CLI's reader and rules on the file (domain/order-import checkOrderCsv); rejects with the reason a file cannot be imported at all. */
    checkFile: fromPromise<ImportCheck, { fileName: string; text: string }>(async () => {
      throw new Error("provide checkFile");
    }),
    importOrders: fromPromise<ImportReport, { text: string; pharmacyId: number; csrfToken: string | null }>(async () => {
      throw new Error("provide importOrders");
    }),
  },
  guards: {
    mayChoosePharmacy: ({ context, event }) =>
      event.type === "SELECT_PHARMACY" && context.role === "dispatcher" && context.pharmacies.some((pharmacy) => pharmacy.id === event.pharmacyId),
    readyToImport: ({ context }) => context.pharmacyId !== null && context.text !== null && (context.check?.ready ?? 0) > 0,
  },
  actions: {
    /** A call answered 401: the console's session hears it, by its system id, and takes the console to the login. */
    tellSessionEnded,
    storePharmacies: assign(({ context }, pharmacies: ImportPharmacy[]) => ({
      pharmacies,
      // A pharmacist's pharmacy is fixed; a dispatcher with one pharmacy has nothing to choose.
      pharmacyId: context.role === "pharmacist" || pharmacies.length === 1 ? (pharmacies[0]?.id ?? null) : context.pharmacyId,
      error: null,
      failure: null,
    })),
    showLoadError: assign((_, failure: ApiFailure) => ({ error: importFailureText(failure), failure })),
    takeFile: assign(({ event }) => (event.type === "CHOOSE_FILE" ? { fileName: event.fileName, text: event.text, check: null, error: null, failure: null, report: null, stoppedAt: null } : {})),
    storeCheck: assign((_, check: ImportCheck) => ({ check })),
    showFileError: assign(({ context }, { error }: { error: unknown }) => ({
      text: null,
      check: null,
      error: `${context.fileName} cannot be imported. ${error instanceof Error ? error.message : toApiFailure(error).message}`,
    })),
    choosePharmacy: assign(({ event }) => (event.type === "SELECT_PHARMACY" ? { pharmacyId: event.pharmacyId } : {})),
    storeReport: assign((_, report: ImportReport) => ({ report, error: null, failure: null, stoppedAt: null })),
    showImportStopped: assign((_, { error }: { error: unknown }) => {
      const failure = causeOf(error);
      const stopped = stoppedOf(error);
      return {
        failure,
        report: stopped?.report ?? null,
        stoppedAt: stopped?.fromLine ?? null,
        error: `${importFailureText(failure)}${stopped ? ` The import stopped at line ${stopped.fromLine}: rows from there on were not sent. Importing the same file again adds only what is missing.` : ""}`,
      };
    }),
    forgetFile: assign({ text: null, fileName: null, check: null, error: null, failure: null, report: null, stoppedAt: null }),
  },
}).createMachine({
  id: "consoleImport",
  description: "Import orders from a CSV file: file → checked → importing → report.",
  context: ({ input }) => ({
    role: input.role,
    csrfToken: input.csrfToken,
    pharmacies: [],
    pharmacyId: input.pharmacyId,
    text: null,
    fileName: null,
    check: null,
    error: null,
    failure: null,
    report: null,
    stoppedAt: null,
  }),
  initial: "loadingPharmacies",
  states: {
    loadingPharmacies: {
      description: "GET /api/ops/v1/pharmacies (a dispatcher), or the pharmacist's own pharmacy.",
      invoke: {
        id: "loadPharmacies",
        src: "loadPharmacies",
        input: ({ context }) => ({ role: context.role, pharmacyId: context.pharmacyId }),
        onDone: { target: "file", actions: { type: "storePharmacies", params: ({ event }) => event.output } },
        onError: { target: "pharmaciesFailed", actions: [{ type: "showLoadError", params: ({ event }) => toApiFailure(event.error) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
      },
    },
    pharmaciesFailed: {
      description: "The pharmacies could not load: the reason and 'Try again'.",
      on: { RETRY: { target: "loadingPharmacies" } },
    },
    file: {
      description: "'CSV file' and 'Pharmacy': nothing chosen yet, or a file that cannot be read as orders (said why).",
      on: {
        CHOOSE_FILE: { target: "checking", actions: "takeFile" },
        SELECT_PHARMACY: { guard: "mayChoosePharmacy", actions: "choosePharmacy" },
      },
    },
    checking: {
      description: "The CLI's parser and rules read the file in the browser; nothing is written.",
      invoke: {
        id: "checkFile",
        src: "checkFile",
        input: ({ context }) => ({ fileName: context.fileName!, text: context.text! }),
        onDone: { target: "checked", actions: { type: "storeCheck", params: ({ event }) => event.output } },
        onError: { target: "file", actions: { type: "showFileError", params: ({ event }) => ({ error: event.error }) }, description: "An empty file or a header that does not fit: nothing can be imported." },
      },
    },
    checked: {
      description: "The rows that would be rejected, by line and reason, and 'Import {n} orders'.",
      on: {
        CHOOSE_FILE: { target: "checking", actions: "takeFile", description: "Another file is checked instead." },
        SELECT_PHARMACY: { guard: "mayChoosePharmacy", actions: "choosePharmacy" },
        IMPORT: { guard: "readyToImport", target: "importing", description: "A pharmacy chosen and at least one row to import." },
      },
    },
    importing: {
      description: "POST /api/ops/v1/orders/batch, a thousand rows at a time, with the CLI's code.",
      invoke: {
        id: "importOrders",
        src: "importOrders",
        input: ({ context }) => ({ text: context.text!, pharmacyId: context.pharmacyId!, csrfToken: context.csrfToken }),
        onDone: { target: "report", actions: { type: "storeReport", params: ({ event }) => event.output } },
        onError: {
          target: "failed",
          actions: [{ type: "showImportStopped", params: ({ event }) => ({ error: event.error }) }, { type: "tellSessionEnded", params: ({ event }) => causeOf(event.error) }],
        },
      },
    },
    report: {
      description: "The CLI's report: created, unchanged (already imported), rejected rows by line.",
      on: { IMPORT_ANOTHER: { target: "file", actions: "forgetFile" } },
    },
    failed: {
      description: "The server refused a batch as a whole or could not be reached: what was imported until then, 'Try again' with the same file.",
      on: {
        RETRY: { target: "importing" },
        IMPORT_ANOTHER: { target: "file", actions: "forgetFile" },
      },
    },
  },
});
