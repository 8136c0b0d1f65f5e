import { useSelector } from "@xstate/react";
import { useEffect } from "react";
import type { ActorRef, EventObject, Snapshot } from "xstate";
import type { LabelScannerRef } from "./ScannerPanel.tsx";

/** A screen's machine that runs the label scanner as its child `labelScanner` while the courier scans (check-in, returns). */
type ScanningScreen<TEvent extends EventObject> = ActorRef<Snapshot<unknown> & { children: { labelScanner?: LabelScannerRef | undefined } }, TEvent>;

/**
 * The scanner the screen's machine runs now, or undefined when it is not
 * scanning. Leaving the screen (another screen, the browser's back) closes
 * the camera: the flow itself keeps running after its screen goes.
 */
export function useLabelScanner<TEvent extends EventObject>(screen: ScanningScreen<TEvent>): LabelScannerRef | undefined {
  const scanner = useSelector(screen, (snapshot) => snapshot.children.labelScanner);
  useEffect(() => () => screen.getSnapshot().children.labelScanner?.send({ type: "CLOSE" }), [screen]);
  return scanner;
}
