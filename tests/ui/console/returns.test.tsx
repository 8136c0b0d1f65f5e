import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { ReturnManifest } from "../../../domain/contract/ops-proof.ts";
import { consoleReturnsMachine, type ReturnsPharmacy } from "../../../machines/console-returns.machine.ts";
import { DISPATCHER, PHARMACIST, renderConsole } from "./console-fixtures.tsx";

const RIVERSIDE = { id: 1, name: "Riverside Community Pharmacy" };
const MARKET = { id: 2, name: "Market Street Apothecary" };

const MANIFEST: ReturnManifest = {
  id: 7,
  pharmacy: RIVERSIDE,
  courier: { id: 5, first_name: "Marcus", last_name: "Ortega" },
  document_id: "RET-7-0123456789ab",
  generated_at: "2026-11-27T22:00:00.000Z",
  time_zone: "America/New_York",
  signed_at: "2026-11-27T21:30:00.000Z",
  staff_first_name: "Lena",
  staff_last_name: "Brooks",
  items: [{ order_id: 41, amount: "12.50" }],
  cash: [{ order_id: 42, amount: "20.00" }],
  checks: [],
  cash_total: "20.00",
  check_total: "0.00",
  orders: [
    { order_id: 41, external_id: "RX-41", service_date: "2026-11-27", patient: { first_name: "Ada", last_name: "Lovelace" }, rx_numbers: ["RX100"], returned_item: true, reason: "Recipient not home", item_amount: "12.50", cash: null, check: null },
    { order_id: 42, external_id: "RX-42", service_date: "2026-11-27", patient: { first_name: "Grace", last_name: "Hopper" }, rx_numbers: ["RX101"], returned_item: false, reason: "Delivered: payment handed over", item_amount: null, cash: "20.00", check: null },
  ],
  latitude: null,
  longitude: null,
  signature_url: "/api/ops/v1/returns/7/signature.svg",
  pdf_url: "/api/ops/v1/returns/7.pdf",
};

function returnsLogic(load: (input: { pharmacyId: number; serviceDate: string }) => Promise<ReturnManifest[]>, pharmacies: ReturnsPharmacy[] = [RIVERSIDE, MARKET]) {
  const calls = { pharmacies: vi.fn(), returns: vi.fn(load) };
  const logic = consoleReturnsMachine.provide({
    actors: {
      loadPharmacies: fromPromise(async ({ input }: { input: { role: "dispatcher" | "pharmacist"; pharmacyId: number | null } }) => {
        calls.pharmacies(input);
        return input.role === "pharmacist" ? [RIVERSIDE] : pharmacies;
      }),
      loadReturns: fromPromise(async ({ input }: { input: { pharmacyId: number; serviceDate: string } }) => calls.returns(input)),
    },
  });
  return { logic, calls };
}

describe("Returns (issue 27)", () => {
  it("shows a pharmacy's return manifests of the day: when, courier, who signed, each order, the amounts, the signature and the PDF", async () => {
    const { logic, calls } = returnsLogic(async () => [MANIFEST]);
    const { user } = renderConsole("/dispatch", { session: DISPATCHER, returnsLogic: logic });
    await user.click(await screen.findByRole("link", { name: "Returns" }));
    expect(await screen.findByRole("heading", { name: "Returns", level: 1 })).toBeInTheDocument();
    const manifest = await screen.findByRole("region", { name: /Return of Nov 27, 2026, 4:30\sPM/ });
    expect(within(manifest).getByText("Marcus Ortega")).toBeInTheDocument();
    expect(within(manifest).getAllByText("Lena Brooks").length).toBeGreaterThan(0);
    const rows = within(manifest).getAllByRole("row").slice(1).map((row) => within(row).getAllByRole("cell").map((cell) => cell.textContent));
    expect(rows).toEqual([
      ["RX-41", "Ada Lovelace", "Recipient not home", "Returned ($12.50)", "—", "—"],
      ["RX-42", "Grace Hopper", "Delivered: payment handed over", "—", "$20.00", "—"],
    ]);
    expect(within(manifest).getByText("$20.00", { selector: "dd" })).toBeInTheDocument();
    expect(within(manifest).getByRole("img", { name: "Signature of Lena Brooks" })).toHaveAttribute("src", "/api/ops/v1/returns/7/signature.svg");
    expect(within(manifest).getByRole("link", { name: "Return manifest PDF" })).toHaveAttribute("href", "/api/ops/v1/returns/7.pdf");
    expect(screen.getByLabelText("Service date")).toHaveValue(calls.returns.mock.calls[0]![0].serviceDate);
    expect(calls.returns).toHaveBeenCalledWith({ pharmacyId: 1, serviceDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(screen.getByTestId("path")).toHaveTextContent("/dispatch/returns");
  });

  it("lets a dispatcher choose the pharmacy and the day, and says an empty day in words", async () => {
    const { logic, calls } = returnsLogic(async ({ pharmacyId }) => (pharmacyId === 1 ? [MANIFEST] : []));
    const { user } = renderConsole("/dispatch/returns", { session: DISPATCHER, returnsLogic: logic });
    await screen.findByRole("region", { name: /Return of/ });
    await user.selectOptions(screen.getByRole("combobox", { name: "Pharmacy" }), "Market Street Apothecary");
    const today = calls.returns.mock.calls[0]![0].serviceDate;
    expect(await screen.findByText(`No return to Market Street Apothecary on ${today}.`)).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: /Return of/ })).not.toBeInTheDocument();
    const date = screen.getByLabelText("Service date");
    fireEvent.change(date, { target: { value: "2026-11-20" } });
    await waitFor(() => expect(calls.returns).toHaveBeenLastCalledWith({ pharmacyId: 2, serviceDate: "2026-11-20" }));
    expect(await screen.findByText("No return to Market Street Apothecary on 2026-11-20.")).toBeInTheDocument();
  });

  it("fixes a pharmacist's pharmacy to theirs", async () => {
    const { logic, calls } = returnsLogic(async () => [MANIFEST]);
    renderConsole("/dispatch/returns", { session: PHARMACIST, returnsLogic: logic });
    await screen.findByRole("region", { name: /Return of/ });
    const select = screen.getByRole("combobox", { name: "Pharmacy" });
    expect(select).toBeDisabled();
    expect(within(select).getAllByRole("option").map((option) => option.textContent)).toEqual(["Riverside Community Pharmacy"]);
    expect(calls.pharmacies).toHaveBeenCalledWith({ role: "pharmacist", pharmacyId: 1 });
    expect(calls.returns).toHaveBeenCalledWith({ pharmacyId: 1, serviceDate: expect.any(String) });
  });

  it("says a failure in words and tries again", async () => {
    let fail = true;
    const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
    const { logic } = returnsLogic(async () => {
      if (fail) throw offline;
      return [MANIFEST];
    });
    const { user } = renderConsole("/dispatch/returns", { session: PHARMACIST, returnsLogic: logic });
    expect(await screen.findByRole("alert")).toHaveTextContent("The server cannot be reached. Check the connection, then choose 'Try again'.");
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("region", { name: /Return of/ })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
