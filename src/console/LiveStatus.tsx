/** Whether a live screen hears the day as it happens: 'Live', 'Reconnecting…' after a drop, 'Connecting…' at first. */
export function LiveStatus({ connection }: { connection: "connecting" | "live" | "reconnecting" }) {
  return (
    <p className={`console-connection console-connection--${connection}`} role="status">
      {connection === "live" ? "Live" : connection === "reconnecting" ? "Reconnecting…" : "Connecting…"}
    </p>
  );
}
