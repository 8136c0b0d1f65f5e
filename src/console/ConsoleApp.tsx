import { lazy, Suspense } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router";
import type { consoleBoardMachine } from "../../machines/console-board.machine.ts";
import type { consoleCouriersMachine } from "../../machines/console-couriers.machine.ts";
import type { consolePlanMachine } from "../../machines/console-plan.machine.ts";
import type { consoleReturnsMachine } from "../../machines/console-returns.machine.ts";
import type { consoleSessionMachine } from "../../machines/console-session.machine.ts";
import { consoleCouriersLogic } from "./api/couriers.ts";
import { consolePlanLogic } from "./api/plans.ts";
import { BoardScreen } from "./BoardScreen.tsx";
import { CouriersScreen } from "./couriers/CouriersScreen.tsx";
import { DispatchersOnly } from "./DispatchersOnly.tsx";
import { PlanScreen } from "./plan/PlanScreen.tsx";
import { LoginScreen } from "./LoginScreen.tsx";
import { ConsoleSession } from "./session-context.ts";

// Loaded on demand: the console's first screen (the board) stays within its 200 KiB budget.
const OrderRoute = lazy(() => import("./OrderRoute.tsx"));
const ImportRoute = lazy(() => import("./ImportRoute.tsx"));
const ReturnsRoute = lazy(() => import("./ReturnsRoute.tsx"));

export const LOGIN_PATH = "/dispatch/login";
export const BOARD_PATH = "/dispatch";
export const COURIERS_PATH = "/dispatch/couriers";
export const PLAN_PATH = "/dispatch/plan";
export const RETURNS_PATH = "/dispatch/returns";

/** Each screen's machine with its calls: the real ones by default, a test's instead. */
interface ScreenLogic {
  boardLogic: typeof consoleBoardMachine;
  couriersLogic?: typeof consoleCouriersMachine;
  planLogic?: typeof consolePlanMachine;
  /** Loaded with its screen when left out (the real calls). */
  returnsLogic?: typeof consoleReturnsMachine;
}

/** The console's screens; the URL follows the session machine (signed out → /dispatch/login, signed in → the board). */
export function ConsoleApp({ logic, ...screens }: { logic: typeof consoleSessionMachine } & ScreenLogic) {
  return (
    <ConsoleSession.Provider logic={logic}>
      <ConsoleRoutes {...screens} />
    </ConsoleSession.Provider>
  );
}

function ConsoleRoutes({ boardLogic, couriersLogic = consoleCouriersLogic, planLogic = consolePlanLogic, returnsLogic }: ScreenLogic) {
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
        <Route path={RETURNS_PATH} element={<ReturnsRoute logic={returnsLogic} />} />
        <Route
          path={COURIERS_PATH}
          element={
            <DispatchersOnly screen="Couriers">
              <CouriersScreen logic={couriersLogic} />
            </DispatchersOnly>
          }
        />
        <Route
          path={PLAN_PATH}
          element={
            <DispatchersOnly screen="Plan the day">
              <PlanScreen logic={planLogic} />
            </DispatchersOnly>
          }
        />
        <Route path="*" element={<Navigate to={BOARD_PATH} replace />} />
      </Routes>
    </Suspense>
  );
}
