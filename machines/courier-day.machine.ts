import { createCourierDayMachine } from "./courier-day.definition.ts";

export * from "./courier-day.definition.ts";

/**
 * The day with stand-ins for what the app provides: its tests', the
 * visualizer's and the /machines page's. The app builds its own once with its
 * adapters (createCourierDayMachine, from ./courier-day.definition.ts) and never loads this module,
 * so it does not build this one too.
 */
export const courierDayMachine = createCourierDayMachine();
