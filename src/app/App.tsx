import { RouterProvider } from "react-router";
import { createAppCourierAppMachine, CourierAppContext } from "../shell/app-actor.ts";
import { startFlow } from "./flows.ts";
import { router } from "./router.tsx";

/** The application machine with the app's adapters and registry of flows (their logic loads with their screens), built once. */
let app: ReturnType<typeof createAppCourierAppMachine> | undefined;

/** The application actor (session, offline queue, the day once logged in, the flows the courier opens) around every screen. */
export function App() {
  return (
    <CourierAppContext.Provider logic={(app ??= createAppCourierAppMachine({ startFlow }))}>
      <RouterProvider router={router} />
    </CourierAppContext.Provider>
  );
}
