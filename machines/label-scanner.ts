import { fromCallback, type EventObject } from "xstate";
import type { CameraProblem } from "../domain/label-scan.ts";

/**
 * The camera as the check-in and returns machines see it (issue 19): a
 * callback actor the app provides (`labelScanner`), invoked while a machine
 * is scanning and stopped — camera off — when it leaves. It reports the
 * events below; the picture itself never enters a machine's context.
 */
export type LabelScannerEvent = { type: "CAMERA_READY" } | { type: "CAMERA_FAILED"; problem: CameraProblem } | { type: "LABEL_READ"; code: string };

/** The placeholder each machine declares in setup; the app and the tests provide the real one. */
export const labelScannerPlaceholder = fromCallback<EventObject>(() => {
  throw new Error("provide labelScanner");
});
