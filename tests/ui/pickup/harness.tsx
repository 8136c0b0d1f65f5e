import { act, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from "react-router";
import { fromPromise } from "xstate";
import type { ItineraryResponse } from "../../../domain/contract/itinerary.ts";
import type { Order, Pharmacy, PharmacyVisit } from "../../../domain/contract/entities.ts";
import { ORDER_STATUSES } from "../../../domain/vocabulary.ts";
import { courierDayMachine, type DayLoad } from "../../../machines/courier-day.machine.ts";
import { CourierDayContext } from "../../../src/shell/app-actor.ts";
import { AppWithDay } from "../app-harness.tsx";
import { Component as PharmacyVisitsRoute } from "../../../src/features/pickup/PharmacyVisitsRoute.tsx";
import { Component as PickupRoutes } from "../../../src/features/pickup/PickupRoutes.tsx";
import { makeOrder, makePharmacy, makeVisit } from "../../support/order-fixtures.ts";

/**
 * The pickup screens as the app mounts them (their lazy route modules under a
 * router), with the courier's day machine given a day instead of the network.
 * Tests stub src/api/pickup.ts with vi.mock; the machines run for real.
 */

export const COURIER_ID = 7;
export const RIVERSIDE = makePharmacy({ id: 1 });
export const NO_COLLECTION = makePharmacy({ id: 2, name: "Greenway Health Pharmacy", allow_pod_copay_collection: false });

export function makeDay(overrides: Partial<ItineraryResponse> = {}): ItineraryResponse {
  return {
    courier: { id: COURIER_ID, first_name: "Dana", last_name: "Whitfield" },
    service_date: "2026-11-21",
    support_phone: "18005550199",
    feature_flags: { self_service_addons_enabled: true },
    pharmacy_visits: [makeVisit({ id: 5, pharmacy: RIVERSIDE, confirmed: true }), makeVisit({ id: 6, pharmacy: NO_COLLECTION, confirmed: true })],
    orders: [],
    statuses: ORDER_STATUSES.map((status) => ({ ...status })),
    relationships: [],
    failure_reasons: [],
    ...overrides,
  };
}

export const order = (id: number, first: string, last: string, overrides: Parameters<typeof makeOrder>[0] = {}): Order =>
  makeOrder({ id, patient_first_name: first, patient_last_name: last, recipient_description: `${first} ${last}`, rx_numbers: [`RX-${id}`], ...overrides });

export { makeOrder, makePharmacy, makeVisit };
export type { Order, Pharmacy, PharmacyVisit };

/** The browser's back button, for asserting what was pushed and what replaced. */
let goBack: () => void = () => {};

/** Where the router is, for asserting navigation. */
function Location() {
  const location = useLocation();
  const navigate = useNavigate();
  goBack = () => void navigate(-1);
  return <div data-testid="location">{location.pathname}</div>;
}

/** What the day machine now holds, for asserting ORDERS_CHANGED / VISITS_CHANGED. */
export let currentDay: () => ItineraryResponse | null = () => null;
/** The day itself, for a test to change it as another flow or a refresh would. */
export let currentDayRef: () => ReturnType<typeof CourierDayContext.useActorRef> | null = () => null;
function DayProbe() {
  const actor = CourierDayContext.useActorRef();
  currentDay = () => actor.getSnapshot().context.day;
  currentDayRef = () => actor;
  return null;
}

function WhenDayLoaded({ children }: { children: ReactNode }) {
  const loaded = CourierDayContext.useSelector((state) => state.context.day !== null);
  return loaded ? <>{children}</> : null;
}

export function dayLogic(day: ItineraryResponse) {
  return courierDayMachine.provide({
    actors: {
      loadDay: fromPromise<DayLoad>(async () => ({ itinerary: day, source: "server" })),
      saveDay: fromPromise<void, { day: ItineraryResponse }>(async () => undefined),
    },
  });
}

export function renderPickup(path: string, day: ItineraryResponse = makeDay()) {
  const result = render(
    <AppWithDay day={dayLogic(day)}>
      <MemoryRouter initialEntries={[path]}>
        <DayProbe />
        <WhenDayLoaded>
          <Routes>
            <Route path="/pharmacies" element={<h1>Pharmacies home</h1>} />
            <Route path="/pharmacies/:pharmacyId/deliver_orders/*" element={<h1>Delivery list</h1>} />
            <Route path="/pharmacies/:pharmacyId/*" element={<PickupRoutes />} />
            <Route path="/confirm_pharmacy_visits" element={<PharmacyVisitsRoute />} />
          </Routes>
          <Location />
        </WhenDayLoaded>
      </MemoryRouter>
    </AppWithDay>,
  );
  return { ...result, location: () => screen.getByTestId("location").textContent, back: () => act(() => goBack()) };
}
