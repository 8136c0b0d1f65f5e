import type { ApiFailure } from "./api-failure.ts";
import type { Status } from "./contract/entities.ts";
import { fill, TEXT } from "./texts.ts";

/** Spec §8 "Verify" rows: a 500 names the order, no response asks for internet, anything else is generic. */
export function verifyFailureText(failure: ApiFailure, orderId: number): string {
  switch (failure.kind) {
    case "server":
      return fill(TEXT.verifyServerError, { id: orderId });
    case "network":
      return TEXT.verifyNoInternet;
    default:
      return TEXT.serverError;
  }
}

/** The day's status of that name (the ids a status change sends), or null. */
export function statusNamed(statuses: Status[] | null, name: string | null): Status | null {
  return statuses?.find((status) => status.name === name) ?? null;
}
