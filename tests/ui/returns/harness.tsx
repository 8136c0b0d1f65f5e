import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { fromPromise } from "xstate";
import type { Order } from "../../../domain/contract/entities.ts";
import type { ItineraryResponse } from "../../../domain/contract/itinerary.ts";
import { ORDER_STATUSES } from "../../../domain/vocabulary.ts";
import type { StoredOfflineOrder } from "../../../domain/offline-queue.ts";
import { courierDayMachine, type DayLoad } from "../../../machines/courier-day.machine.ts";
import { offlineQueueMachine, type QueueChange } from "../../../machines/offline-queue.machine.ts";
import { CourierDayContext, useOfflineQueueRef } from "../../../src/shell/app-actor.ts";
import { AppWithDay } from "../app-harness.tsx";
import { Component as ReturnsRoute } from "../../../src/features/returns/ReturnsRoute.tsx";
import { makeOrder, makePharmacy, makeVisit } from "../../support/order-fixtures.ts";

/**
 * The returns screens as the app mounts them (one layout route over the three
 * paths), with the courier's day given instead of loaded, and the offline
 * queue holding the stored orders the test gives (resubmitting them
 * succeeds). Tests stub src/api/returns.ts and the signature pad (a canvas
 * jsdom cannot draw on); the returns machine runs for real, in the
 * application's actor system.
 */

export const COURIER_ID = 7;
export const NORTHSIDE = makePharmacy({ id: 4, name: "Northside Family Drugs" });
export { SVG } from "./signature-pad-stub.tsx";

export const order = (id: number, first: string, last: string, overrides: Parameters<typeof makeOrder>[0] = {}): Order =>
  makeOrder({ id, pharmacy: NORTHSIDE, patient_first_name: first, patient_last_name: last, recipient_description: `${first} ${last}`, rx_numbers: [`RX-${id}`], ...overrides });

/** Attempted ($6.50 item), never attempted ($5.00 item), a $12.50 cash copay, a $24.00 check. */
export const ATTEMPTED = order(11, "Yolanda", "Evans", { status: "delivery_attempted", copay: "6.50" });
export const NEVER_ATTEMPTED = order(12, "Isaac", "Freeman", { status: "picked_up", copay: "0.00", delivery_fee: "5.00" });
export const CASH = order(30, "Beatrice", "Coleman", { status: "delivered", copay: "10.00", delivery_fee: "2.50", payment_collected: true, payment_type: "cash" });
export const CHECK = order(40, "Franklin", "Diaz", { status: "delivered", copay: "20.00", delivery_fee: "3.00", other_items_amount_due: "1.00", payment_collected: true, payment_type: "check" });

export function makeDay(orders: Order[]): ItineraryResponse {
  return {
    courier: { id: COURIER_ID, first_name: "Dana", last_name: "Whitfield" },
    service_date: "2026-11-21",
    support_phone: "18005550199",
    feature_flags: { self_service_addons_enabled: false },
    pharmacy_visits: [makeVisit({ id: 5, pharmacy: NORTHSIDE, confirmed: true })],
    orders,
    statuses: ORDER_STATUSES.map((status) => ({ ...status })),
    relationships: [],
    failure_reasons: [],
  };
}

function Location() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

export let currentDay: () => ItineraryResponse | null = () => null;
/** The day itself, for a test to change it as a flow or a refresh would. */
export let currentDayRef: () => ReturnType<typeof CourierDayContext.useActorRef> | null = () => null;
function DayProbe() {
  const actor = CourierDayContext.useActorRef();
  currentDay = () => actor.getSnapshot().context.day;
  currentDayRef = () => actor;
  return null;
}

/** The application's offline queue, for a test to resubmit or store orders as the app would. */
export let currentQueue: () => ReturnType<typeof useOfflineQueueRef> | null = () => null;
function QueueProbe() {
  const queue = useOfflineQueueRef();
  currentQueue = () => queue;
  return null;
}

function WhenDayLoaded({ children }: { children: ReactNode }) {
  const loaded = CourierDayContext.useSelector((state) => state.context.day !== null);
  return loaded ? <>{children}</> : null;
}

const dayLogic = (day: ItineraryResponse) =>
  courierDayMachine.provide({
    actors: {
      loadDay: fromPromise<DayLoad>(async () => ({ itinerary: day, source: "server" })),
      saveDay: fromPromise<void, { day: ItineraryResponse }>(async () => undefined),
    },
  });

const queueLogic = (stored: StoredOfflineOrder[]) =>
  offlineQueueMachine.provide({
    actors: {
      loadQueue: fromPromise<StoredOfflineOrder[]>(async () => stored),
      saveQueue: fromPromise<void, QueueChange>(async () => undefined),
      resubmit: fromPromise<unknown, StoredOfflineOrder>(async () => ({})),
    },
  });

export function renderReturns(path: string, day: ItineraryResponse, { stored = [] }: { stored?: StoredOfflineOrder[] } = {}) {
  const result = render(
    <AppWithDay day={dayLogic(day)} queue={queueLogic(stored)}>
      <MemoryRouter initialEntries={[path]}>
        <DayProbe />
        <QueueProbe />
        <WhenDayLoaded>
          <Routes>
            <Route path="/pharmacies" element={<h1>Pharmacies home</h1>} />
            <Route element={<ReturnsRoute />}>
              <Route path="/pharmacies/:pharmacyId/reconcile" />
              <Route path="/pharmacies/:pharmacyId/reconcile_details/:kind" />
              <Route path="/pharmacies/:pharmacyId/reconcile_signature" />
            </Route>
          </Routes>
          <Location />
        </WhenDayLoaded>
      </MemoryRouter>
    </AppWithDay>,
  );
  return { ...result, location: () => screen.getByTestId("location").textContent };
}
