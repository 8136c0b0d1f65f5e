import { lazy, Suspense } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router";
import type { consoleBoardMachine } from "../../machines/console-board.machine.ts";
import type { consoleSessionMachine } from "../../machines/console-session.machine.ts";
import { BoardScreen } from "./BoardScreen.tsx";
import { LoginScreen } from "./LoginScreen.tsx";
import { ConsoleSession } from "./session-context.ts";

// Loaded on demand: the console's first screen (the board) stays within its 200 KiB budget.
const OrderRoute = lazy(() => import("./OrderRoute.tsx"));
const ImportRoute = lazy(() => import("./ImportRoute.tsx"));

export const LOGIN_PATH = "/dispatch/login";
export const BOARD_PATH = "/dispatch";

/** The console's screens; the URL follows the session machine (signed out → /dispatch/login, signed in → the board). */
export function ConsoleApp({ logic, boardLogic }: { logic: typeof consoleSessionMachine; boardLogic: typeof consoleBoardMachine }) {
  return (
    <ConsoleSession.Provider logic={logic}>
      <ConsoleRoutes boardLogic={boardLogic} />
    </ConsoleSession.Provider>
  );
}

function ConsoleRoutes({ boardLogic }: { boardLogic: typeof consoleBoardMachine }) {
  const state = ConsoleSession.useSelector((snapshot) => snapshot.value);
  const { pathname } = useLocation();
  if (state === "checkingSession") {
    return (
      <main className="console-main">
        <div role="status">
          <h1>Loading…</h1>
        </div>
      </main>
    );
  }
  const signedIn = state === "signedIn" || state === "loggingOut";
  if (!signedIn && pathname !== LOGIN_PATH) return <Navigate to={LOGIN_PATH} replace />;
  if (signedIn && pathname === LOGIN_PATH) return <Navigate to={BOARD_PATH} replace />;
  return (
    <Suspense
      fallback={
        <main className="console-main">
          <p role="status">Loading…</p>
        </main>
      }
    >
      <Routes>
        <Route path={LOGIN_PATH} element={<LoginScreen />} />
        <Route path={BOARD_PATH} element={<BoardScreen logic={boardLogic} />} />
        <Route path={`${BOARD_PATH}/orders/:id`} element={<OrderRoute />} />
        <Route path={`${BOARD_PATH}/import`} element={<ImportRoute />} />
        {/* Screens still to come (issue 27: couriers) open the board meanwhile. */}
        <Route path="*" element={<Navigate to={BOARD_PATH} replace />} />
      </Routes>
    </Suspense>
  );
}
