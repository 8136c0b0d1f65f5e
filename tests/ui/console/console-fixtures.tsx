import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, useLocation } from "react-router";
import { fromPromise } from "xstate";
import type { OpsCourier, OpsOrder } from "../../../domain/contract/ops.ts";
import type { StaffSessionResponse } from "../../../domain/contract/staff.ts";
import type { consoleCouriersMachine } from "../../../machines/console-couriers.machine.ts";
import type { consolePlanMachine } from "../../../machines/console-plan.machine.ts";
import type { consoleReturnsMachine } from "../../../machines/console-returns.machine.ts";
import { consoleSessionMachine } from "../../../machines/console-session.machine.ts";
import { ConsoleApp } from "../../../src/console/ConsoleApp.tsx";
import { boardLogic } from "./board-fixtures.ts";

export const DISPATCHER: StaffSessionResponse = { staff: { id: 3, first_name: "Morgan", last_name: "Reyes", role: "dispatcher", pharmacy_id: null }, csrf_token: "csrf-1", service_time_zone: "America/New_York" };
export const PHARMACIST: StaffSessionResponse = { staff: { id: 4, first_name: "Priya", last_name: "Shah", role: "pharmacist", pharmacy_id: 1 }, csrf_token: "csrf-2", service_time_zone: "America/New_York" };

export function courier(id: number, first: string, last: string, extra: Partial<OpsCourier> = {}): OpsCourier {
  return {
    id,
    first_name: first,
    last_name: last,
    email: `${first.toLowerCase()}@example.com`,
    phone_number: null,
    active: true,
    password_set: true,
    start_location: null,
    end_location: null,
    shift_start: null,
    shift_end: null,
    capacity: null,
    created_at: "2026-11-01T12:00:00.000Z",
    ...extra,
  };
}

const PHARMACIES = {
  1: { id: 1, name: "Riverside Community Pharmacy", lat: 39.9436, lng: -75.1652 },
  2: { id: 2, name: "Market Street Apothecary", lat: 39.954, lng: -75.17 },
} as const;

/** An ops order with an address and coordinates (the map draws it), at one of two pharmacies. */
export function mapOrder(id: number, patient: string, status: OpsOrder["status"]["name"], courierId: number | null, pharmacyId: 1 | 2 = 1): OpsOrder {
  const [first, last] = patient.split(" ");
  const pharmacy = PHARMACIES[pharmacyId];
  return {
    id,
    status: { id: 1, name: status },
    pharmacy: { id: pharmacy.id, name: pharmacy.name, address: { street_address: "1 Pharmacy Way", street_address_2: null, city: "Philadelphia", state_abbreviation: "PA", zipcode: "19103", latitude: pharmacy.lat, longitude: pharmacy.lng } },
    patient_first_name: first,
    patient_last_name: last,
    address: { street_address: `${id} Pine St`, street_address_2: null, city: "Philadelphia", state_abbreviation: "PA", zipcode: "19103", latitude: 39.95 + id / 1000, longitude: -75.16 + id / 1000 },
    external_id: `RX-${id}`,
    courier_id: courierId,
    service_date: "2026-11-27",
  } as unknown as OpsOrder;
}

function Where() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

export function renderConsole(
  path: string,
  options: { session?: StaffSessionResponse; couriersLogic?: typeof consoleCouriersMachine; planLogic?: typeof consolePlanMachine; returnsLogic?: typeof consoleReturnsMachine; board?: { orders: OpsOrder[]; couriers: { id: number; first_name: string; last_name: string }[] } } = {},
) {
  const session = options.session ?? DISPATCHER;
  const logic = consoleSessionMachine.provide({
    actors: {
      fetchCurrentStaffSession: fromPromise<StaffSessionResponse | null>(async () => session),
      logInStaff: fromPromise(async () => session),
      logOutStaff: fromPromise<void, { csrfToken: string | null }>(async () => undefined),
    },
  });
  const board = options.board ?? { orders: [], couriers: [] };
  render(
    <MemoryRouter initialEntries={[path]}>
      <ConsoleApp logic={logic} boardLogic={boardLogic(async () => board)} couriersLogic={options.couriersLogic} planLogic={options.planLogic} returnsLogic={options.returnsLogic} />
      <Where />
    </MemoryRouter>,
  );
  return { user: userEvent.setup() };
}
