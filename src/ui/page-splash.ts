/** index.html's splash: painted before the app runs, outside the app's root (index.html hides the root meanwhile). */
export const PAGE_SPLASH_ID = "page-splash";

/** What marks the app's own "Loading…" screen (LoadingScreen), the same words as the page's splash: not yet a screen. */
export const SPLASH_MARK = "data-splash";

/**
 * Keeps index.html's splash on the phone, and the app's root hidden, until the root first holds a screen
 * (a main landmark that is not the app's own "Loading…"), then takes the splash away in the same task,
 * before the next frame. Until then the app renders behind it: a reload used to replace the splash with
 * the same words one to three times while the app started (the router's, the session's, the flow's),
 * each a layout, a paint and a frame on the phone (issue 29). It waits for a screen, not for any content:
 * the navigation bar comes a commit before the screen under it. Every screen has its main landmark (axe),
 * an error too. Called once, by the page's entry, before the app's first render.
 */
export function keepPageSplashUntilScreen(root: HTMLElement): void {
  const splash = document.getElementById(PAGE_SPLASH_ID);
  if (!splash) return;
  const observer = new MutationObserver(() => {
    if (!root.querySelector(`main:not([${SPLASH_MARK}])`)) return;
    observer.disconnect();
    splash.remove();
  });
  observer.observe(root, { childList: true, subtree: true });
}
