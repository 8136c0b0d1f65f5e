import { fromPromise } from "xstate";
import { ReturnsResponse, type ReturnManifest } from "../../../domain/contract/ops-proof.ts";
import { consoleReturnsMachine, type ReturnsPharmacy } from "../../../machines/console-returns.machine.ts";
import { opsRequest } from "./http.ts";
import { staffPharmacies } from "./pharmacies.ts";

/** The Returns screen's calls (machines/console-returns.machine.ts). */
export const consoleReturnsActors = {
  loadPharmacies: fromPromise<ReturnsPharmacy[], { role: "dispatcher" | "pharmacist"; pharmacyId: number | null }>(async ({ input }) => staffPharmacies(input.role, input.pharmacyId)),
  loadReturns: fromPromise<ReturnManifest[], { pharmacyId: number; serviceDate: string }>(async ({ input }) => {
    const query = new URLSearchParams({ pharmacy_id: String(input.pharmacyId), service_date: input.serviceDate });
    return ReturnsResponse.parse(await (await opsRequest("GET", `returns?${query}`)).json()).returns;
  }),
};

export const consoleReturnsLogic = consoleReturnsMachine.provide({ actors: consoleReturnsActors });
