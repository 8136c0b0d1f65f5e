import { useSelector } from "@xstate/react";
import { useMemo } from "react";
import { useLocation, useParams } from "react-router";
import type { Pharmacy } from "../../../domain/contract/entities.ts";
import { pharmaciesOfDay } from "../../../domain/pharmacy-list.ts";
import { useOfflineOrderIds } from "../../shell/offline-status.ts";
import { CourierDayContext } from "../../shell/app-actor.ts";
import { useFlowActor } from "../../shell/flow-actor.ts";
import { LoadingScreen } from "../../ui/LoadingScreen.tsx";
import { useMachineUrl } from "../../shell/use-machine-url.ts";
import { NotFoundScreen } from "../../ui/NotFoundScreen.tsx";
import { pathOfView, viewOfPath, viewOfState } from "./return-paths.ts";
import type { ReturnsActor } from "./returns-actor.ts";
import { ReturnDetailsScreen } from "./ReturnDetailsScreen.tsx";
import { ReturnSignatureScreen } from "./ReturnSignatureScreen.tsx";
import { ReturnsSummaryScreen } from "./ReturnsSummaryScreen.tsx";
import "../../styles/steps.css";
import "./returns.css";

/**
 * /pharmacies/:pharmacyId/reconcile, /reconcile_details/:kind and
 * /reconcile_signature (loaded on demand): one returns machine per pharmacy
 * across the three screens, so names and signature survive a look back at the
 * summary. A pharmacy not in the courier's day is not found.
 */
export function Component() {
  const { pharmacyId } = useParams();
  const pharmacy = CourierDayContext.useSelector((state) =>
    pharmaciesOfDay(state.context.day!.pharmacy_visits, state.context.day!.orders).find((candidate) => String(candidate.id) === pharmacyId),
  );
  if (!pharmacy) return <NotFoundScreen what="pharmacy" />;
  return <ReturnsFlow key={pharmacy.id} pharmacy={pharmacy} />;
}

function ReturnsFlow({ pharmacy }: { pharmacy: Pharmacy }) {
  const location = useLocation();
  const courierId = CourierDayContext.useSelector((state) => state.context.day!.courier.id);
  const orders = CourierDayContext.useSelector((state) => state.context.day!.orders);
  const incompleteOffline = useOfflineOrderIds().size > 0;

  // Spawned by the application machine: the machine follows the day and the offline queue
  // (a refresh, the stored orders resubmitted) and tells the day what it returned, itself.
  const actor = useFlowActor("returns", {
    input: { courierId, pharmacyId: pharmacy.id, orders, incompleteOffline, view: viewOfPath(location.pathname) ?? undefined },
  });
  return actor ? <ReturnsFlowView actor={actor} pharmacy={pharmacy} /> : <LoadingScreen />;
}

function ReturnsFlowView({ actor, pharmacy }: { actor: ReturnsActor; pharmacy: Pharmacy }) {
  useReturnsUrl(actor, pharmacy.id);

  const screen = useSelector(actor, (snapshot) => viewOfState(snapshot)?.screen ?? null);
  switch (screen) {
    case "summary":
      return <ReturnsSummaryScreen actor={actor} pharmacy={pharmacy} />;
    case "details":
      return <ReturnDetailsScreen actor={actor} pharmacy={pharmacy} />;
    case "signature":
      return <ReturnSignatureScreen actor={actor} pharmacy={pharmacy} />;
    case null:
      return <p className="splash" role="status">Returned.</p>;
  }
}

/**
 * The URL follows the machine when the machine moves (a button), and the
 * machine is asked when the URL moves (back button, deep link): GO_TO, which
 * it may refuse — then the URL is put back to the screen it shows. Recorded
 * (the day already knows, from the machine): the courier is back on
 * /pharmacies ('Completed'), in place of the screen.
 */
function useReturnsUrl(actor: ReturnsActor, pharmacyId: number) {
  const location = useLocation();
  const urlView = useMemo(() => viewOfPath(location.pathname), [location.pathname]);
  useMachineUrl(actor, {
    url: urlView ? pathOfView(pharmacyId, urlView) : location.pathname,
    pathOf: (snapshot) => {
      const view = viewOfState(snapshot);
      return view ? pathOfView(pharmacyId, view) : null;
    },
    eventFor: (url) => {
      const view = viewOfPath(url);
      return view ? { type: "GO_TO" as const, view } : null;
    },
    whenDone: { to: () => "/pharmacies", replace: true },
  });
}

/** The flow these screens run, for the app's registry of flows (src/app/flows.ts): loaded with the screens. */
export { appReturnsMachine } from "./returns-flow.ts";
