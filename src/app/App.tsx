import { RouterProvider } from "react-router";
import { router } from "./router.tsx";
import { startOfflineQueueWhenIdle } from "./offline-queue.ts";
import { SessionContext } from "./session-context.ts";

startOfflineQueueWhenIdle();

export function App() {
  return (
    <SessionContext.Provider>
      <RouterProvider router={router} />
    </SessionContext.Provider>
  );
}
