import { useEffect, useRef } from "react";
import { SCAN_TEXT, type CameraProblem } from "../../../domain/label-scan.ts";
import { ActionButton } from "../ActionButton.tsx";
import { viewfinderVideo } from "./viewfinder.ts";

export type ScanPhase = "starting" | "reading" | "unavailable";

interface Props {
  phase: ScanPhase;
  /** The last label that named nothing here, shown while scanning goes on. */
  unknownLabel: string | null;
  cameraProblem: CameraProblem | null;
  /** What a read label does on this screen. */
  hint: string;
  /** What to do instead when there is no camera (check-in: the search box). */
  instead?: string;
  onStop(): void;
  onRetry(): void;
}

/**
 * The camera's picture, what the scanner is doing and its buttons, above the
 * screen's own content (which stays usable: the search box, Continue). The
 * picture is the adapter's <video>, moved in here while the panel shows.
 */
export function ScannerPanel({ phase, unknownLabel, cameraProblem, hint, instead, onStop, onRetry }: Props) {
  const frame = useRef<HTMLDivElement>(null);
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
        {phase === "unavailable" && <ActionButton onClick={onRetry}>{SCAN_TEXT.tryAgain}</ActionButton>}
        <ActionButton variant="secondary" onClick={onStop}>
          {SCAN_TEXT.stopScanning}
        </ActionButton>
      </div>
    </section>
  );
}
