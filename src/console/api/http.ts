import { failureOfAnswer, toApiFailure, type ApiFailure } from "../../../domain/api-failure.ts";
import { OPS_API_PREFIX } from "../../../domain/contract/ops.ts";

/**
 * The console's calls to the operations API with the staff session cookie
 * (sent by the browser, path /api/ops/v1) and, on mutating calls, the CSRF
 * token. Every outcome that is not a 2xx becomes an ApiFailure, the one shape
 * the machines read (domain/api-failure.ts).
 */
const ACCEPT = "application/vnd.rxcourier.v1+json";
const TIMEOUT_MS = 20_000;

export async function opsRequest(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, options: { body?: unknown; csrfToken?: string | null } = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: ACCEPT };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.csrfToken) headers["X-CSRF-Token"] = options.csrfToken;
  let response: Response;
  try {
    response = await fetch(`${OPS_API_PREFIX}/${path}`, {
      method,
      headers,
      credentials: "same-origin",
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    // fetch rejects when there is no network at all, or the timeout fired.
    throw toApiFailure(error, "network");
  }
  if (!response.ok) throw await failureOf(response);
  return response;
}

async function failureOf(response: Response): Promise<ApiFailure> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // A proxy's HTML error page: the status alone decides.
  }
  return failureOfAnswer(response.status, body, response.statusText);
}
