import { ConfirmVisitsScreen } from "./ConfirmVisitsScreen.tsx";
import "./pharmacy-visits.css";

/** /confirm_pharmacy_visits (loaded on demand). */
export function Component() {
  return <ConfirmVisitsScreen />;
}
