import { pharmacyVisitsMachine } from "../../../machines/pharmacy-visits.machine.ts";
import { makeVisit } from "../../../tests/support/order-fixtures.ts";
import { defineDemo } from "../demo-kit.ts";
import { COURIER, RIVERSIDE } from "./fixtures.ts";

export default defineDemo({
  machine: pharmacyVisitsMachine,
  summary: "Two visits today: Riverside Community Pharmacy still to confirm, and one already confirmed (not asked about again).",
  input: {
    courierId: COURIER.id,
    visits: [makeVisit({ id: 31, pharmacy: RIVERSIDE, confirmed: null }), makeVisit({ id: 32, confirmed: true })],
  },
  standIns: { confirmVisits: { resolves: { pharmacy_visits: [{ id: 31, confirmed: true }] }, says: "POST couriers/12/pharmacy_visits/confirm" } },
  events: [{ type: "ANSWER", visitId: 31, confirmed: true }, { type: "ANSWER", visitId: 31, confirmed: false }, { type: "SUBMIT" }],
});
