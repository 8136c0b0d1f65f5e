import { createPharmacyVisitsMachine } from "./pharmacy-visits.definition.ts";

export * from "./pharmacy-visits.definition.ts";

/**
 * The visits' confirmation with stand-ins for what the app provides: its tests', the
 * visualizer's and the /machines page's. The app builds its own once with its
 * adapters (createPharmacyVisitsMachine, from ./pharmacy-visits.definition.ts) and never loads
 * this module, so it does not build this one too.
 */
export const pharmacyVisitsMachine = createPharmacyVisitsMachine();
