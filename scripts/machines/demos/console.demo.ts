import { consoleMachine } from "../../../machines/console.machine.ts";
import { defineDemo } from "../demo-kit.ts";
import session from "./console-session.demo.ts";

export default defineDemo({
  machine: consoleMachine,
  summary:
    "The staff session is the real machine with its own demo's stand-ins (see console-session). A screen's machine is not started here: " +
    "the console's registry of screens (src/console/screens.ts) loads each with its screen.",
  input: undefined,
  standIns: {},
  children: { session: session.standIns },
  events: [{ type: "SESSION_OPENED" }, { type: "SESSION_CLOSED" }],
});
