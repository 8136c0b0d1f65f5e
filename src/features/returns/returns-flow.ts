import { fromPromise } from "xstate";
import { returnsMachine } from "../../../machines/returns.machine.ts";
import { submitReturn } from "../../api/returns.ts";
import { labelScannerMachine } from "../../../machines/label-scanner.machine.ts";
import { cameraActor } from "../../ui/scanner/camera-actor.ts";

/** The returns flow with the app's adapters: what the app's registry of flows (src/app/flows.ts) loads for the returns screens. */
export const appReturnsMachine = returnsMachine.provide({
  actors: { submitReturn: fromPromise(({ input }) => submitReturn(input)), labelScanner: labelScannerMachine.provide({ actors: { camera: cameraActor } }) },
});
