import { RouterProvider } from "react-router";
import { CourierAppContext } from "./app-actor.ts";
import { router } from "./router.tsx";

/** The application actor (session, offline queue, the day once logged in) around every screen. */
export function App() {
  return (
    <CourierAppContext.Provider>
      <RouterProvider router={router} />
    </CourierAppContext.Provider>
  );
}
