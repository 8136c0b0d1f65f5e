import { TEXT, fill } from "./texts.ts";

/**
 * How a call failed, as the machines see it. The app's HTTP adapter turns
 * every outcome into one of these (src/api/failure.ts); machines pick the
 * spec §8 text from the kind, never from raw HTTP.
 */
export type ApiFailureKind =
  /** No response: the device is offline or the request never arrived. */
  | "network"
  /** 503, or the payment gateway could not be reached. */
  | "unavailable"
  /** 500 and other 5xx. */
  | "server"
  /** 403: authorization (CSRF, card authorization). */
  | "forbidden"
  /** 401: the session is gone. */
  | "unauthenticated"
  /** Any other non-2xx: the server refused with a message of its own. */
  | "refused"
  /** Something failed without a response for another reason. */
  | "other";

export interface ApiFailure {
  kind: ApiFailureKind;
  status: number | null;
  /** The server's own message (refusals) or the error's message. */
  message: string;
  /** The server's stable error code, when it sent one. */
  code: string | null;
}

export function isApiFailure(value: unknown): value is ApiFailure {
  return typeof value === "object" && value !== null && "kind" in value && "message" in value && "status" in value;
}

/** Anything thrown → an ApiFailure (an actor may reject with a plain Error); `kind` says what a thrown non-failure means there. */
export function toApiFailure(error: unknown, kind: "other" | "network" = "other"): ApiFailure {
  if (isApiFailure(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return { kind, status: null, message, code: null };
}

/** Spec §8: the alert text for a failed call in general. */
export function failureText(failure: ApiFailure): string {
  switch (failure.kind) {
    case "forbidden":
      return TEXT.authorizationError;
    case "server":
      return TEXT.serverError;
    case "unavailable":
    case "network":
      return TEXT.noInternet;
    case "unauthenticated":
      return failure.message || TEXT.serverError;
    case "refused":
      return failure.message || TEXT.serverError;
    case "other":
      return fill(TEXT.otherError, { message: failure.message });
  }
}

/** The login screen's alert: the server's own words for a refused login, else the connection or a generic line. */
export const loginMessage = (failure: ApiFailure): string =>
  failure.status === 401 || failure.status === 400 || failure.status === 429
    ? failure.message
    : failure.kind === "network" || failure.kind === "unavailable"
      ? "No internet connection. Please connect to the internet to log in."
      : "Something went wrong. Please try again.";

/**
 * An API's error answer as a failure: the kind from the HTTP status (spec §8),
 * the server's words and code from its JSON body (`{ error, message }`) when it
 * sent one — a proxy's HTML page has neither, and `fallback` is the message.
 */
export function failureOfAnswer(status: number, body: unknown, fallback: string): ApiFailure {
  const { error, message: said } = (typeof body === "object" && body !== null ? body : {}) as { error?: unknown; message?: unknown };
  const message = typeof said === "string" ? said : fallback;
  const code = typeof error === "string" ? error : null;
  if (status === 503) return { kind: "unavailable", status, message, code };
  if (status >= 500) return { kind: "server", status, message, code };
  if (status === 403) return { kind: "forbidden", status, message, code };
  if (status === 401) return { kind: "unauthenticated", status, message, code };
  return { kind: "refused", status, message, code };
}

/** failureOfAnswer for an HTTP answer: its JSON body when it has one (a proxy's HTML error page has none, and the status alone decides). */
export async function failureOfResponse(response: Response, fallback: string): Promise<ApiFailure> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON: the status and `fallback` say it all.
  }
  return failureOfAnswer(response.status, body, fallback);
}
