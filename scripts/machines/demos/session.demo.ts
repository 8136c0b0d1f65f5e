import { sessionMachine } from "../../../machines/session.machine.ts";
import { defineDemo } from "../demo-kit.ts";
import { COURIER } from "./fixtures.ts";

const SESSION = { courier: COURIER, csrf_token: "csrf-3f9a1c" };

export default defineDemo({
  machine: sessionMachine,
  summary: "Alone, with no application to tell that the session opened or closed: the app opens with no session cookie, then Dana Whitfield logs in with the right password.",
  input: {},
  standIns: {
    fetchCurrentSession: { resolves: null, says: "GET /courier/session: no session yet" },
    logIn: { resolves: SESSION, says: "POST /courier/session: the password is right" },
    logOut: { resolves: undefined, says: "DELETE /courier/session" },
  },
  events: [{ type: "LOG_IN", email: "dana.whitfield@example.com", password: "deliver-safely" }, { type: "LOG_OUT" }, { type: "SESSION_EXPIRED" }],
});
