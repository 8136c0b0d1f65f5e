import { matchPath, useLocation } from "react-router";
import type { ActorRefFrom } from "xstate";
import type { checkInMachine } from "../../../machines/check-in.machine.ts";
import { useMachineUrl } from "../../shell/use-machine-url.ts";

/**
 * /pharmacies/{id}/verify_orders and /confirm_orders mirror the check-in
 * machine: Continue pushes the review, the browser's back is BACK, a deep link
 * to the review is CONTINUE (refused before every order is checked in: the
 * URL goes back to the list). A verify or add-ons screen is no URL of this
 * machine: it keeps its place meanwhile. A scanned label opens that order's
 * verify screen; once done, the courier goes on to the deliveries or home.
 */
export function useCheckInUrl(actor: ActorRefFrom<typeof checkInMachine>, pharmacyId: number): void {
  const { pathname } = useLocation();
  const base = `/pharmacies/${pharmacyId}`;
  const list = `${base}/verify_orders`;
  const review = `${base}/confirm_orders`;
  useMachineUrl(actor, {
    url: matchPath(list, pathname) ? list : matchPath(review, pathname) ? review : null,
    pathOf: (snapshot) => (snapshot.status !== "active" ? null : snapshot.matches("confirmingOrders") ? review : list),
    eventFor: (url) => (url === review ? { type: "CONTINUE" as const } : { type: "BACK" as const }),
    whenDone: { to: (snapshot) => (snapshot.output?.next === "home" ? "/pharmacies" : `${base}/deliver_orders`), replace: false },
    onEmitted: { orderScanned: ({ orderId }) => `${list}/${orderId}` },
  });
}
