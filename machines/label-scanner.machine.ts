import { createLabelScannerMachine } from "./label-scanner.definition.ts";

export * from "./label-scanner.definition.ts";

/**
 * The label scanner with stand-ins for what the app provides: its tests', the
 * visualizer's and the /machines page's. The app builds its own once with its
 * adapters (createLabelScannerMachine, from ./label-scanner.definition.ts) and never loads
 * this module, so it does not build this one too.
 */
export const labelScannerMachine = createLabelScannerMachine();
