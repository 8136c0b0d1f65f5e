/**
 * The event stream's connection, the same region on every live console screen
 * ('Live' / 'Reconnecting…'): the machine invokes its `eventStream` actor, which
 * sends STREAM_OPEN and STREAM_ERROR. What a screen does when the stream is back
 * after a drop is its own: `onBack` is added to that transition.
 */
export function liveConnectionRegion<const Back extends object = Record<never, never>>(liveDescription: string, onBack?: Back) {
  return {
    initial: "connecting",
    invoke: { id: "eventStream", src: "eventStream" },
    states: {
      connecting: {
        description: "Opening GET /api/ops/v1/events.",
        on: { STREAM_OPEN: { target: "live" }, STREAM_ERROR: { target: "reconnecting" } },
      },
      live: {
        description: liveDescription,
        on: { STREAM_ERROR: { target: "reconnecting" } },
      },
      reconnecting: {
        description: "'Reconnecting…': the browser reopens the stream and resumes after the last event (Last-Event-ID).",
        on: { STREAM_OPEN: { target: "live", ...(onBack as Back) } },
      },
    },
  } as const;
}
