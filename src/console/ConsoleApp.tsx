import { lazy, Suspense, useState } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router";
import { consoleMachine } from "../../machines/console.machine.ts";
import type { consoleSessionMachine } from "../../machines/console-session.machine.ts";
import { BoardScreen } from "./BoardScreen.tsx";
import { CouriersScreen } from "./couriers/CouriersScreen.tsx";
import { DispatchersOnly } from "./DispatchersOnly.tsx";
import { PlanScreen } from "./plan/PlanScreen.tsx";
import { LoginScreen } from "./LoginScreen.tsx";
import { loadScreen, withScreens, type ScreenLogic } from "./screens.ts";
import { ConsoleActor, ConsoleSession } from "./session-context.ts";

// Loaded on demand, each with its machine's logic: the console's first screen (the board) stays within its 200 KiB budget.
const OrderRoute = lazy(() => loadScreen("order").then(() => import("./OrderRoute.tsx")));
const ImportRoute = lazy(() => loadScreen("import").then(() => import("./ImportRoute.tsx")));
const ReturnsRoute = lazy(() => loadScreen("returns").then(() => import("./ReturnsRoute.tsx")));

export const LOGIN_PATH = "/dispatch/login";
export const BOARD_PATH = "/dispatch";
export const COURIERS_PATH = "/dispatch/couriers";
export const PLAN_PATH = "/dispatch/plan";
export const RETURNS_PATH = "/dispatch/returns";

/** The session's machine with its calls, and each screen's machine with its calls where not the registry's. */
interface ConsoleLogic {
  logic: typeof consoleSessionMachine;
  boardLogic: ScreenLogic["board"];
  couriersLogic?: ScreenLogic["couriers"];
  planLogic?: ScreenLogic["plan"];
  orderLogic?: ScreenLogic["order"];
  importLogic?: ScreenLogic["import"];
  returnsLogic?: ScreenLogic["returns"];
}

/**
 * The console's actor system (machines/console.machine.ts) and its screens;
 * the URL follows the session machine (signed out → /dispatch/login, signed in
 * → the board). `logic` is the session's with its calls; each screen's machine
 * is the registry's (src/console/screens.ts) unless given (the board's by the
 * entry, any by a test).
 */
export function ConsoleApp(props: ConsoleLogic) {
  // The system is made once per page: its logic never changes under the running actor.
  const [app] = useState(() =>
    withScreens(consoleMachine.provide({ actors: { session: props.logic } }), {
      board: props.boardLogic,
      couriers: props.couriersLogic,
      plan: props.planLogic,
      order: props.orderLogic,
      import: props.importLogic,
      returns: props.returnsLogic,
    }),
  );
  return (
    <ConsoleActor.Provider logic={app}>
      <ConsoleRoutes />
    </ConsoleActor.Provider>
  );
}

function ConsoleRoutes() {
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
        <Route path={BOARD_PATH} element={<BoardScreen />} />
        <Route path={`${BOARD_PATH}/orders/:id`} element={<OrderRoute />} />
        <Route path={`${BOARD_PATH}/import`} element={<ImportRoute />} />
        <Route path={RETURNS_PATH} element={<ReturnsRoute />} />
        <Route
          path={COURIERS_PATH}
          element={
            <DispatchersOnly screen="Couriers">
              <CouriersScreen />
            </DispatchersOnly>
          }
        />
        <Route
          path={PLAN_PATH}
          element={
            <DispatchersOnly screen="Plan the day">
              <PlanScreen />
            </DispatchersOnly>
          }
        />
        <Route path="*" element={<Navigate to={BOARD_PATH} replace />} />
      </Routes>
    </Suspense>
  );
}
