import { fromPromise } from "xstate";
import { ImportStopped, importOrders, type ImportReport, type OpsCall } from "../../../domain/order-import/import-orders.ts";
import { checkOrderCsv, type OrderCsvCheck } from "../../../domain/order-import/order-csv.ts";
import { consoleImportMachine, type ImportPharmacy } from "../../../machines/console-import.machine.ts";
import { opsRequest } from "./http.ts";
import { staffPharmacies } from "./pharmacies.ts";

/** The import's calls (machines/console-import.machine.ts): the CLI's import (domain/order-import) over the staff session. */
export const consoleImportActors = {
  loadPharmacies: fromPromise<ImportPharmacy[], { role: "dispatcher" | "pharmacist"; pharmacyId: number | null }>(async ({ input }) => staffPharmacies(input.role, input.pharmacyId)),
  // The CLI's reader and rules, in the browser: nothing is sent (decision 0033). A header that does not fit rejects with its words.
  checkFile: fromPromise<OrderCsvCheck, { fileName: string; text: string }>(async ({ input }) => checkOrderCsv(input.fileName, input.text)),
  importOrders: fromPromise<ImportReport, { text: string; pharmacyId: number; csrfToken: string | null }>(async ({ input }) => {
    const call: OpsCall = async <T,>(method: "POST", path: string, body?: unknown) =>
      (await (await opsRequest(method, path, { body, csrfToken: input.csrfToken })).json()) as T;
    try {
      return await importOrders(call, input.text, { pharmacyId: input.pharmacyId });
    } catch (error) {
      // Plain data for the machine's context: the report so far, the line it stopped at, and why.
      if (error instanceof ImportStopped) throw { report: error.report, fromLine: error.fromLine, cause: error.cause };
      throw error;
    }
  }),
};

export const consoleImportLogic = consoleImportMachine.provide({ actors: consoleImportActors });
