import { fromPromise } from "xstate";
import { createReturnsMachine } from "../../../machines/returns.definition.ts";
import { submitReturn } from "../../api/returns.ts";
import { createLabelScannerMachine } from "../../../machines/label-scanner.definition.ts";
import { cameraActor } from "../../ui/scanner/camera-actor.ts";

/**
 * The returns flow with the app's adapters: what the app's registry of flows (src/app/flows.ts) loads for the returns screens.
 * Built once with them (not defined, then built again by provide()), when the registry asks for it, not while the chunk is evaluated (issue 29).
 */
export const appReturnsMachine = () =>
  createReturnsMachine({
    submitReturn: fromPromise(({ input }) => submitReturn(input)),
    labelScanner: createLabelScannerMachine({ camera: cameraActor }),
  });
