import { visitsToMake } from "../../../domain/pharmacy-list.ts";
import { createContext, useContext, useMemo, type ReactNode } from "react";
import type { ActorRefFrom } from "xstate";
import type { Pharmacy } from "../../../domain/contract/entities.ts";
import type { checkInMachine } from "../../../machines/check-in.machine.ts";
import { CourierDayContext } from "../../shell/app-actor.ts";
import { useFlowActor } from "../../shell/flow-actor.ts";
import { LoadingScreen } from "../../ui/LoadingScreen.tsx";
import { useCheckInUrl } from "./use-check-in-url.ts";

export type CheckInActor = ActorRefFrom<typeof checkInMachine>;

const CheckInActorContext = createContext<{ actor: CheckInActor; pharmacy: Pharmacy } | null>(null);

/**
 * One check-in machine per pharmacy, shared by the check-in list and the
 * confirm_orders review so the URL can move between them while the machine
 * keeps its place. It starts from the day's orders and the day tells it
 * each change (the machine FOLLOWs it); the arrival it records goes to the
 * day from the machine too (VISITS_CHANGED).
 */
export function CheckInProvider({ pharmacy, children }: { pharmacy: Pharmacy; children: ReactNode }) {
  const courierId = CourierDayContext.useSelector((state) => state.context.day!.courier.id);
  const orders = CourierDayContext.useSelector((state) => state.context.day!.orders);
  // Today's visit at this pharmacy: a declined one is no arrival to record.
  const visitId = CourierDayContext.useSelector(
    (state) => visitsToMake(state.context.day!.pharmacy_visits).find((visit) => visit.pharmacy.id === pharmacy.id)?.id ?? null,
  );
  // Started by the application machine: the machine follows the day and tells it the arrival it records.
  const actor = useFlowActor("checkIn", { input: { courierId, pharmacyId: pharmacy.id, visitId, orders } });
  // Until the flow runs, the page's splash (what a page starting here shows meanwhile: useFlowActor).
  return actor ? <CheckInFlow actor={actor} pharmacy={pharmacy}>{children}</CheckInFlow> : <LoadingScreen />;
}

function CheckInFlow({ actor, pharmacy, children }: { actor: CheckInActor; pharmacy: Pharmacy; children: ReactNode }) {
  // Here, with the flow running before any screen under it renders: the URL mirrors the machine.
  useCheckInUrl(actor, pharmacy.id);
  const value = useMemo(() => ({ actor, pharmacy }), [actor, pharmacy]);
  return <CheckInActorContext.Provider value={value}>{children}</CheckInActorContext.Provider>;
}

export function useCheckIn(): { actor: CheckInActor; pharmacy: Pharmacy } {
  const value = useContext(CheckInActorContext);
  if (!value) throw new Error("useCheckIn outside CheckInProvider");
  return value;
}
