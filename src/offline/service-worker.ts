import { whenIdle } from "../ui/when-idle.ts";

/**
 * Registers the service worker (vite-plugin-pwa's generated sw.js, which
 * precaches the app shell so the app opens without network) once the page
 * has loaded and the phone is idle, at most 5 s later. Registered at `load`,
 * as the plugin's own script did, its download, precache of ~50 files and
 * their compilation landed in the middle of the first screen's render on a
 * slow phone (issue 29). The courier's data never depended on it: the day
 * and the offline orders live in IndexedDB (docs/offline.md).
 *
 * The web app manifest is linked at the same moment (vite.config.ts keeps its
 * link out of index.html): the browser fetches a linked manifest and its icon
 * as soon as the page is parsed, to tell whether the app can be installed,
 * and on a first visit over a weak signal those requests shared the link
 * with the app's own chunks and the day's answer. Installing waits a second.
 */
export function registerServiceWorkerWhenIdle(): void {
  if (!import.meta.env.PROD) return;
  const register = () =>
    whenIdle(
      () => {
        linkManifest();
        if (!("serviceWorker" in navigator)) return;
        navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
          // No service worker (private mode, an old browser): the app works online as before.
        });
      },
      { timeoutMs: 5_000, fallbackMs: 1_000 },
    );
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

/** vite-plugin-pwa's manifest (vite.config.ts), linked by the app once the first screen is up. */
export const MANIFEST_URL = "/manifest.webmanifest";

function linkManifest(): void {
  if (document.head.querySelector('link[rel="manifest"]')) return;
  const link = document.createElement("link");
  link.rel = "manifest";
  link.href = MANIFEST_URL;
  document.head.append(link);
}
