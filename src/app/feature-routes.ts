/**
 * The screens that load their code on demand, by path, in the order the router
 * matches them (src/app/router.tsx). The build reads this too (vite.config.ts):
 * it lists each feature's chunks, so the server can name them in the page it
 * sends for such a path and the phone fetches them alongside the app instead of
 * after it (a deep link or a reload mid-delivery on a weak signal). Plain data:
 * no imports, so the build can read it without the app.
 *
 * `client`: the screen calls the API as it opens (the router loads it with its
 * flows), so its page names the HTTP client's chunk too (src/api/ky-client.ts):
 * the phone fetches it alongside the app, not one round trip after the app has
 * run, and the app evaluates it once the screen is up (src/api/client.ts).
 */
export const FEATURE_ROUTES = [
  { feature: "setPassword", module: "src/features/onboarding/SetPasswordRoute.tsx", paths: ["/set-password"] },
  { feature: "delivery", module: "src/features/delivery/DeliveryRoutes.tsx", paths: ["/pharmacies/:pharmacyId/deliver_orders/*"], client: true },
  {
    feature: "returns",
    module: "src/features/returns/ReturnsRoute.tsx",
    paths: ["/pharmacies/:pharmacyId/reconcile", "/pharmacies/:pharmacyId/reconcile_details/:kind", "/pharmacies/:pharmacyId/reconcile_signature"],
    client: true,
  },
  { feature: "pickup", module: "src/features/pickup/PickupRoutes.tsx", paths: ["/pharmacies/:pharmacyId/*"], client: true },
  { feature: "pharmacyVisits", module: "src/features/pickup/PharmacyVisitsRoute.tsx", paths: ["/confirm_pharmacy_visits"] },
  { feature: "machines", module: "src/features/machines/MachinesRoute.tsx", paths: ["/machines"] },
] as const;
