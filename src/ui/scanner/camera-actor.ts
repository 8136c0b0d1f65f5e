import { fromCallback, type EventObject } from "xstate";
import type { CameraEvent } from "../../../machines/label-scanner.machine.ts";

/**
 * The `camera` actor the label-scanner machine is given (check-in and
 * returns invoke that machine while the courier scans). The camera code (and,
 * where the browser needs it, the WebAssembly decoder) is fetched only now,
 * when the courier taps Scan: the screens' first load does not carry it.
 * Stopping the actor — the scanner leaving its camera state — closes the camera.
 */
export const cameraActor = fromCallback<EventObject>(({ sendBack }) => {
  const send = (event: CameraEvent) => sendBack(event);
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
