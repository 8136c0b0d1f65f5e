import { assign, fromPromise, setup } from "xstate";
import { toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import type { ReturnManifest } from "../domain/contract/ops-proof.ts";
import type { StaffRole } from "../domain/contract/staff.ts";
import { tellSessionEnded } from "./console-session-ended.ts";

/**
 * The console's 'Returns' screen (issue 27, the pharmacist's "their return
 * manifests"; a dispatcher's too): a pharmacy's return manifests of a service
 * day (GET /api/ops/v1/returns?pharmacy_id=&service_date=). A dispatcher
 * chooses the pharmacy (GET /api/ops/v1/pharmacies); a pharmacist's is theirs
 * and fixed (the ops API scopes them). The console provides the calls
 * (src/console/api/returns.ts).
 */
export interface ReturnsPharmacy {
  id: number;
  name: string;
}

export interface ConsoleReturnsContext {
  role: StaffRole;
  serviceDate: string;
  pharmacies: ReturnsPharmacy[];
  pharmacyId: number | null;
  returns: ReturnManifest[];
  error: string | null;
  failure: ApiFailure | null;
}

export type ConsoleReturnsEvent = { type: "SET_SERVICE_DATE"; serviceDate: string } | { type: "SELECT_PHARMACY"; pharmacyId: number } | { type: "RETRY" };

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A failed call of this screen, in the words of the people who run the day. */
export function returnsFailureText(failure: ApiFailure, doing: "pharmacies" | "returns"): string {
  switch (failure.kind) {
    case "network":
    case "unavailable":
      return "The server cannot be reached. Check the connection, then choose 'Try again'.";
    case "unauthenticated":
      return "Your session has ended. Please log in again.";
    case "forbidden":
      return "You are not allowed to see this pharmacy's returns.";
    case "refused":
      return failure.status === 404 ? "This pharmacy's returns cannot be found." : failure.message || "The server refused to list the returns.";
    case "server":
    case "other":
      return doing === "pharmacies" ? "Something went wrong loading the pharmacies. Choose 'Try again'." : "Something went wrong loading the returns. Choose 'Try again'.";
  }
}

export const consoleReturnsMachine = setup({
  types: {
    context: {} as ConsoleReturnsContext,
    events: {} as ConsoleReturnsEvent,
    input: {} as { role: StaffRole; pharmacyId: number | null; serviceDate: string },
  },
  actors: {
    /** A dispatcher's: every pharmacy. A pharmacist's: their own, by name. */
    loadPharmacies: fromPromise<ReturnsPharmacy[], { role: StaffRole; pharmacyId: number | null }>(async () => {
      throw new Error("provide loadPharmacies");
    }),
    loadReturns: fromPromise<ReturnManifest[], { pharmacyId: number; serviceDate: string }>(async () => {
      throw new Error("provide loadReturns");
    }),
  },
  guards: {
    isAnotherValidDay: ({ context, event }) =>
      event.type === "SET_SERVICE_DATE" && CALENDAR_DAY.test(event.serviceDate) && event.serviceDate !== context.serviceDate,
    /** Only a dispatcher chooses, among the pharmacies listed, another one than shown. */
    mayChoosePharmacy: ({ context, event }) =>
      event.type === "SELECT_PHARMACY" &&
      context.role === "dispatcher" &&
      event.pharmacyId !== context.pharmacyId &&
      context.pharmacies.some((pharmacy) => pharmacy.id === event.pharmacyId),
    /** Another valid day, and a pharmacy to load it for. */
    isAnotherDayToLoad: ({ context, event }) =>
      event.type === "SET_SERVICE_DATE" &&
      CALENDAR_DAY.test(event.serviceDate) &&
      event.serviceDate !== context.serviceDate &&
      context.pharmacies.length > 0 &&
      context.pharmacyId !== null,
    /** The pharmacies listed: a pharmacist has theirs; a dispatcher needs one at least. */
    hasPharmacyToLoad: ({ context }, params: { pharmacies: ReturnsPharmacy[] }) => (context.role === "pharmacist" ? context.pharmacyId !== null : params.pharmacies.length > 0),
    pharmaciesLoaded: ({ context }) => context.pharmacies.length > 0 && context.pharmacyId !== null,
  },
  actions: {
    /** A call answered 401: the console's session hears it, by its system id, and takes the console to the login. */
    tellSessionEnded,
    storePharmacies: assign(({ context }, pharmacies: ReturnsPharmacy[]) => ({
      pharmacies,
      // A pharmacist's pharmacy is fixed; a dispatcher starts with the first pharmacy listed.
      pharmacyId: context.role === "pharmacist" ? context.pharmacyId : (pharmacies[0]?.id ?? null),
    })),
    storeReturns: assign((_, returns: ReturnManifest[]) => ({ returns, error: null, failure: null })),
    setServiceDate: assign(({ event }) => (event.type === "SET_SERVICE_DATE" ? { serviceDate: event.serviceDate, returns: [] } : {})),
    choosePharmacy: assign(({ event }) => (event.type === "SELECT_PHARMACY" ? { pharmacyId: event.pharmacyId, returns: [] } : {})),
    showFailure: assign((_, params: { failure: ApiFailure; doing: "pharmacies" | "returns" }) => ({
      error: returnsFailureText(params.failure, params.doing),
      failure: params.failure,
      returns: [],
    })),
    clearError: assign({ error: null, failure: null }),
  },
}).createMachine({
  id: "consoleReturns",
  description: "A pharmacy's return manifests of a service day.",
  context: ({ input }) => ({ role: input.role, serviceDate: input.serviceDate, pharmacies: [], pharmacyId: input.pharmacyId, returns: [], error: null, failure: null }),
  initial: "loadingPharmacies",
  states: {
    loadingPharmacies: {
      description: "GET /api/ops/v1/pharmacies (a dispatcher), or the pharmacist's own pharmacy.",
      invoke: {
        id: "loadPharmacies",
        src: "loadPharmacies",
        input: ({ context }) => ({ role: context.role, pharmacyId: context.pharmacyId }),
        onDone: [
          {
            guard: { type: "hasPharmacyToLoad", params: ({ event }) => ({ pharmacies: event.output }) },
            target: "loading", actions: { type: "storePharmacies", params: ({ event }) => event.output } },
          { target: "ready", actions: { type: "storePharmacies", params: ({ event }) => event.output }, description: "No pharmacy at all: nothing to list." },
        ],
        onError: { target: "failed", actions: [{ type: "showFailure", params: ({ event }) => ({ failure: toApiFailure(event.error), doing: "pharmacies" as const }) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
      },
      on: { SET_SERVICE_DATE: { guard: "isAnotherValidDay", actions: "setServiceDate" } },
    },
    loading: {
      description: "GET /api/ops/v1/returns?pharmacy_id=&service_date=",
      invoke: {
        id: "loadReturns",
        src: "loadReturns",
        input: ({ context }) => ({ pharmacyId: context.pharmacyId!, serviceDate: context.serviceDate }),
        onDone: { target: "ready", actions: { type: "storeReturns", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: [{ type: "showFailure", params: ({ event }) => ({ failure: toApiFailure(event.error), doing: "returns" as const }) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
      },
      on: {
        // Another day or pharmacy while loading: the call starts again for it (the earlier answer is dropped).
        SET_SERVICE_DATE: { guard: "isAnotherValidDay", target: "loading", reenter: true, actions: "setServiceDate" },
        SELECT_PHARMACY: { guard: "mayChoosePharmacy", target: "loading", reenter: true, actions: "choosePharmacy" },
      },
    },
    ready: {
      description: "The day's manifests (or none, said in words).",
      on: {
        SET_SERVICE_DATE: [
          { guard: "isAnotherDayToLoad", target: "loading", actions: "setServiceDate" },
          { guard: "isAnotherValidDay", actions: "setServiceDate", description: "No pharmacy to list: the day is kept for when there is one." },
        ],
        SELECT_PHARMACY: { guard: "mayChoosePharmacy", target: "loading", actions: "choosePharmacy" },
      },
    },
    failed: {
      description: "The failure in words and 'Try again'.",
      on: {
        RETRY: [
          { guard: "pharmaciesLoaded", target: "loading", actions: "clearError" },
          { target: "loadingPharmacies", actions: "clearError" },
        ],
        SET_SERVICE_DATE: [
          { guard: "isAnotherDayToLoad", target: "loading", actions: ["clearError", "setServiceDate"] },
          { guard: "isAnotherValidDay", actions: "setServiceDate", description: "The pharmacies did not load: 'Try again' loads this day." },
        ],
        SELECT_PHARMACY: { guard: "mayChoosePharmacy", target: "loading", actions: ["clearError", "choosePharmacy"] },
      },
    },
  },
});
