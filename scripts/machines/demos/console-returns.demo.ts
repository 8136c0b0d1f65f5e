import { consoleReturnsMachine } from "../../../machines/console-returns.machine.ts";
import { defineDemo } from "../demo-kit.ts";

const MANIFEST = {
  id: 7,
  pharmacy: { id: 1, name: "Riverside Community Pharmacy" },
  courier: { id: 3, first_name: "Dana", last_name: "Whitfield" },
  document_id: "RET-7-0123456789ab",
  generated_at: "2026-11-26T22:00:00.000Z",
  time_zone: "America/New_York",
  signed_at: "2026-11-26T21:30:00.000Z",
  staff_first_name: "Lena",
  staff_last_name: "Brooks",
  items: [{ order_id: 41, amount: "12.50" }],
  cash: [],
  checks: [],
  cash_total: "0.00",
  check_total: "0.00",
  orders: [
    {
      order_id: 41,
      external_id: "RX-41",
      service_date: "2026-11-26",
      patient: { first_name: "Walter", last_name: "Brennan" },
      rx_numbers: ["RX-400201"],
      returned_item: true,
      reason: "Patient Not Home",
      item_amount: "12.50",
      cash: null,
      check: null,
    },
  ],
  latitude: null,
  longitude: null,
  signature_url: "/api/ops/v1/returns/7/signature.svg",
  pdf_url: "/api/ops/v1/returns/7.pdf",
};

export default defineDemo({
  machine: consoleReturnsMachine,
  summary: "Input: a dispatcher, the service date 2026-11-26. Riverside's one return manifest; choose Northside, another day.",
  input: { role: "dispatcher" as const, pharmacyId: null, serviceDate: "2026-11-26" },
  standIns: {
    loadPharmacies: {
      resolves: [
        { id: 1, name: "Riverside Community Pharmacy" },
        { id: 2, name: "Northside Family Drugs" },
      ],
      says: "GET /api/ops/v1/pharmacies",
    },
    loadReturns: { resolves: [MANIFEST], says: "GET /api/ops/v1/returns?pharmacy_id=&service_date=" },
  },
  events: [
    { type: "SELECT_PHARMACY", pharmacyId: 2 },
    { type: "SET_SERVICE_DATE", serviceDate: "2026-11-27" },
    { type: "RETRY" },
  ],
});
