import { describe, expect, it } from "vitest";
import { HttpError } from "../../../server/http/errors.ts";
import { RenderPool } from "../../../server/ops/services/proof/render-pool.ts";
import type { RenderJob } from "../../../server/ops/services/proof/render-jobs.ts";

/** Issue 24: a render pool whose workers cannot start still answers every render, in words — never a hung request. */

const JOB: RenderJob = {
  kind: "manifest",
  manifest: {
    id: 1,
    pharmacy: { id: 1, name: "Pool Test Pharmacy" },
    courier: { id: 1, first_name: "Dana", last_name: "Whitfield" },
    staff_first_name: "Priya",
    staff_last_name: "Raman",
    signed_at: "2026-11-21T15:00:00.000Z",
    items: [],
    cash: [],
    checks: [],
    cash_total: "0.00",
    check_total: "0.00",
    latitude: null,
    longitude: null,
    orders: [],
    document_id: "RET-1-000000000000",
    generated_at: "2026-11-21T15:05:00.000Z",
    time_zone: "America/New_York",
  } as unknown as Extract<RenderJob, { kind: "manifest" }>["manifest"],
  options: { timeZone: "America/New_York", signatureSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0L5 5"/></svg>' },
};

async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe("the render pool when its workers cannot start", { timeout: 60_000 }, () => {
  it("answers 500 in words when the worker's code cannot load", async () => {
    const pool = new RenderPool({ entry: new URL("../../support/no-such-render-worker.ts", import.meta.url), timeoutMs: 30_000 });
    try {
      const error = await refusal(Promise.all([pool.render(JOB), pool.render(JOB)]));
      expect([error.statusCode, error.code, error.message]).toEqual([500, "render_failed", "The PDF could not be drawn. The JSON record has the same content."]);
    } finally {
      await pool.close();
    }
  });

  it("answers 503 in words when the worker never gets ready within the time bound", async () => {
    const pool = new RenderPool({ entry: new URL("../../support/stuck-render-worker.ts", import.meta.url), startTimeoutMs: 1_500 });
    try {
      const error = await refusal(pool.render(JOB));
      expect([error.statusCode, error.code]).toEqual([503, "render_timeout"]);
      expect(error.message).toBe("The PDF took longer than 1.5 seconds to draw and was stopped. Try again; the JSON record has the same content.");
    } finally {
      await pool.close();
    }
  });

  it("draws with the real worker, and answers 503 once closed", async () => {
    const pool = new RenderPool();
    const pdf = await pool.render(JOB);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    await pool.close();
    expect((await refusal(pool.render(JOB))).code).toBe("render_closed");
  });
});
