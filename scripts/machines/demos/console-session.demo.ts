import { consoleSessionMachine } from "../../../machines/console-session.machine.ts";
import { defineDemo } from "../demo-kit.ts";

const SESSION = { staff: { id: 1, first_name: "Morgan", last_name: "Reyes", role: "dispatcher" as const, pharmacy_id: null }, csrf_token: "csrf-7d21be" };

export default defineDemo({
  machine: consoleSessionMachine,
  summary: "Alone, with no console to tell that the session opened or closed: the console opens with no staff session cookie, then a dispatcher logs in with the right password.",
  input: {},
  standIns: {
    fetchCurrentStaffSession: { resolves: null, says: "GET /api/ops/v1/sessions/current: no session yet" },
    logInStaff: { resolves: SESSION, says: "POST /api/ops/v1/sessions: the password is right" },
    logOutStaff: { resolves: undefined, says: "DELETE /api/ops/v1/sessions/current" },
  },
  events: [{ type: "LOG_IN", email: "dispatch@example.com", password: "dispatch-safely" }, { type: "LOG_OUT" }, { type: "SESSION_EXPIRED" }],
});
