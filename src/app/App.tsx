import { RouterProvider } from "react-router";
import { appCourierAppMachine, CourierAppContext } from "../shell/app-actor.ts";
import { withFlows } from "./flows.ts";
import { router } from "./router.tsx";

/** The application machine with the app's registry of flows (their logic loads with their screens). */
const app = withFlows(appCourierAppMachine);

/** The application actor (session, offline queue, the day once logged in, the flows the courier opens) around every screen. */
export function App() {
  return (
    <CourierAppContext.Provider logic={app}>
      <RouterProvider router={router} />
    </CourierAppContext.Provider>
  );
}
