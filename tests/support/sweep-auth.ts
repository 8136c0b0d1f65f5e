import type { ApiContext } from "./api-harness.ts";

/**
 * How the hostile sweep authenticates, by path prefix (the first match wins).
 * A new API family adds one line here, never a case per endpoint.
 */
export interface SweepAuth {
  prefix: string;
  /** Headers that make a request from this family authenticated. */
  headers(api: ApiContext): Promise<Record<string, string>>;
}

/** The dispatch key the sweep's server starts with (OPS_API_KEY): it may call every operations endpoint. */
export const SWEEP_OPS_API_KEY = "sweep-dispatch-key-0123456789abcdef0123456789";

/** The operations API (/api/ops/v1): Bearer keys, no cookie, no CSRF token. */
async function opsApiBearerHeaders(_api: ApiContext): Promise<Record<string, string>> {
  return { authorization: `Bearer ${SWEEP_OPS_API_KEY}` };
}

const courierLogins = new WeakMap<ApiContext, Promise<Record<string, string>>>();

/** The courier app's calls: the session cookie and its CSRF token (one login per app). */
function courierHeaders(api: ApiContext): Promise<Record<string, string>> {
  let headers = courierLogins.get(api);
  if (!headers) {
    headers = api.login().then((client) => ({ cookie: client.cookie, "x-csrf-token": client.csrfToken }));
    courierLogins.set(api, headers);
  }
  return headers;
}

export const SWEEP_AUTH: SweepAuth[] = [
  { prefix: "/api/ops/v1/", headers: opsApiBearerHeaders },
  { prefix: "/api/", headers: courierHeaders },
];

export function sweepAuthFor(path: string): SweepAuth | undefined {
  return SWEEP_AUTH.find((auth) => path.startsWith(auth.prefix));
}
