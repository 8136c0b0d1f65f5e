import { useEffect } from "react";
import { useRouteError } from "react-router";
import { API_MEDIA_TYPE } from "../../domain/api-version.ts";
// The zod-free rules: this module is on the first screen.
import {
  CLIENT_ERROR_LIMITS,
  errorName,
  routePattern,
  stackFrames,
  type ClientErrorKind,
  type ClientErrorReportBody as ClientErrorReport,
} from "../../domain/client-error-rules.ts";

/**
 * Render failures and unexpected errors go to POST /api/client_errors
 * (spec §7 "Error reporting is active except on the local host"). A report
 * carries no patient data because it carries no free text: the message is the
 * error's class name only ("TypeError"), the page is sent as its route pattern
 * (/pharmacies/:id/…), and the stack as code locations only — exactly what the
 * server logs (domain/client-error-rules.ts). Sending never throws and never
 * reports its own failure; a page load sends at most a handful of reports.
 */

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "::1", "[::1]", "0.0.0.0"]);

/** The developer's own machine: no reports from there. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOCAL_HOSTS.has(host) || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host);
}

export interface ErrorReporterOptions {
  /** The page's host name (location.hostname). */
  hostname: string;
  /** The page's address when the error happened. */
  href: () => string;
  /** Delivers a report; fetch to the API by default. */
  send?: (report: ClientErrorReport) => Promise<unknown>;
  /** Reports per page load, at most. */
  maxReports?: number;
}

export interface ErrorReporter {
  /** Whether reports are sent at all (not on the local host). */
  readonly active: boolean;
  /** Reports an error; false when it was not sent (local host, a repeat, or over the limit). */
  report(kind: ClientErrorKind, error: unknown): boolean;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === "string") return error;
  if (error && typeof error === "object" && "message" in error && typeof error.message === "string") return error.message;
  return "A value that is not an Error was thrown";
}

/** The report as the API takes it: nothing of the error's own text but its class name. */
export function clientErrorReport(kind: ClientErrorKind, error: unknown, href: string): ClientErrorReport {
  const stack = error instanceof Error ? error.stack : undefined;
  // Frames go in Chrome's form so the server reads them back the same.
  const frames = stackFrames(stack).map((frame) => {
    const space = frame.indexOf(" ");
    return `    at ${frame.slice(0, space)} (${frame.slice(space + 1)})`;
  });
  return {
    kind,
    message: errorName(messageOf(error)),
    stack: frames.length ? frames.join("\n").slice(0, CLIENT_ERROR_LIMITS.stack) : null,
    url: routePattern(href),
  };
}

async function postReport(report: ClientErrorReport): Promise<unknown> {
  return fetch("/api/client_errors", {
    method: "POST",
    credentials: "same-origin",
    // Still delivered when the error is followed by a reload or the home button.
    keepalive: true,
    headers: { Accept: API_MEDIA_TYPE, "Content-Type": "application/json" },
    body: JSON.stringify(report),
  });
}

export function createErrorReporter(options: ErrorReporterOptions): ErrorReporter {
  const active = !isLocalHost(options.hostname);
  const send = options.send ?? postReport;
  const maxReports = options.maxReports ?? 10;
  const sent = new Set<string>();
  return {
    active,
    report(kind, error) {
      if (!active || sent.size >= maxReports) return false;
      let report: ClientErrorReport;
      try {
        report = clientErrorReport(kind, error, options.href());
      } catch {
        return false;
      }
      // The same kind of error at the same place on the same page is one report.
      const fingerprint = `${report.kind}|${report.message}|${report.url}|${report.stack ?? ""}`;
      if (sent.has(fingerprint)) return false;
      sent.add(fingerprint);
      void Promise.resolve()
        .then(() => send(report))
        .catch(() => undefined);
      return true;
    },
  };
}

let current: ErrorReporter | null = null;

/** The page's reporter; main.tsx (and tests) may set another. */
export function configureErrorReporting(reporter: ErrorReporter | null): void {
  current = reporter;
}

function reporter(): ErrorReporter | null {
  if (!current && typeof window !== "undefined") {
    current = createErrorReporter({ hostname: window.location.hostname, href: () => window.location.href });
  }
  return current;
}

/** A screen failed to render (ScreenErrorBoundary, the router's error screen). */
export function reportRenderFailure(error: unknown): void {
  reporter()?.report("render", error);
}

/** The router's error screen: report what it caught, once per error. */
export function useReportRouteError(): void {
  const error = useRouteError();
  useEffect(() => {
    if (error != null) reportRenderFailure(error);
  }, [error]);
}

/** Errors nothing caught and promises nobody handled, for the life of the page. Returns a function that stops listening. */
export function installErrorReporting(target: Window = window): () => void {
  const onError = (event: ErrorEvent) => reporter()?.report("unhandled", event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) => reporter()?.report("unhandled", event.reason);
  target.addEventListener("error", onError);
  target.addEventListener("unhandledrejection", onRejection);
  return () => {
    target.removeEventListener("error", onError);
    target.removeEventListener("unhandledrejection", onRejection);
  };
}
