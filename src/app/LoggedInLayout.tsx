import { useDeferredValue, useEffect, useRef, useState } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { pendingVisits } from "../../domain/pharmacy-list.ts";
import { ScreenErrorBoundary } from "./ErrorBoundary.tsx";
import { NavBar } from "./NavBar.tsx";
import { OfflineBanner } from "./OfflineBanner.tsx";
import { LoadingScreen } from "../ui/LoadingScreen.tsx";
import { whenIdleAndShown } from "../ui/when-idle.ts";
import { CourierDayContext, SessionContext, useCourierDayRef } from "../shell/app-actor.ts";
import { StartingScreenContext, type IsStartingScreen } from "../shell/starting-screen.ts";

export function LoggedInLayout() {
  const location = useLocation();
  // Deferred: the logged-in screen that replaces "Loading…" renders in slices (a
  // transition), not in one long task when the session's answer arrives. Mounted
  // with "checking" (the page's own splash) even when the answer is already in:
  // on a reload the answer often lands while this layout's first render is under
  // way, React then renders everything again at once to stay consistent with the
  // session's store, and without an initial value a deferred value is the current
  // one on mount, so the whole screen rendered in that one task (issue 29).
  const state = useDeferredValue(SessionContext.useSelector((snapshot) => snapshot.value), "checking");
  // The application starts the day with the session; it is there by the time the deferred state says so.
  const day = useCourierDayRef();

  if (state === "checking") return <LoadingScreen />;
  if (state === "loggedOut" || state === "loggingIn") {
    const next = location.pathname === "/" ? "" : `?next=${encodeURIComponent(location.pathname + location.search)}`;
    return <Navigate to={`/login${next}`} replace />;
  }

  if (!day) return <LoadingScreen />;
  return (
    <>
      <NavBar />
      <OfflineBanner />
      <DayGate>
        <ScreenErrorBoundary resetKey={location.pathname}>
          <Outlet />
        </ScreenErrorBoundary>
      </DayGate>
    </>
  );
}

/** The one screen a pending visit confirmation leaves open (spec §2). */
const CONFIRM_VISITS_PATH = "/confirm_pharmacy_visits";

/**
 * Screens render once the day is known; until then a status, or the error with
 * a retry. Spec §2: while a visit is pending (confirmed neither true nor false)
 * every other screen redirects to /confirm_pharmacy_visits.
 */
function DayGate({ children }: { children: React.ReactNode }) {
  const day = CourierDayContext.useActorRef();
  const { pathname } = useLocation();
  // Deferred for the same reason: the screen the day's answer reveals renders in slices.
  const { hasDay, failed, error, pending } = useDeferredValue(CourierDayContext.useSelector((state) => ({
    hasDay: state.context.day !== null,
    failed: state.matches("failed"),
    error: state.context.error,
    pending: state.context.day ? pendingVisits(state.context.day.pharmacy_visits).length > 0 : false,
  }), (a, b) => a.hasDay === b.hasDay && a.failed === b.failed && a.error === b.error && a.pending === b.pending));

  // The first screen the day reveals is the one the page starts with, until it is on the phone; every later one is opened from a tap.
  // Kept out of React's state: its turning re-renders no screen (a screen asks once, when it opens).
  const startingScreenShown = useRef(false);
  const [isStartingScreen] = useState<IsStartingScreen>(() => () => !startingScreenShown.current);
  useEffect(() => (hasDay ? whenIdleAndShown(() => (startingScreenShown.current = true)) : undefined), [hasDay]);

  if (hasDay && pending && pathname !== CONFIRM_VISITS_PATH) return <Navigate to={CONFIRM_VISITS_PATH} replace />;
  if (hasDay) return <StartingScreenContext.Provider value={isStartingScreen}>{children}</StartingScreenContext.Provider>;
  if (failed) {
    return (
      <main className="screen">
        <p className="notice notice--error" role="alert">{error}</p>
        <button type="button" className="button" onClick={() => day.send({ type: "REFRESH" })}>
          Try again
        </button>
      </main>
    );
  }
  return <LoadingScreen text="Loading your day…" />;
}
