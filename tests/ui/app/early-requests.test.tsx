import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { API_MEDIA_TYPE } from "../../../domain/api-version.ts";
import { isApiFailure } from "../../../domain/api-failure.ts";
import { call, getJson } from "../../../src/api/client.ts";
import { PageRequest } from "../../support/ui-fixtures.ts";

/** The inline script of index.html, as the browser runs it before the app's JavaScript. */
function runInlineScript(): void {
  const html = readFileSync(path.resolve(import.meta.dirname, "../../../index.html"), "utf8");
  const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
  expect(inline).toHaveLength(1);
  new Function(inline[0]!)();
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const requestedPath = (input: unknown) => new URL(input instanceof Request ? input.url : String(input), window.location.href).pathname;

describe("early API requests (index.html → src/api/early-requests.ts)", () => {
  let fetchSpy: MockInstance<typeof fetch>;
  beforeEach(() => {
    fetchSpy = vi.spyOn(globalThis, "fetch");
    vi.stubGlobal("Request", PageRequest);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    delete window.rxcEarlyRequests;
    window.history.replaceState(null, "", "/");
  });

  it("asks for the session and the day before the app runs, as the app itself would ask", () => {
    window.history.replaceState(null, "", "/pharmacies/3/deliver_orders/13/address");
    fetchSpy.mockResolvedValue(json({}));
    runInlineScript();
    expect(fetchSpy.mock.calls.map(([input]) => requestedPath(input))).toEqual(["/api/sessions/current", "/api/courier/itinerary"]);
    for (const [, init] of fetchSpy.mock.calls) {
      expect(init?.credentials).toBe("same-origin");
      expect(new Headers(init?.headers).get("accept")).toBe(API_MEDIA_TYPE);
    }
  });

  it("asks only for the session on the login screen", () => {
    window.history.replaceState(null, "", "/login");
    fetchSpy.mockResolvedValue(json({}));
    runInlineScript();
    expect(fetchSpy.mock.calls.map(([input]) => requestedPath(input))).toEqual(["/api/sessions/current"]);
  });

  it("answers the app's first call from the early request, and the next one from the server", async () => {
    window.history.replaceState(null, "", "/pharmacies");
    fetchSpy.mockResolvedValueOnce(json({ from: "early session" })).mockResolvedValueOnce(json({ from: "early day" }));
    runInlineScript();
    fetchSpy.mockImplementation(async () => json({ from: "server" }));

    expect(await call((http) => http.get("courier/itinerary").json())).toEqual({ from: "early day" });
    expect(await call((http) => http.get("sessions/current").json())).toEqual({ from: "early session" });
    expect(fetchSpy).toHaveBeenCalledTimes(2);
    expect(await call((http) => http.get("sessions/current").json())).toEqual({ from: "server" });
    expect(fetchSpy).toHaveBeenCalledTimes(3);
  });

  it("hands the app the early answer's status: a 401 is not logged in", async () => {
    fetchSpy.mockResolvedValue(json({ error: "unauthenticated", message: "Log in again." }, 401));
    runInlineScript();
    const failure = await call((http) => http.get("sessions/current").json()).catch((error: unknown) => error);
    expect(isApiFailure(failure) && failure.kind).toBe("unauthenticated");
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });

  it("asks again when the early request found no network", async () => {
    window.history.replaceState(null, "", "/login");
    fetchSpy.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    runInlineScript();
    fetchSpy.mockResolvedValueOnce(json({ from: "server" }));
    expect(await call((http) => http.get("sessions/current").json())).toEqual({ from: "server" });
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });

  it("does not wait a second time-out after the early request timed out", async () => {
    window.history.replaceState(null, "", "/login");
    fetchSpy.mockRejectedValueOnce(new DOMException("signal timed out", "TimeoutError"));
    runInlineScript();
    const failure = await call((http) => http.get("sessions/current").json()).catch((error: unknown) => error);
    expect(isApiFailure(failure) && failure.kind).toBe("network");
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it("leaves other calls and other methods alone", async () => {
    window.history.replaceState(null, "", "/login");
    fetchSpy.mockResolvedValueOnce(json({ from: "early session" }));
    runInlineScript();
    fetchSpy.mockImplementation(async () => json({ from: "server" }));
    expect(await call((http) => http.get("sessions/current", { searchParams: { x: "1" } }).json())).toEqual({ from: "server" });
    expect(await call((http) => http.get("courier/itinerary").json())).toEqual({ from: "server" });
    expect(window.rxcEarlyRequests?.["sessions/current"]).toBeDefined();
  });

  describe("getJson: the first screen's calls read without the HTTP client (issue 29)", () => {
    it("takes the early answer once, and asks the server for the next one", async () => {
      window.history.replaceState(null, "", "/pharmacies");
      fetchSpy.mockResolvedValueOnce(json({ from: "early session" })).mockResolvedValueOnce(json({ from: "early day" }));
      runInlineScript();
      fetchSpy.mockImplementation(async () => json({ from: "server" }));

      expect(await getJson("courier/itinerary")).toEqual({ from: "early day" });
      expect(await getJson("sessions/current")).toEqual({ from: "early session" });
      expect(fetchSpy).toHaveBeenCalledTimes(2);
      expect(window.rxcEarlyRequests && Object.keys(window.rxcEarlyRequests)).toEqual([]);
      expect(await getJson("sessions/current")).toEqual({ from: "server" });
      expect(fetchSpy).toHaveBeenCalledTimes(3);
    });

    it("makes the same failure of an early 401 as the client does, without asking again", async () => {
      window.history.replaceState(null, "", "/login");
      fetchSpy.mockImplementation(async () => json({ error: "unauthenticated", message: "Log in again." }, 401));
      runInlineScript();
      const early = await getJson("sessions/current").catch((error: unknown) => error);
      expect(early).toEqual({ kind: "unauthenticated", status: 401, message: "Log in again.", code: "unauthenticated" });
      expect(fetchSpy).toHaveBeenCalledTimes(1);
      const throughClient = await call((http) => http.get("sessions/current").json()).catch((error: unknown) => error);
      expect(throughClient).toEqual(early);
    });

    it("leaves an answer the client retries (503) to the client, which asks once more", async () => {
      window.history.replaceState(null, "", "/login");
      fetchSpy.mockResolvedValueOnce(json({ error: "unavailable", message: "Down." }, 503));
      runInlineScript();
      fetchSpy.mockResolvedValueOnce(json({ from: "server" }));
      expect(await getJson("sessions/current")).toEqual({ from: "server" });
      expect(fetchSpy).toHaveBeenCalledTimes(2);
    });

    it("asks again when the early request found no network, and fails as a time-out without waiting twice", async () => {
      window.history.replaceState(null, "", "/login");
      fetchSpy.mockRejectedValueOnce(new TypeError("Failed to fetch"));
      runInlineScript();
      fetchSpy.mockResolvedValueOnce(json({ from: "server" }));
      expect(await getJson("sessions/current")).toEqual({ from: "server" });
      expect(fetchSpy).toHaveBeenCalledTimes(2);

      fetchSpy.mockReset();
      fetchSpy.mockRejectedValueOnce(new DOMException("signal timed out", "TimeoutError"));
      runInlineScript();
      const failure = await getJson("sessions/current").catch((error: unknown) => error);
      expect(isApiFailure(failure) && failure.kind).toBe("network");
      expect(fetchSpy).toHaveBeenCalledTimes(1);
    });

    it("calls the server through the client when nothing was asked early", async () => {
      fetchSpy.mockImplementation(async () => json({ from: "server" }));
      expect(await getJson("courier/itinerary")).toEqual({ from: "server" });
      expect(fetchSpy).toHaveBeenCalledTimes(1);
    });
  });
});
