import { createCourierAppMachine } from "./courier-app.definition.ts";

export * from "./courier-app.definition.ts";

/**
 * The application with stand-ins for what the app provides: its tests', the
 * visualizer's and the /machines page's. The app builds its own once with its
 * adapters (createCourierAppMachine, from ./courier-app.definition.ts) and never loads this module,
 * so it does not build this one too.
 */
export const courierAppMachine = createCourierAppMachine();
