import { matchPath } from "react-router";
import { isReturnDetailKind } from "../../../domain/returns.ts";
import type { ReturnsView } from "../../../machines/returns.machine.ts";

/**
 * Spec §2 routes of the returns screens and the machine's screens, both ways:
 * /pharmacies/{id}/reconcile, /reconcile_details/{orders|cash|check} and
 * /reconcile_signature.
 */

export function pathOfView(pharmacyId: number, view: ReturnsView): string {
  const base = `/pharmacies/${pharmacyId}`;
  switch (view.screen) {
    case "summary":
      return `${base}/reconcile`;
    case "details":
      return `${base}/reconcile_details/${view.kind}`;
    case "signature":
      return `${base}/reconcile_signature`;
  }
}

/** The screen a URL asks for, or null for a URL that is none of them (an unknown details kind). */
export function viewOfPath(pathname: string): ReturnsView | null {
  if (matchPath("/pharmacies/:pharmacyId/reconcile", pathname)) return { screen: "summary" };
  if (matchPath("/pharmacies/:pharmacyId/reconcile_signature", pathname)) return { screen: "signature" };
  const details = matchPath("/pharmacies/:pharmacyId/reconcile_details/:kind", pathname);
  if (details) return isReturnDetailKind(details.params.kind) ? { screen: "details", kind: details.params.kind } : null;
  return null;
}

/** The screen the machine shows; null once the return is recorded (the app goes back to /pharmacies). */
export function viewOfState(snapshot: {
  status: string;
  matches: (value: "details" | "signing") => boolean;
  context: { requested: ReturnsView };
}): ReturnsView | null {
  if (snapshot.status === "done") return null;
  if (snapshot.matches("signing")) return { screen: "signature" };
  if (snapshot.matches("details") && snapshot.context.requested.screen === "details") return snapshot.context.requested;
  // The summary, and the alert or "nothing to return" shown in its place.
  return { screen: "summary" };
}
