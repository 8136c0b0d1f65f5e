import { HTTPError, TimeoutError } from "ky";
import type { ApiFailure } from "../../domain/api-failure.ts";

/** The one place an HTTP outcome becomes the spec §8 failure kinds. */
export async function toFailure(error: unknown): Promise<ApiFailure> {
  if (error instanceof HTTPError) {
    const status = error.response.status;
    let body: { error?: string; message?: string } = {};
    try {
      body = (await error.response.clone().json()) as typeof body;
    } catch {
      // A proxy's HTML error page: the status alone decides.
    }
    const message = typeof body.message === "string" ? body.message : error.message;
    const code = typeof body.error === "string" ? body.error : null;
    if (status === 503) return { kind: "unavailable", status, message, code };
    if (status >= 500) return { kind: "server", status, message, code };
    if (status === 403) return { kind: "forbidden", status, message, code };
    if (status === 401) return { kind: "unauthenticated", status, message, code };
    return { kind: "refused", status, message, code };
  }
  if (error instanceof TimeoutError) return { kind: "network", status: null, message: "The request timed out.", code: null };
  // fetch rejects with a TypeError when there is no network at all.
  if (error instanceof TypeError) return { kind: "network", status: null, message: error.message, code: null };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "other", status: null, message, code: null };
}
