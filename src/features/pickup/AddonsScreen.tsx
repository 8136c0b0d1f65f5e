import { useSelector } from "@xstate/react";
import { Navigate, useNavigate } from "react-router";
import type { ActorRefFrom } from "xstate";
import { addonCount } from "../../../domain/pharmacy-progress.ts";
import { TEXT } from "../../../domain/texts.ts";
import type { addonsMachine } from "../../../machines/addons.machine.ts";
import { CourierDayContext } from "../../shell/app-actor.ts";
import { useFlowActor } from "../../shell/flow-actor.ts";
import { LoadingScreen } from "../../ui/LoadingScreen.tsx";
import { ActionButton } from "../../ui/ActionButton.tsx";
import { AddonsChoice } from "./AddonsChoice.tsx";
import { AddonsConfirm } from "./AddonsConfirm.tsx";
import { AddonsHelp } from "./AddonsHelp.tsx";
import { useCheckIn } from "./check-in-context.tsx";
import { ScreenHeader } from "./ScreenHeader.tsx";
import { useWhenDone } from "./use-when-done.ts";

function useAddonsActor(pharmacyId: number) {
  const day = CourierDayContext.useSelector((state) => state.context.day!);
  const own = day.orders.filter((order) => order.pharmacy.id === pharmacyId);
  // The courier's service window at this pharmacy (any of the day's, failing that).
  const serviceWindowInstanceId =
    [...own, ...day.orders].find((order) => order.service_window_instance_id !== null)?.service_window_instance_id ?? null;
  // Spawned by the application machine: the machine itself tells the day what was added.
  return useFlowActor("addons", {
    input: { pharmacyId, serviceWindowInstanceId, alreadyAdded: addonCount(day.orders, pharmacyId) },
  });
}

/** /pharmacies/:pharmacyId/addons: add-on check-in with its Help and confirm sub-views (spec §2, §4, §5). */
export function AddonsScreen() {
  const { pharmacy } = useCheckIn();
  const enabled = CourierDayContext.useSelector((state) => state.context.day!.feature_flags.self_service_addons_enabled);
  // Without the feature flag the check-in screen offers no add-ons: a deep link goes back there.
  if (!enabled) return <Navigate to={`/pharmacies/${pharmacy.id}/verify_orders`} replace />;
  return <Addons />;
}

function Addons() {
  const { pharmacy } = useCheckIn();
  const actor = useAddonsActor(pharmacy.id);
  return actor ? <AddonsView actor={actor} /> : <LoadingScreen />;
}

function AddonsView({ actor }: { actor: ActorRefFrom<typeof addonsMachine> }) {
  const { pharmacy } = useCheckIn();
  const navigate = useNavigate();
  const state = useSelector(actor, (snapshot) => snapshot);
  const listPath = `/pharmacies/${pharmacy.id}/verify_orders`;

  // Taken (the day already has them, from the machine): the check-in list shows them.
  useWhenDone(actor, () => {
    void navigate(listPath);
  });

  const title = state.matches("help") ? "add-ons help" : state.matches("confirming") || state.matches("submitting") ? "confirm add-ons" : "add-ons";

  return (
    <main className="screen">
      <ScreenHeader title={title} back={{ to: listPath, label: "check-in" }}>
        <p className="step-header__sub">{pharmacy.name}</p>
      </ScreenHeader>
      {state.matches("loading") && (
        <p className="muted" role="status">
          Loading add-on orders…
        </p>
      )}
      {state.matches("loadFailed") && (
        <div className="stack">
          <p className="notice notice--error" role="alert">
            {state.context.error}
          </p>
          <ActionButton onClick={() => actor.send({ type: "RETRY" })}>{TEXT.tryAgain}</ActionButton>
        </div>
      )}
      {state.matches("choosing") && <AddonsChoice actor={actor} />}
      {state.matches("help") && <AddonsHelp onBack={() => actor.send({ type: "BACK" })} />}
      {(state.matches("confirming") || state.matches("submitting")) && <AddonsConfirm actor={actor} />}
    </main>
  );
}
