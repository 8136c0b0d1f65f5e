import { OPS_API_PREFIX } from "../../domain/contract/ops.ts";
import type { ErrorBody } from "../../domain/contract/common.ts";

/** A refusal of the operations API, with its status and body ({error, message, details?}). */
export class OpsApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Partial<ErrorBody> | null,
  ) {
    const details = body?.details?.map((detail) => `  ${detail.path}: ${detail.message}`).join("\n");
    super(`${status} ${body?.error ?? "error"}: ${body?.message ?? "the server gave no reason"}${details ? `\n${details}` : ""}`);
    this.name = "OpsApiError";
  }
}

export interface OpsClientOptions {
  /** RXC_URL: where the server is, e.g. https://rx.example.com */
  baseUrl: string;
  /** RXC_KEY: an ops API key (dispatch, or a pharmacy's for its own orders). */
  key: string;
  /** Each call's limit: a batch of 1000 orders is written in one transaction, so it is generous. */
  timeoutMs?: number;
}

export type OpsClient = <T>(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, body?: unknown) => Promise<T>;

/** Calls /api/ops/v1/<path> with the bearer key: the same HTTP API any dispatch script uses. */
export function opsClient({ baseUrl, key, timeoutMs = 120_000 }: OpsClientOptions): OpsClient {
  const root = `${baseUrl.replace(/\/+$/, "")}${OPS_API_PREFIX}/`;
  return async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(root + path.replace(/^\/+/, ""), {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not the API (a proxy's error page, a wrong RXC_URL): its first words say what answered.
      parsed = { error: "not_json", message: text.slice(0, 200) };
    }
    if (!response.ok) throw new OpsApiError(response.status, parsed as Partial<ErrorBody> | null);
    return parsed as T;
  };
}

/** RXC_URL and RXC_KEY from the environment, or a sentence saying which is missing. */
export function clientFromEnv(env: NodeJS.ProcessEnv = process.env): OpsClient {
  const baseUrl = env.RXC_URL?.trim();
  const key = env.RXC_KEY?.trim();
  const missing = [!baseUrl && "RXC_URL (the server, e.g. http://127.0.0.1:3000)", !key && "RXC_KEY (an ops API key)"].filter(Boolean);
  if (missing.length) throw new UsageError(`Set ${missing.join(" and ")} in the environment.`);
  try {
    new URL(baseUrl!);
  } catch {
    throw new UsageError(`RXC_URL is not a URL: ${baseUrl}`);
  }
  return opsClient({ baseUrl: baseUrl!, key: key! });
}

/** A mistake in how the CLI was called: said in one line, exit status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
