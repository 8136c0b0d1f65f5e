import { useSelector } from "@xstate/react";
import { useEffect, useRef } from "react";
import type { ActorRefFrom } from "xstate";
import { SCAN_TEXT } from "../../../domain/label-scan.ts";
import type { labelScannerMachine } from "../../../machines/label-scanner.machine.ts";
import { ActionButton } from "../ActionButton.tsx";
import { viewfinderVideo } from "./viewfinder.ts";
import "./scanner.css";

export type LabelScannerRef = ActorRefFrom<typeof labelScannerMachine>;

interface Props {
  /** The label-scanner machine the screen's machine runs while scanning. */
  scanner: LabelScannerRef;
  /** What a read label does on this screen. */
  hint: string;
  /** What to do instead when there is no camera (check-in: the search box). */
  instead?: string;
}

/**
 * The label scanner on the check-in list and the returns summary: the
 * camera's picture, what the scanner is doing and its buttons, above the
 * screen's own content (which stays usable: the search box, Continue). The
 * picture is the camera adapter's <video>, moved in here while the panel shows.
 */
export function ScannerPanel({ scanner, hint, instead }: Props) {
  const frame = useRef<HTMLDivElement>(null);
  const { phase, unknownLabel, cameraProblem } = useSelector(
    scanner,
    (snapshot) => ({
      phase: snapshot.matches("unavailable") ? "unavailable" : snapshot.matches({ camera: "reading" }) ? "reading" : "starting",
      unknownLabel: snapshot.context.unknownLabel,
      cameraProblem: snapshot.context.cameraProblem,
    }),
    (a, b) => a.phase === b.phase && a.unknownLabel === b.unknownLabel && a.cameraProblem === b.cameraProblem,
  );
  const showsPicture = phase !== "unavailable";

  useEffect(() => {
    const container = frame.current;
    if (!showsPicture || !container) return;
    const video = viewfinderVideo();
    container.prepend(video);
    return () => video.remove();
  }, [showsPicture]);

  return (
    <section className="scanner card section" aria-label="Label scanner">
      {showsPicture && (
        <div className="scanner__frame" ref={frame}>
          <div className="scanner__aim" aria-hidden="true" />
        </div>
      )}
      {phase === "unavailable" ? (
        <p className="notice notice--error" role="alert">
          {cameraProblem ? SCAN_TEXT.cameraProblem[cameraProblem] : SCAN_TEXT.cameraProblem.failed}
          {instead && ` ${instead}`}
        </p>
      ) : (
        <p className="scanner__status" role="status">
          {phase === "starting" ? SCAN_TEXT.starting : `${SCAN_TEXT.aimAtLabel} ${hint}`}
        </p>
      )}
      {unknownLabel !== null && phase === "reading" && (
        <p className="notice notice--warn" role="alert">
          {SCAN_TEXT.noOrderWithLabel(unknownLabel)}
        </p>
      )}
      <div className="actions scanner__actions">
        {phase === "unavailable" && <ActionButton onClick={() => scanner.send({ type: "RETRY" })}>{SCAN_TEXT.tryAgain}</ActionButton>}
        <ActionButton variant="secondary" onClick={() => scanner.send({ type: "CLOSE" })}>
          {SCAN_TEXT.stopScanning}
        </ActionButton>
      </div>
    </section>
  );
}
