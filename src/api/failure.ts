import { HTTPError, TimeoutError } from "ky";
import { failureOfResponse, toApiFailure, type ApiFailure } from "../../domain/api-failure.ts";

/** The one place an HTTP outcome becomes the spec §8 failure kinds. */
export async function toFailure(error: unknown): Promise<ApiFailure> {
  if (error instanceof HTTPError) {
    return failureOfResponse(error.response.clone(), error.message);
  }
  if (error instanceof TimeoutError) return { kind: "network", status: null, message: "The request timed out.", code: null };
  // fetch rejects with a TypeError when there is no network at all.
  return toApiFailure(error, error instanceof TypeError ? "network" : "other");
}
