import type { SnapshotFrom } from "xstate";
import { TEXT } from "../../domain/texts.ts";
import type { offlineQueueMachine } from "../../machines/offline-queue.machine.ts";

/** What the offline banner reads from the offline-queue machine. */

type QueueSnapshot = SnapshotFrom<typeof offlineQueueMachine>;

/** The alert to show for the last resubmission, in the spec's words. */
export function queueMessage(snapshot: QueueSnapshot): { tone: "notice" | "error"; text: string } | null {
  if (snapshot.matches({ drain: { waiting: "offline" } })) return { tone: "notice", text: TEXT.gatewayUnreachable };
  if (snapshot.matches({ drain: { waiting: "refused" } })) return { tone: "error", text: TEXT.resubmitError };
  return null;
}

/** Reload only once storage holds everything, so the reloaded page still has the queue. */
export function mustReload(snapshot: QueueSnapshot): boolean {
  return snapshot.matches({ drain: "reloadRequired" }) && (snapshot.matches({ storage: "saved" }) || snapshot.matches({ storage: "failed" }));
}

export function isResubmitting(snapshot: QueueSnapshot): boolean {
  return snapshot.matches({ drain: "sending" });
}
