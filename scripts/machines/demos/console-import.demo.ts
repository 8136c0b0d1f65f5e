import { consoleImportMachine } from "../../../machines/console-import.machine.ts";
import { defineDemo } from "../demo-kit.ts";

const CSV = [
  "external_id,patient_first_name,patient_last_name,phone_number,street_address,city,state_abbreviation,zipcode,rx_numbers",
  "A-1,Ada,Lovelace,2155550123,5 Elfreth's Alley,Philadelphia,PA,19106,RX-1",
  "A-2,Alan,Turing,12,1 Market St,Philadelphia,PA,19106,RX-2",
].join("\n");

export default defineDemo({
  machine: consoleImportMachine,
  summary: "Input: a dispatcher. Two pharmacies load; a file of two rows is checked (line 3 would be rejected), then one order is imported.",
  input: { role: "dispatcher", pharmacyId: null, csrfToken: "csrf-7d21be" },
  standIns: {
    loadPharmacies: {
      resolves: [
        { id: 1, name: "Riverside Community Pharmacy" },
        { id: 2, name: "Harbor Pharmacy" },
      ],
      says: "GET /api/ops/v1/pharmacies",
    },
    checkFile: {
      resolves: { fileName: "day.csv", rows: 2, ready: 1, rejected: [{ line: 3, endLine: 3, externalId: "A-2", reasons: ["phone_number must be a US phone number: 10 digits, optionally after a leading 1"] }] },
      says: "The CLI's reader and rules on the file, in the browser (domain/order-import checkOrderCsv)",
    },
    importOrders: {
      resolves: { rows: 2, created: 1, unchanged: 0, rejected: [{ line: 3, endLine: 3, externalId: "A-2", reasons: ["phone_number must be a US phone number"] }], imported: [{ line: 2, externalId: "A-1", orderId: 40, status: "created" }] },
      says: "POST /api/ops/v1/orders/batch",
    },
  },
  events: [
    { type: "CHOOSE_FILE", fileName: "day.csv", text: CSV },
    { type: "SELECT_PHARMACY", pharmacyId: 1 },
    { type: "IMPORT" },
    { type: "IMPORT_ANOTHER" },
    { type: "RETRY" },
  ],
});
