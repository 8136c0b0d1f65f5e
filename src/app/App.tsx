import { RouterProvider } from "react-router";
import { router } from "./router.tsx";
import { startOfflineQueue } from "./offline-queue.ts";
import { SessionContext } from "./session-context.ts";

startOfflineQueue();

export function App() {
  return (
    <SessionContext.Provider>
      <RouterProvider router={router} />
    </SessionContext.Provider>
  );
}
