import { ConfirmVisitsScreen } from "./ConfirmVisitsScreen.tsx";

/** /confirm_pharmacy_visits (loaded on demand). */
export function Component() {
  return <ConfirmVisitsScreen />;
}
