import { useEffect } from "react";
import { isResubmitting, mustReload, queueMessage } from "./queue-messages.ts";
import { TEXT } from "../../domain/texts.ts";
import { ActionButton } from "../ui/ActionButton.tsx";
import { useOfflineQueueRef } from "../shell/app-actor.ts";
import { deviceToday, useHasIncompleteOrders, useOfflineQueue } from "../shell/offline-queue.ts";

/** Spec §4: 'You have an incomplete order.' with 'Try again', and the §8 retry outcomes. */
export function OfflineBanner() {
  const queue = useOfflineQueueRef();
  const incomplete = useHasIncompleteOrders();
  const message = useOfflineQueue(queueMessage, (a, b) => a?.text === b?.text);
  const sending = useOfflineQueue(isResubmitting);
  const reload = useOfflineQueue(mustReload);

  useEffect(() => {
    // Spec §8: a 403 on retry reloads the page (once everything is safely stored).
    if (reload) window.location.reload();
  }, [reload]);

  if (!incomplete && !message) return null;
  return (
    <div className="offline-banner" role="region" aria-label="Incomplete orders">
      {incomplete && <p className="offline-banner__text">{TEXT.incompleteOrderBanner}</p>}
      {message && (
        <p className={`notice ${message.tone === "error" ? "notice--error" : "notice--warn"}`} role="alert">
          {message.text}
        </p>
      )}
      {incomplete && (
        <ActionButton disabled={sending} onClick={() => queue.send({ type: "TRY_AGAIN", today: deviceToday() })}>
          {sending ? "Sending…" : TEXT.tryAgain}
        </ActionButton>
      )}
    </div>
  );
}
