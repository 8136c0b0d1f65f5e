import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { preloadClient } from "../api/client.ts";
import { DashboardScreen } from "../features/dashboard/DashboardScreen.tsx";
import { LoginScreen } from "../features/login/LoginScreen.tsx";
import { LoadingScreen } from "../ui/LoadingScreen.tsx";
import { NotFoundScreen } from "../ui/NotFoundScreen.tsx";
import { nextTask } from "../ui/next-task.ts";
import { whenIdleAndShown } from "../ui/when-idle.ts";
import { PharmaciesScreen } from "../features/pharmacies/PharmaciesScreen.tsx";
import { RouteErrorScreen } from "./ErrorBoundary.tsx";
import { buildFlow, loadFlows } from "./flows.ts";
import { LoggedInLayout } from "./LoggedInLayout.tsx";
import type { FlowName } from "../../machines/flows.ts";

/**
 * Feature screens load on demand (code splitting): the login screen and
 * /pharmacies carry none of the delivery wizard, signature pad or card fields.
 * feature-routes.ts lists the same paths and modules for the build
 * (tests/ui/feature-routes.test.tsx keeps the two in step). A screen that
 * runs flows loads their logic with it (loadFlows): the application machine
 * starts them by name.
 */

/**
 * The screen's module, once the flows it runs are loaded too. These screens
 * call the API as they open: the HTTP client's chunk comes with their page
 * (feature-routes.ts `client`: fetched alongside the app, not one round trip
 * after it has run) and is evaluated once the screen is up (the phone idle and
 * its frame shown), not in the tasks that build and paint the screen (not
 * awaited: the screen renders without it; a call made before then loads it at
 * once, as before).
 */
const withFlowsOf =
  <T,>(load: () => Promise<T>, opensWith: FlowName, ...alsoRuns: FlowName[]) =>
  async (): Promise<T> => {
    const [module] = await Promise.all([load(), loadFlows(opensWith, ...alsoRuns)]);
    // The flow the screen opens with, built in a task of its own: not in the chunk's evaluation, nor in the router's render, nor in the commit that opens it.
    await nextTask();
    buildFlow(opensWith);
    await nextTask();
    // Asked for once the screen's code is in: a phone still waiting for it is idle too.
    whenIdleAndShown(preloadClient);
    return module;
  };
/**
 * What a link or a reload straight to an on-demand screen shows while its code
 * loads: the page's own splash, as index.html paints it. Without one the router
 * renders nothing there (a blank frame) and warns on the console (issue 29).
 */
const whileTheScreenLoads = <LoadingScreen />;

/** The app's routes (tests/ui/feature-routes.test.tsx reads them). */
export const routes: RouteObject[] = [
  {
    // No session needed. /set-password is an invited courier's first visit, once: none of it in the first screen's bundle.
    errorElement: <RouteErrorScreen />,
    hydrateFallbackElement: whileTheScreenLoads,
    children: [
      { path: "/login", element: <LoginScreen /> },
      { path: "/set-password", lazy: () => import("../features/onboarding/SetPasswordRoute.tsx") },
    ],
  },
  {
    element: <LoggedInLayout />,
    errorElement: <RouteErrorScreen />,
    hydrateFallbackElement: whileTheScreenLoads,
    children: [
      { index: true, element: <Navigate to="/dashboard" replace /> },
      { path: "dashboard", element: <DashboardScreen /> },
      { path: "pharmacies", element: <PharmaciesScreen /> },
      { path: "pharmacies/:pharmacyId/deliver_orders/*", lazy: withFlowsOf(() => import("../features/delivery/DeliveryRoutes.tsx"), "deliveryFlow") },
      {
        // Returns: one machine across the summary, details and signature screens.
        lazy: withFlowsOf(() => import("../features/returns/ReturnsRoute.tsx"), "returns"),
        children: [
          { path: "pharmacies/:pharmacyId/reconcile" },
          { path: "pharmacies/:pharmacyId/reconcile_details/:kind" },
          { path: "pharmacies/:pharmacyId/reconcile_signature" },
        ],
      },
      { path: "pharmacies/:pharmacyId/*", lazy: withFlowsOf(() => import("../features/pickup/PickupRoutes.tsx"), "checkIn", "verifyOrder", "addons") },
      { path: "confirm_pharmacy_visits", lazy: () => import("../features/pickup/PharmacyVisitsRoute.tsx") },
      { path: "machines", lazy: () => import("../features/machines/MachinesRoute.tsx") },
      { path: "*", element: <NotFoundScreen /> },
    ],
  },
];

/**
 * The app's router, made when the app starts (src/main.tsx, in a task of its
 * own) rather than when this module loads: matching and ranking every route is
 * ~15 ms of the phone's time before the first screen (issue 29).
 */
export const createAppRouter = () => createBrowserRouter(routes);
