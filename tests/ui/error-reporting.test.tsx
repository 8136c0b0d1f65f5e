import { render, screen } from "@testing-library/react";
import { createMemoryRouter, MemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ClientErrorReport } from "../../domain/contract/client-errors.ts";
import { TEXT } from "../../domain/texts.ts";
import { RouteErrorScreen, ScreenErrorBoundary } from "../../src/app/ErrorBoundary.tsx";
import {
  configureErrorReporting,
  createErrorReporter,
  installErrorReporting,
  isLocalHost,
} from "../../src/app/error-reporting.ts";

/**
 * docs/security.md "Client error reports": render failures and unexpected
 * errors reach POST /api/client_errors from a real host, never from the
 * local one, and never with patient data.
 */

const PAGE = "https://courier.example/pharmacies/3/deliver_orders/41/verify-dob?patient=Eleanor";
const PHI = /Eleanor|Abernathy|1948|03\/14|1012|Pine|D7418529|2155550101/;

function spyReporter(hostname = "courier.example", href = PAGE) {
  const send = vi.fn(async (report: ClientErrorReport) => report);
  return { send, reporter: createErrorReporter({ hostname, href: () => href, send }) };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  configureErrorReporting(null);
  vi.restoreAllMocks();
});

function Broken(): never {
  throw new TypeError("Cannot read 'dob' of Eleanor Abernathy (1948-03-14) at 1012 Pine St, ID D7418529, tel 2155550101");
}

describe("client error reporting", () => {
  it("is off on the local host, on at any other", () => {
    for (const host of ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "::1", "app.localhost"]) expect(isLocalHost(host), host).toBe(true);
    for (const host of ["courier.example", "rx.example.com", "10.0.0.5", "localhost.example.com"]) expect(isLocalHost(host), host).toBe(false);

    const local = spyReporter("127.0.0.1");
    expect(local.reporter.active).toBe(false);
    expect(local.reporter.report("render", new Error("boom"))).toBe(false);
    expect(local.send).not.toHaveBeenCalled();
  });

  it("sends a valid report with the route pattern, the error's class name and code locations only: no text of the error", async () => {
    const { send, reporter } = spyReporter();
    const error = new TypeError("Cannot read 'dob' of Eleanor Abernathy (1948-03-14) at 1012 Pine St");
    error.stack = `TypeError: Cannot read 'dob' of Eleanor Abernathy\n    at DobStep (https://courier.example/assets/index-1a2b.js?v=Eleanor:1:2345)\n    at renderWithHooks (https://courier.example/assets/react-9f.js:3:44)`;
    expect(reporter.report("render", error)).toBe(true);
    await flush();
    const report = send.mock.calls[0]![0];
    expect(ClientErrorReport.parse(report)).toEqual({
      kind: "render",
      message: "TypeError",
      url: "/pharmacies/:id/deliver_orders/:id/verify-dob",
      stack: "    at DobStep (/assets/index-1a2b.js:1:2345)\n    at renderWithHooks (/assets/react-9f.js:3:44)",
    });
    expect(JSON.stringify(report)).not.toMatch(PHI);
  });

  it("sends each distinct error once, and at most ten a page", async () => {
    const { send, reporter } = spyReporter();
    const fetchFailed = new Error("Failed to fetch");
    expect(reporter.report("unhandled", fetchFailed)).toBe(true);
    // Another message from the same place is the same error: no text of it is sent.
    expect(reporter.report("unhandled", Object.assign(new Error("Load failed"), { stack: fetchFailed.stack }))).toBe(false);
    for (let i = 0; i < 20; i++) {
      const error = new Error("Failed step");
      error.stack = `Error: Failed step\n    at step${i} (https://courier.example/assets/index.js:${i + 1}:1)`;
      reporter.report("unhandled", error);
    }
    await flush();
    expect(send).toHaveBeenCalledTimes(10);
  });

  it("never throws when delivering the report fails", async () => {
    const reporter = createErrorReporter({ hostname: "courier.example", href: () => PAGE, send: async () => Promise.reject(new Error("offline")) });
    expect(() => reporter.report("render", new Error("x"))).not.toThrow();
    await flush();
  });

  it("posts JSON to /api/client_errors with the API's Accept header, kept alive across a reload", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 204 }));
    const reporter = createErrorReporter({ hostname: "courier.example", href: () => PAGE });
    reporter.report("unhandled", new Error("Load failed"));
    await flush();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    const [url, init] = fetchSpy.mock.calls[0]!;
    expect(url).toBe("/api/client_errors");
    expect(init).toMatchObject({ method: "POST", keepalive: true, credentials: "same-origin" });
    expect(init!.headers).toMatchObject({ "Content-Type": "application/json", Accept: "application/vnd.rxcourier.v1+json" });
    expect(JSON.parse(init!.body as string)).toMatchObject({ kind: "unhandled", message: "Error", url: "/pharmacies/:id/deliver_orders/:id/verify-dob" });
  });

  it("reports uncaught errors and unhandled rejections from the page, until uninstalled", async () => {
    const { send, reporter } = spyReporter();
    configureErrorReporting(reporter);
    // These events are made up for the test: keep them from Vitest's own uncaught-error watch.
    const quiet = (event: Event) => event.preventDefault();
    window.addEventListener("error", quiet);
    const uninstall = installErrorReporting(window);
    window.dispatchEvent(new ErrorEvent("error", { error: new RangeError("Invalid time value"), message: "Invalid time value", cancelable: true }));
    const rejection = Object.assign(new Event("unhandledrejection"), { reason: new Error("Payment gateway went away") });
    window.dispatchEvent(rejection);
    uninstall();
    window.dispatchEvent(new ErrorEvent("error", { error: new Error("after uninstall"), cancelable: true }));
    window.removeEventListener("error", quiet);
    await flush();
    expect(send.mock.calls.map(([report]) => [report.kind, report.message])).toEqual([
      ["unhandled", "RangeError"],
      ["unhandled", "Error"],
    ]);
  });

  it("reports a screen's render failure from the boundary and still shows the spec's message", async () => {
    const { send, reporter } = spyReporter();
    configureErrorReporting(reporter);
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    render(
      <MemoryRouter>
        <ScreenErrorBoundary resetKey="/pharmacies/3/deliver_orders/41/verify-dob">
          <Broken />
        </ScreenErrorBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByText(TEXT.renderFailure)).toBeInTheDocument();
    await flush();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![0]).toMatchObject({ kind: "render", url: "/pharmacies/:id/deliver_orders/:id/verify-dob" });
    expect(JSON.stringify(send.mock.calls[0]![0])).not.toMatch(PHI);
  });

  it("reports what the router's error screen caught", async () => {
    const { send, reporter } = spyReporter();
    configureErrorReporting(reporter);
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const router = createMemoryRouter([{ path: "/", element: <Broken />, errorElement: <RouteErrorScreen /> }]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByText(TEXT.renderFailure)).toBeInTheDocument();
    await flush();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![0].kind).toBe("render");
    expect(JSON.stringify(send.mock.calls[0]![0])).not.toMatch(PHI);
  });
});
