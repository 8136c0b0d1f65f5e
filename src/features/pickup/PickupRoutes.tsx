import { Route, Routes, useParams } from "react-router";
import { pharmaciesOfDay } from "../../../domain/pharmacy-list.ts";
import { CourierDayContext } from "../../shell/app-actor.ts";
import { NotFoundScreen } from "../../ui/NotFoundScreen.tsx";
import { AddonsScreen } from "./AddonsScreen.tsx";
import { CheckInProvider } from "./check-in-context.tsx";
import { CheckInScreen } from "./CheckInScreen.tsx";
import { ConfirmOrdersScreen } from "./ConfirmOrdersScreen.tsx";
import { VerifyOrderScreen } from "./VerifyOrderScreen.tsx";
import "../../styles/steps.css";
import "./pickup.css";

/**
 * /pharmacies/:pharmacyId/* screens of the pickup feature (loaded on demand):
 * check-in, verify order, confirm_orders and add-ons share one check-in
 * machine per pharmacy. A pharmacy not in the courier's day is not found.
 */
export function Component() {
  const { pharmacyId } = useParams();
  const pharmacy = CourierDayContext.useSelector((state) =>
    pharmaciesOfDay(state.context.day!.pharmacy_visits, state.context.day!.orders).find((candidate) => String(candidate.id) === pharmacyId),
  );
  if (!pharmacy) return <NotFoundScreen what="pharmacy" />;
  return (
    <CheckInProvider key={pharmacy.id} pharmacy={pharmacy}>
      <Routes>
        <Route path="verify_orders" element={<CheckInScreen />} />
        <Route path="verify_orders/:orderId" element={<VerifyOrderScreen />} />
        <Route path="confirm_orders" element={<ConfirmOrdersScreen />} />
        <Route path="addons" element={<AddonsScreen />} />
        <Route path="*" element={<NotFoundScreen />} />
      </Routes>
    </CheckInProvider>
  );
}

/** The flows these screens run, for the app's registry of flows (src/app/flows.ts): loaded with the screens. */
export { appAddonsMachine, appCheckInMachine, appVerifyOrderMachine } from "./pickup-flows.ts";
