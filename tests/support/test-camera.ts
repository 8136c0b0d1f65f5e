import { fromCallback, type ActorRefFrom, type AnyActorRef } from "xstate";
import { labelScannerMachine } from "../../machines/label-scanner.machine.ts";

/**
 * A camera the test drives, for the label scanner: it counts how often it is
 * opened and closed (the scanner leaving its camera state closes it). The
 * labels it "reads" are sent by the test to the scanner.
 */
export function testCamera() {
  const camera = { opened: 0, closed: 0 };
  const logic = fromCallback(() => {
    camera.opened += 1;
    return () => {
      camera.closed += 1;
    };
  });
  return {
    camera,
    /** The scanner machine with this camera, as check-in and returns are given it. */
    labelScanner: labelScannerMachine.provide({ actors: { camera: logic } }),
  };
}

/** The scanner a check-in or returns actor runs now, or undefined when it is not scanning. */
export const scannerOf = (screen: AnyActorRef) =>
  (screen.getSnapshot() as { children: Record<string, unknown> }).children.labelScanner as ActorRefFrom<typeof labelScannerMachine> | undefined;
