import { createAddonsMachine } from "./addons.definition.ts";

export * from "./addons.definition.ts";

/**
 * The add-ons flow with stand-ins for what the app provides: its tests', the
 * visualizer's and the /machines page's. The app builds its own once with its
 * adapters (createAddonsMachine, from ./addons.definition.ts) and never loads
 * this module, so it does not build this one too.
 */
export const addonsMachine = createAddonsMachine();
