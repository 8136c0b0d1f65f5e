import { fromCallback, type EventObject } from "xstate";
import { OPS_API_PREFIX } from "../../../domain/contract/ops.ts";

/** Reconnection after the server closed the stream for good (EventSource reconnects by itself otherwise). */
const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;

/**
 * GET /api/ops/v1/events as an EventSource, for a live screen's machine (the
 * board, the couriers): the browser sends the session cookie, reconnects
 * after a dropped connection and resumes with Last-Event-ID. When the server
 * ends the stream for good (an error status), the console opens it again
 * with back-off, from the last event it saw (?last_event_id=), so nothing in
 * between is lost. It sends STREAM_OPEN, STREAM_ERROR, and for each message
 * what `eventOf` makes of its data; it closes when the machine stops it.
 */
export function liveEvents<TEvent extends EventObject>(eventOf: (data: string) => TEvent) {
  return fromCallback<TEvent>(({ sendBack }) => {
    let source: EventSource | null = null;
    let lastEventId: string | null = null;
    let retryMs = FIRST_RETRY_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      const url = `${OPS_API_PREFIX}/events${lastEventId ? `?last_event_id=${encodeURIComponent(lastEventId)}` : ""}`;
      source = new EventSource(url, { withCredentials: true });
      source.onopen = () => {
        retryMs = FIRST_RETRY_MS;
        sendBack({ type: "STREAM_OPEN" });
      };
      source.onmessage = (message) => {
        if (message.lastEventId) lastEventId = message.lastEventId;
        sendBack(eventOf(message.data as string));
      };
      source.onerror = () => {
        sendBack({ type: "STREAM_ERROR" });
        if (source?.readyState === EventSource.CLOSED) {
          timer = setTimeout(open, retryMs);
          retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
        }
      };
    };
    open();
    return () => {
      clearTimeout(timer);
      // Detached first: a stopped screen never hears from this stream again, nor schedules a retry.
      if (source) source.onopen = source.onmessage = source.onerror = null;
      source?.close();
    };
  });
}
