import { lazy, Suspense, type ComponentProps } from "react";
import { SCAN_TEXT } from "../../../domain/label-scan.ts";
import { ActionButton } from "../../ui/ActionButton.tsx";

/** The panel's code (and the camera's) is fetched when the courier taps Scan, not with the screen. */
const LazyScannerPanel = lazy(() => import("./ScannerPanel.tsx").then((module) => ({ default: module.ScannerPanel })));

/** 'Scan': opens the label scanner above the screen's content. */
export function ScanButton({ onScan }: { onScan(): void }) {
  return (
    <ActionButton variant="secondary" block={false} className="scan-button" onClick={onScan}>
      <svg width="26" height="26" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" aria-hidden="true">
        <path d="M4 8V5a1 1 0 0 1 1-1h3M16 4h3a1 1 0 0 1 1 1v3M20 16v3a1 1 0 0 1-1 1h-3M8 20H5a1 1 0 0 1-1-1v-3M7 12h10" />
      </svg>
      {SCAN_TEXT.scan}
    </ActionButton>
  );
}

/** The scanner panel, loaded on demand; until it arrives, what it would say first. */
export function ScannerPanel(props: ComponentProps<typeof LazyScannerPanel>) {
  return (
    <Suspense
      fallback={
        <section className="scanner card section" aria-label="Label scanner">
          <p className="scanner__status" role="status">
            {SCAN_TEXT.starting}
          </p>
        </section>
      }
    >
      <LazyScannerPanel {...props} />
    </Suspense>
  );
}
