import { useEffect, useId, useRef } from "react";

/**
 * The spec's confirmations ("Are you sure…?") as a modal the machine opens by
 * being in a confirming state: the view only renders it and reports the answer.
 */
export function ConfirmDialog({
  message,
  confirmLabel = "OK",
  cancelLabel = "Cancel",
  onConfirm,
  onCancel,
}: {
  message: string;
  confirmLabel?: string;
  cancelLabel?: string | null;
  onConfirm: () => void;
  onCancel?: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const messageId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) {
      // jsdom has no showModal; the dialog is still rendered open for tests.
      if (typeof element.showModal === "function") element.showModal();
      else element.setAttribute("open", "");
    }
  }, []);

  return (
    <dialog
      ref={dialog}
      className="dialog"
      role="alertdialog"
      aria-modal="true"
      aria-describedby={messageId}
      aria-label="Please confirm"
      onCancel={(event) => {
        event.preventDefault();
        onCancel?.();
      }}
    >
      <p id={messageId} className="dialog__message">
        {message}
      </p>
      <div className="dialog__actions">
        {cancelLabel !== null && onCancel && (
          <button type="button" className="button button--secondary" onClick={onCancel}>
            {cancelLabel}
          </button>
        )}
        <button type="button" className="button" onClick={onConfirm} autoFocus>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
