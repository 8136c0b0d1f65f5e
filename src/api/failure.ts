import { HTTPError, TimeoutError } from "ky";
import { failureOfAnswer, type ApiFailure } from "../../domain/api-failure.ts";

/** The one place an HTTP outcome becomes the spec §8 failure kinds. */
export async function toFailure(error: unknown): Promise<ApiFailure> {
  if (error instanceof HTTPError) {
    return failureOfAnswer(error.response.status, await bodyOf(error.response.clone()), error.message);
  }
  if (error instanceof TimeoutError) return { kind: "network", status: null, message: "The request timed out.", code: null };
  // fetch rejects with a TypeError when there is no network at all.
  if (error instanceof TypeError) return { kind: "network", status: null, message: error.message, code: null };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "other", status: null, message, code: null };
}

/** The answer's JSON body, or null for a proxy's HTML error page (the status alone decides then). */
async function bodyOf(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}
