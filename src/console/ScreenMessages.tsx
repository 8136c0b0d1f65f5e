import type { ReactNode } from "react";

/** A work screen's failure in words, with 'Try again' when what the screen shows could not load (Couriers, Plan the day). */
export function ScreenAlert({ error, onRetry }: { error: string | null; onRetry?: () => void }) {
  if (!error) return null;
  return (
    <div className="console-alert console-alert--row" role="alert">
      <span>{error}</span>
      {onRetry && (
        <button type="button" className="console-button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** Where a work screen says what it did: a status region present from the start, so a screen reader hears what comes into it. */
export function NoticeSlot({ children }: { children?: ReactNode }) {
  return (
    <div role="status" className="console-notice-slot">
      {children && <div className="console-notice">{children}</div>}
    </div>
  );
}
