import { API_MEDIA_TYPE } from "../../../domain/api-version.ts";

/** A logged-in courier, as the benchmarks drive the API over HTTP. */
export interface Courier {
  id: number;
  email: string;
  /** "rxc_session=…", for a Cookie header. */
  cookie: string;
  csrfToken: string;
}

export const DEMO_PASSWORD = "deliver-safely";

/** A login refused as busy (503: password hashing is bounded) is tried again after its Retry-After, as the app does. */
const LOGIN_TRIES = 10;

export async function logIn(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<Courier> {
  let response: Response;
  for (let tries = 1; ; tries++) {
    response = await fetch(`${baseUrl}/api/sessions`, {
      method: "POST",
      headers: { accept: API_MEDIA_TYPE, "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    if (response.status !== 503 || tries === LOGIN_TRIES) break;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get("retry-after") ?? 1) * 1000));
  }
  if (!response.ok) throw new Error(`login ${email}: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { courier: { id: number }; csrf_token: string };
  const cookie = response.headers.getSetCookie().map((line) => line.split(";")[0]!).find((pair) => pair.startsWith("rxc_session="));
  if (!cookie) throw new Error(`login ${email}: no session cookie`);
  return { id: body.courier.id, email, cookie, csrfToken: body.csrf_token };
}

export async function apiCall<T>(baseUrl: string, courier: Courier, method: string, url: string, json?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      accept: API_MEDIA_TYPE,
      cookie: courier.cookie,
      ...(method === "GET" ? {} : { "x-csrf-token": courier.csrfToken }),
      ...(json === undefined ? {} : { "content-type": "application/json" }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}
