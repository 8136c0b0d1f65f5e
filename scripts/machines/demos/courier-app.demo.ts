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
    "(see session, courier-day and offline-queue). The browser's 'online' event is not simulated: the network watch waits.",
  input: { today: TODAY },
  standIns: {
    // A promise that answered at once would come back online forever, so the watch here never fires.
    browserOnline: { callback: "the browser's 'online' event, which never comes here" },
  },
  children: { session: session.standIns, courierDay: courierDay.standIns, offlineQueue: offlineQueue.standIns },
  events: [
    { type: "SESSION_OPENED" },
    { type: "SESSION_CLOSED" },
  ],
});
