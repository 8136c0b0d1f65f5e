import { consoleCouriersMachine } from "../../../machines/console-couriers.machine.ts";
import { defineDemo } from "../demo-kit.ts";

const DANA = {
  id: 3,
  first_name: "Dana",
  last_name: "Whitfield",
  email: "courier@example.com",
  phone_number: null,
  active: true,
  password_set: true,
  start_location: null,
  end_location: null,
  shift_start: null,
  shift_end: null,
  capacity: null,
  created_at: "2026-11-01T12:00:00Z",
};
const ANA = { ...DANA, id: 9, first_name: "Ana", last_name: "Ruiz", email: "ana@example.com", password_set: false };

export default defineDemo({
  machine: consoleCouriersMachine,
  summary:
    "Input: the service date 2026-11-26. The list loads (Dana Whitfield, 2 delivered, 5 left); type the email and 'Invite courier', or 'Re-invite' / 'Deactivate' Dana and confirm. " +
    "Live: STREAM_EVENT (a change of the day) loads the list again; in the visualizer, STREAM_ERROR (a drop) then STREAM_OPEN loads it again too.",
  // The form begun (first and last name): one event completes it, so the chart's paths stay few.
  input: { serviceDate: "2026-11-26", csrfToken: "demo", draft: { first_name: "Ana", last_name: "Ruiz", email: "", phone_number: "" } },
  standIns: {
    loadCouriers: { resolves: { couriers: [DANA], progress: { 3: { delivered: 2, attempted: 0, left: 5 } } }, says: "GET /api/ops/v1/couriers and the day's orders" },
    inviteCourier: { resolves: { courier: ANA, invite_token: "demo-token", invite_expires_at: "2026-12-03T12:00:00Z" }, says: "POST /api/ops/v1/couriers" },
    reinviteCourier: { resolves: { courier: DANA, invite_token: "demo-token-2", invite_expires_at: "2026-12-03T12:00:00Z" }, says: "POST /api/ops/v1/couriers/3/invitation" },
    deactivateCourier: { resolves: { ...DANA, active: false }, says: "POST /api/ops/v1/couriers/3/deactivation" },
    eventStream: { callback: "GET /api/ops/v1/events (EventSource): send STREAM_OPEN, STREAM_EVENT, STREAM_ERROR from the list" },
  },
  events: [
    { type: "EDIT_INVITE", field: "email", value: "ana@example.com" },
    { type: "INVITE" },
    { type: "ASK_REINVITE", courierId: 3 },
    { type: "ASK_DEACTIVATE", courierId: 3 },
    { type: "CONFIRM" },
    { type: "CANCEL" },
    { type: "RETRY" },
    // The connection's own events (STREAM_OPEN, STREAM_ERROR) are left to the visualizer: with the form's, the chart's paths would be their product.
    { type: "STREAM_EVENT" },
  ],
});
