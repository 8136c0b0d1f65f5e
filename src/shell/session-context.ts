import { fromPromise } from "xstate";
import type { ItineraryResponse } from "../../domain/contract/index.ts";
import type { CourierDayCalls, DayLoad } from "../../machines/courier-day.definition.ts";
import type { SessionCalls } from "../../machines/session.definition.ts";
import { toApiFailure } from "../../domain/api-failure.ts";
import { currentCourierId, fetchCurrentSession, fetchItinerary, logIn, logOut } from "../api/sessions.ts";
import { clearAllFlows } from "../offline/flow-keys.ts";
import { deviceStore } from "../offline/device-store.ts";
import { SYSTEM_IDS } from "../../machines/courier-app.definition.ts";
import { deviceToday, firstScreenUp } from "./offline-queue-logic.ts";

/** The session's calls through the app's API client (the application machine's session is built with them: app-actor.ts). */
export const appSessionCalls: SessionCalls = {
  fetchCurrentSession: fromPromise(() => fetchCurrentSession()),
  logIn: fromPromise(({ input }) => logIn(input.email, input.password)),
  logOut: fromPromise(async ({ system }) => {
    await logOut();
    // Patient data leaves the device with the courier (the menu warned first if anything was unsent).
    await (await deviceStore()).clearAll();
    clearAllFlows();
    system.get(SYSTEM_IDS.offlineQueue)?.send({ type: "CLEAR" });
  }),
};

/** Loading the day from the server (or the device's copy when offline) and keeping it on the device. */
export const appCourierDayCalls: CourierDayCalls = {
  loadDay: fromPromise<DayLoad>(async () => {
    try {
      // The day machine keeps a server's day on the device (its saveDay, below).
      return { itinerary: await fetchItinerary(), source: "server" };
    } catch (error) {
      // No network: the copy kept on the phone lets the courier carry on (spec §1).
      const failure = toApiFailure(error);
      const courierId = currentCourierId();
      if ((failure.kind === "network" || failure.kind === "unavailable") && courierId !== null) {
        const saved = await (await deviceStore()).loadDay(courierId, deviceToday());
        if (saved) return { itinerary: saved, source: "device" };
      }
      throw error;
    }
  }),
  // Once the screen the day reveals is up: opening the device's store (localforage, IndexedDB) is not
  // what the courier waits for (issue 29). A newer change, or a logout, stops this save before it writes.
  saveDay: fromPromise<void, { day: ItineraryResponse }>(async ({ input, signal }) => {
    await firstScreenUp();
    if (signal.aborted) return;
    await (await deviceStore()).saveDay({ courierId: input.day.courier.id, savedOn: deviceToday(), itinerary: input.day });
  }),
};
