import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { registerServiceWorkerWhenIdle } from "../../src/offline/service-worker.ts";

/**
 * Issue 29: the app registers its service worker itself, once the page has
 * loaded and the phone is idle (at most 5 s later), instead of at `load`.
 * That it then takes control and serves the app offline is
 * tests/e2e/offline.test.ts's.
 */

let register: ReturnType<typeof vi.fn>;
let idle: (() => void)[];
let readyState: DocumentReadyState;

beforeEach(() => {
  register = vi.fn(() => Promise.resolve({}));
  idle = [];
  readyState = "loading";
  vi.stubEnv("PROD", true);
  Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: { register } });
  vi.spyOn(document, "readyState", "get").mockImplementation(() => readyState);
  vi.stubGlobal("requestIdleCallback", (task: () => void, options: { timeout: number }) => {
    expect(options.timeout).toBe(5_000);
    idle.push(task);
    return idle.length;
  });
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, "serviceWorker");
  document.head.querySelectorAll('link[rel="manifest"]').forEach((link) => link.remove());
});

const manifestLinks = () => [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="manifest"]')].map((link) => link.getAttribute("href"));

const runIdle = () => idle.splice(0).forEach((task) => task());

describe("the service worker's registration", () => {
  it("waits for load, then for the phone to be idle", () => {
    registerServiceWorkerWhenIdle();
    runIdle();
    expect(register).not.toHaveBeenCalled();

    readyState = "complete";
    window.dispatchEvent(new Event("load"));
    expect(register).not.toHaveBeenCalled();
    runIdle();
    expect(register).toHaveBeenCalledExactlyOnceWith("/sw.js", { scope: "/" });
  });

  it("links the web app manifest at the same moment, once (index.html does not: its requests would share the first load's signal)", () => {
    registerServiceWorkerWhenIdle();
    readyState = "complete";
    window.dispatchEvent(new Event("load"));
    expect(manifestLinks()).toEqual([]);
    runIdle();
    expect(manifestLinks()).toEqual(["/manifest.webmanifest"]);
    registerServiceWorkerWhenIdle();
    runIdle();
    expect(manifestLinks()).toEqual(["/manifest.webmanifest"]);
  });

  it("links the manifest where there is no service worker too (installing needs the manifest, not the worker)", () => {
    Reflect.deleteProperty(navigator, "serviceWorker");
    readyState = "complete";
    registerServiceWorkerWhenIdle();
    runIdle();
    expect(manifestLinks()).toEqual(["/manifest.webmanifest"]);
  });

  it("waits only for idle when the page has already loaded", () => {
    readyState = "complete";
    registerServiceWorkerWhenIdle();
    expect(register).not.toHaveBeenCalled();
    runIdle();
    expect(register).toHaveBeenCalledExactlyOnceWith("/sw.js", { scope: "/" });
  });

  it("lets a refused registration pass quietly (the app works online as before)", async () => {
    register.mockImplementation(() => Promise.reject(new Error("SecurityError")));
    readyState = "complete";
    registerServiceWorkerWhenIdle();
    runIdle();
    await Promise.resolve();
    expect(register).toHaveBeenCalledOnce();
  });

  it("registers nothing in development (Vite's dev server has no sw.js)", () => {
    vi.stubEnv("PROD", false);
    readyState = "complete";
    registerServiceWorkerWhenIdle();
    runIdle();
    expect(register).not.toHaveBeenCalled();
  });
});
