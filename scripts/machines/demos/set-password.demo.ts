import { setPasswordMachine } from "../../../machines/set-password.machine.ts";
import { defineDemo } from "../demo-kit.ts";

export default defineDemo({
  machine: setPasswordMachine,
  summary: "Dispatch's invite link carries a token; the courier types a password that follows the rules, then one that does not.",
  input: { token: "inv_8d2f61c4a9" },
  standIns: { setPassword: { resolves: undefined, says: "POST /courier/password: the invite is accepted" } },
  events: [
    { type: "SUBMIT", password: "short", confirmation: "short" },
    { type: "SUBMIT", password: "Deliver-Safely-2026", confirmation: "Deliver-Safely-2026" },
  ],
});
