import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { StaffSessionResponse } from "../../../domain/contract/staff.ts";
import type { ImportReport } from "../../../domain/order-import/import-orders.ts";
import { consoleImportMachine } from "../../../machines/console-import.machine.ts";
import { consoleImportActors } from "../../../src/console/api/import.ts";
import { consoleSessionMachine } from "../../../machines/console-session.machine.ts";
import { ConsoleApp } from "../../../src/console/ConsoleApp.tsx";
import { boardLogic } from "./board-fixtures.ts";

const DISPATCHER: StaffSessionResponse = { staff: { id: 3, first_name: "Jordan", last_name: "Reyes", role: "dispatcher", pharmacy_id: null }, csrf_token: "csrf-1", service_time_zone: "America/New_York" };
const PHARMACIST: StaffSessionResponse = { staff: { id: 4, first_name: "Priya", last_name: "Raman", role: "pharmacist", pharmacy_id: 1 }, csrf_token: "csrf-2", service_time_zone: "America/New_York" };
const PHARMACIES = [
  { id: 1, name: "Riverside Community Pharmacy" },
  { id: 2, name: "Market Street Pharmacy" },
];

const CSV = [
  "external_id,patient_first_name,patient_last_name,phone_number,street_address,city,state_abbreviation,zipcode,rx_numbers",
  "A-1,Ada,Lovelace,2155550123,5 Elfreth's Alley,Philadelphia,PA,19106,RX-1",
  "A-2,Alan,Turing,12,1 Market St,Philadelphia,PA,19106,RX-2",
  "A-3,Grace,Hopper,2155550125,2 Arch St,Philadelphia,PA,19106,RX-3",
].join("\n");
const REPORT: ImportReport = {
  rows: 3,
  created: 2,
  unchanged: 0,
  rejected: [{ line: 3, endLine: 3, externalId: "A-2", reasons: ["phone_number must be a US phone number: 10 digits, optionally after a leading 1"] }],
  imported: [
    { line: 2, externalId: "A-1", orderId: 40, status: "created" },
    { line: 4, externalId: "A-3", orderId: 41, status: "created" },
  ],
};

function renderImport(options: { session?: StaffSessionResponse; importing?: (input: { text: string; pharmacyId: number; csrfToken: string | null }) => Promise<ImportReport> } = {}) {
  const staff = options.session ?? DISPATCHER;
  const loadPharmacies = vi.fn(async ({ role, pharmacyId }: { role: string; pharmacyId: number | null }) => (role === "dispatcher" ? PHARMACIES : PHARMACIES.filter((p) => p.id === pharmacyId)));
  const importOrders = vi.fn(options.importing ?? (async () => REPORT));
  const logic = consoleImportMachine.provide({
    actors: {
      loadPharmacies: fromPromise(({ input }) => loadPharmacies(input)),
      // The console's own check: the CLI's reader and rules, nothing sent.
      checkFile: consoleImportActors.checkFile,
      importOrders: fromPromise(({ input }) => importOrders(input)),
    },
  });
  const session = consoleSessionMachine.provide({
    actors: {
      fetchCurrentStaffSession: fromPromise<StaffSessionResponse | null>(async () => staff),
      logInStaff: fromPromise(async () => staff),
      logOutStaff: fromPromise<void, { csrfToken: string | null }>(async () => undefined),
    },
  });
  render(
    <MemoryRouter initialEntries={["/dispatch/import"]}>
      <ConsoleApp logic={session} boardLogic={boardLogic(async () => ({ orders: [], couriers: [] }))} importLogic={logic} />
    </MemoryRouter>,
  );
  return { importOrders, loadPharmacies, user: userEvent.setup() };
}

const file = (text: string, name = "riverside.csv") => new File([text], name, { type: "text/csv" });

describe("import orders (issue 27)", () => {
  it("checks the file before anything is sent: the rows that would be rejected, by line and reason; then 'Import 2 orders' and the CLI's report", async () => {
    const { importOrders, user } = renderImport();
    await user.selectOptions(await screen.findByLabelText("Pharmacy"), "Riverside Community Pharmacy");
    await user.upload(screen.getByLabelText("CSV file"), file(CSV));

    const table = await screen.findByRole("table", { name: "Rows that would be rejected" });
    const rows = within(table).getAllByRole("row").slice(1).map((row) => row.textContent);
    expect(rows).toEqual(["Line 3A-2phone_number must be a US phone number: 10 digits, optionally after a leading 1"]);
    expect(screen.getByText("3 rows: 2 orders ready to import, 1 row would be rejected.")).toBeInTheDocument();
    expect(importOrders).not.toHaveBeenCalled();

    await user.click(screen.getByRole("button", { name: "Import 2 orders" }));
    await waitFor(() => expect(importOrders).toHaveBeenCalledWith({ text: CSV, pharmacyId: 1, csrfToken: "csrf-1" }));
    expect(await screen.findByRole("heading", { name: "Import finished" })).toHaveFocus();
    expect(screen.getByText("3 rows: 2 created, 0 unchanged (already imported), 1 rejected.")).toBeInTheDocument();
    expect(screen.getByRole("table", { name: /^Rejected rows/ })).toHaveTextContent("Line 3");
    expect(screen.getByRole("link", { name: "A-3" })).toHaveAttribute("href", "/dispatch/orders/41");

    await user.click(screen.getByRole("button", { name: "Import another file" }));
    expect(screen.getByLabelText("CSV file")).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("imports nothing until a pharmacy is chosen", async () => {
    const { importOrders, user } = renderImport();
    await user.upload(await screen.findByLabelText("CSV file"), file(CSV));
    expect(await screen.findByText("Choose the pharmacy the orders are from.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Import 2 orders" }));
    expect(importOrders).not.toHaveBeenCalled();
  });

  it("says why a file cannot be imported at all: its header", async () => {
    const { user } = renderImport();
    await user.upload(await screen.findByLabelText("CSV file"), file("name,phone\nAda,2155550123\n", "wrong.csv"));
    expect(await screen.findByRole("alert")).toHaveTextContent(/^wrong\.csv cannot be imported\. The header row missing columns: external_id, patient_first_name/);
    expect(screen.queryByRole("button", { name: /^Import \d/ })).not.toBeInTheDocument();
  });

  it("a pharmacist's pharmacy is fixed to theirs", async () => {
    const { importOrders, user } = renderImport({ session: PHARMACIST });
    const select = await screen.findByLabelText("Pharmacy");
    await waitFor(() => expect(select).toHaveDisplayValue("Riverside Community Pharmacy"));
    expect(select).toBeDisabled();
    await user.upload(screen.getByLabelText("CSV file"), file(CSV));
    await user.click(await screen.findByRole("button", { name: "Import 2 orders" }));
    await waitFor(() => expect(importOrders).toHaveBeenCalledWith({ text: CSV, pharmacyId: 1, csrfToken: "csrf-2" }));
  });

  it("an import the server stops says how far it got, and 'Try again' sends the same file", async () => {
    const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
    let attempts = 0;
    const { importOrders, user } = renderImport({
      importing: async () => {
        attempts += 1;
        if (attempts === 1) throw { report: { ...REPORT, created: 0, imported: [] }, fromLine: 2, cause: offline };
        return REPORT;
      },
    });
    await user.selectOptions(await screen.findByLabelText("Pharmacy"), "Market Street Pharmacy");
    await user.upload(screen.getByLabelText("CSV file"), file(CSV));
    await user.click(await screen.findByRole("button", { name: "Import 2 orders" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The import stopped at line 2: rows from there on were not sent.");
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("heading", { name: "Import finished" })).toBeInTheDocument();
    expect(importOrders).toHaveBeenCalledTimes(2);
    expect(importOrders).toHaveBeenLastCalledWith({ text: CSV, pharmacyId: 2, csrfToken: "csrf-1" });
  });
});
