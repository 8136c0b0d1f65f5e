import { RouterProvider, type createBrowserRouter } from "react-router";
import { CourierAppContext, type CourierAppMachine } from "../shell/app-actor.ts";

/**
 * The application actor (session, offline queue, the day once logged in, the flows the courier opens) around every
 * screen: the application machine with the app's adapters and registry of flows, and the router, both made once when
 * the app starts (src/main.tsx).
 */
export function App({ app, router }: { app: CourierAppMachine; router: ReturnType<typeof createBrowserRouter> }) {
  return (
    <CourierAppContext.Provider logic={app}>
      <RouterProvider router={router} />
    </CourierAppContext.Provider>
  );
}
