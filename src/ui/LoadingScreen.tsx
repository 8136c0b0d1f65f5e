import { SPLASH_MARK } from "./page-splash.ts";

const PAGE_SPLASH_TEXT = "Loading…";

/**
 * A screen of its own while an answer is awaited: a main landmark and a level-1 heading, announced as a status.
 * Without a text it is the page's own splash, as index.html paints it before the app runs, and marked so: while
 * the page's splash is up, the app's root stays hidden behind it until a screen replaces it (src/ui/page-splash.ts).
 */
export function LoadingScreen({ text = PAGE_SPLASH_TEXT }: { text?: string }) {
  const splashMark = text === PAGE_SPLASH_TEXT ? { [SPLASH_MARK]: "" } : {};
  return (
    <main className="screen" {...splashMark}>
      <div role="status">
        <h1 className="splash">{text}</h1>
      </div>
    </main>
  );
}
