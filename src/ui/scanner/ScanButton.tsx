import { SCAN_TEXT } from "../../../domain/label-scan.ts";
import { ActionButton } from "../ActionButton.tsx";
import "./scanner.css";

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
