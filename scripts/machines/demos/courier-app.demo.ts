import { courierAppMachine } from "../../../machines/courier-app.machine.ts";
import { defineDemo } from "../demo-kit.ts";
import courierDay from "./courier-day.demo.ts";
import { TODAY } from "./fixtures.ts";
import offlineQueue from "./offline-queue.demo.ts";
import session from "./session.demo.ts";

export default defineDemo({
  machine: courierAppMachine,
  summary:
    "Today is 2026-11-24. The session, the courier's day and the offline queue are the real machines with their own demos' stand-ins " +
    "(see session, courier-day and offline-queue); the browser's 'online' event is yours to send from the event list.",
  input: { today: TODAY },
  standIns: {
    // A promise that answered at once would come back online forever: the browser decides when, so the event list does.
    browserOnline: { callback: "the browser's 'online' event: send xstate.done.actor.browserOnline from the event list" },
  },
  children: { session: session.standIns, courierDay: courierDay.standIns, offlineQueue: offlineQueue.standIns },
  events: [
    { type: "xstate.snapshot.session", snapshot: { value: "loggedIn" } },
    { type: "xstate.snapshot.session", snapshot: { value: "loggedOut" } },
    { type: "xstate.done.actor.browserOnline", output: TODAY },
  ],
});
