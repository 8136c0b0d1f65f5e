import { Navigate, Route, Routes } from "react-router";
import { NotFoundScreen } from "../../ui/NotFoundScreen.tsx";
import { DeliveryListScreen } from "./DeliveryListScreen.tsx";
import { DeliveryWizardRoute } from "./DeliveryWizard.tsx";
import "./delivery.css";

/** /pharmacies/:pharmacyId/deliver_orders/* screens of the delivery feature (loaded on demand). */
export function Component() {
  return (
    <Routes>
      <Route index element={<DeliveryListScreen />} />
      {/* Spec §2: the order's default route redirects to its address step. */}
      <Route path=":orderId" element={<Navigate to="address" replace />} />
      <Route path=":orderId/:step" element={<DeliveryWizardRoute />} />
      <Route path="*" element={<NotFoundScreen />} />
    </Routes>
  );
}

/** The flow these screens run, for the app's registry of flows (src/app/flows.ts): loaded with the screens. */
export { appDeliveryFlowMachine } from "./flow-machine.ts";
