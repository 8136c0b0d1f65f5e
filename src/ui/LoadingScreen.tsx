/** A screen of its own while an answer is awaited: a main landmark and a level-1 heading, announced as a status. */
export function LoadingScreen({ text }: { text: string }) {
  return (
    <main className="screen">
      <div role="status">
        <h1 className="splash">{text}</h1>
      </div>
    </main>
  );
}
