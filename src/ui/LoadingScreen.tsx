/**
 * A screen of its own while an answer is awaited: a main landmark and a level-1 heading, announced as a status.
 * Without a text it is the page's own splash, as index.html paints it before the app runs.
 */
export function LoadingScreen({ text = "Loading…" }: { text?: string }) {
  return (
    <main className="screen">
      <div role="status">
        <h1 className="splash">{text}</h1>
      </div>
    </main>
  );
}
