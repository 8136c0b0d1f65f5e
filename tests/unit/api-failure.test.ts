import ky, { HTTPError, TimeoutError } from "ky";
import { describe, expect, it } from "vitest";
import { failureText, toApiFailure } from "../../domain/api-failure.ts";
import { TEXT } from "../../domain/texts.ts";
import { toFailure } from "../../src/api/failure.ts";

/** The error ky itself throws for this answer (with the options as ky normalises them). */
async function httpError(status: number, body?: unknown): Promise<HTTPError> {
  const answer = new Response(body === undefined ? "<html>proxy</html>" : JSON.stringify(body), { status });
  const error: unknown = await ky.get("http://localhost/api/x", { fetch: async () => answer, retry: 0 }).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof HTTPError)) throw new Error(`ky did not answer HTTP ${status} with an HTTPError`);
  return error;
}

describe("the API client maps every HTTP outcome to the spec §8 catalogue", () => {
  it.each([
    [403, "forbidden", TEXT.authorizationError],
    [500, "server", TEXT.serverError],
    [502, "server", TEXT.serverError],
    [503, "unavailable", TEXT.noInternet],
  ])("HTTP %i → %s → its alert", async (status, kind, text) => {
    const failure = await toFailure(await httpError(status, { error: "x", message: "server words" }));
    expect(failure.kind).toBe(kind);
    expect(failure.status).toBe(status);
    expect(failureText(failure)).toBe(text);
  });

  it("a refusal keeps the server's own words and code", async () => {
    const failure = await toFailure(await httpError(409, { error: "conflict", message: "Order 3 is delivered and cannot be cancelled." }));
    expect(failure).toMatchObject({ kind: "refused", status: 409, code: "conflict" });
    expect(failureText(failure)).toBe("Order 3 is delivered and cannot be cancelled.");
  });

  it("a 401 means the session is gone", async () => {
    expect((await toFailure(await httpError(401, { error: "unauthenticated", message: "Please log in." }))).kind).toBe("unauthenticated");
  });

  it("a non-JSON error page is still classified by status", async () => {
    expect((await toFailure(await httpError(500))).kind).toBe("server");
  });

  it("no network at all (fetch TypeError) and time-outs are network failures", async () => {
    const offline = await toFailure(new TypeError("Failed to fetch"));
    expect(offline.kind).toBe("network");
    expect(failureText(offline)).toBe(TEXT.noInternet);
    const timeout = await toFailure(new TimeoutError(new Request("http://localhost/api/x")));
    expect(timeout.kind).toBe("network");
  });

  it("any other error without a response reads 'Error: {message}. Please refresh and try again.'", async () => {
    const failure = await toFailure(new Error("boom"));
    expect(failureText(failure)).toBe("Error: boom. Please refresh and try again.");
    expect(failureText(toApiFailure("plain"))).toBe("Error: plain. Please refresh and try again.");
  });

  it("a thrown error where only the network can have failed (a chunk or a fetch that never arrived) is 'No internet'", () => {
    expect(failureText(toApiFailure(new TypeError("Failed to fetch dynamically imported module"), "network"))).toBe(TEXT.noInternet);
    const refusal = { kind: "unauthenticated", status: 401, message: "x", code: null } as const;
    expect(toApiFailure(refusal, "network")).toBe(refusal);
  });

  it("ky really throws the errors mapped above", async () => {
    const fetchStub = (async () => new Response(JSON.stringify({ error: "internal", message: "x" }), { status: 500 })) as typeof fetch;
    const error = await ky.get("http://localhost/api/x", { fetch: fetchStub, retry: 0 }).catch((e: unknown) => e);
    expect((await toFailure(error)).kind).toBe("server");
  });
});
