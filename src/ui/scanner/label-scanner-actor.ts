import { fromCallback, type EventObject } from "xstate";
import type { LabelScannerEvent } from "../../../machines/label-scanner.ts";

/**
 * The `labelScanner` actor the check-in and returns machines are given. The
 * camera code (and, where the browser needs it, the WebAssembly decoder) is
 * fetched only now, when the courier taps Scan: the screens' first load does
 * not carry it. Stopping the actor — the machine leaving its scanning state —
 * closes the camera.
 */
export const labelScannerActor = fromCallback<EventObject>(({ sendBack }) => {
  const send = (event: LabelScannerEvent) => sendBack(event);
  let stop: (() => void) | null = null;
  let stopped = false;
  import("./camera-scan.ts").then(
    ({ startCameraScan }) => {
      if (!stopped) stop = startCameraScan(send);
    },
    // No network for the scanner's code: the camera is as good as missing.
    () => {
      if (!stopped) send({ type: "CAMERA_FAILED", problem: "failed" });
    },
  );
  return () => {
    stopped = true;
    stop?.();
  };
});
