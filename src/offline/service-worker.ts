import { whenIdle } from "../ui/when-idle.ts";

/**
 * Registers the service worker (vite-plugin-pwa's generated sw.js, which
 * precaches the app shell so the app opens without network) once the page
 * has loaded and the phone is idle, at most 5 s later. Registered at `load`,
 * as the plugin's own script did, its download, precache of ~50 files and
 * their compilation landed in the middle of the first screen's render on a
 * slow phone (issue 29). The courier's data never depended on it: the day
 * and the offline orders live in IndexedDB (docs/offline.md).
 */
export function registerServiceWorkerWhenIdle(): void {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  const register = () =>
    whenIdle(
      () => {
        navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
          // No service worker (private mode, an old browser): the app works online as before.
        });
      },
      { timeoutMs: 5_000, fallbackMs: 1_000 },
    );
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
