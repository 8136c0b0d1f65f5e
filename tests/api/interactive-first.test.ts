import Fastify from "fastify";
import { afterEach, expect, it, vi } from "vitest";
import { BACKGROUND_WAIT_MS, backgroundTurn, installInteractiveFirst } from "../../server/http/interactive-first.ts";

/**
 * Issue 25: an orders batch's CPU work gives way to the other calls the
 * server is answering (server/http/interactive-first.ts): between two slices
 * it waits while one is in flight, resumes as soon as none is, and never
 * waits longer than BACKGROUND_WAIT_MS; a background route does not count.
 */

let release: () => void = () => {};
const app = Fastify();
installInteractiveFirst(app);
app.get("/slow", async () => {
  await new Promise<void>((resolve) => (release = resolve));
  return { ok: true };
});
app.get("/background", { config: { background: true } }, async () => {
  const started = performance.now();
  await backgroundTurn();
  return { waited: performance.now() - started };
});

afterEach(() => {
  vi.useRealTimers();
  release();
});

async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

it("goes on at once when no other call is being answered, and a background call does not count itself", async () => {
  expect(await timed(backgroundTurn)).toBeLessThan(BACKGROUND_WAIT_MS);
  const answer = await app.inject({ method: "GET", url: "/background" });
  expect(answer.json<{ waited: number }>().waited).toBeLessThan(BACKGROUND_WAIT_MS);
});

it("waits while another call is in flight and resumes when it ends", async () => {
  const slow = app.inject({ method: "GET", url: "/slow" });
  await new Promise((resolve) => setTimeout(resolve, 20));
  // The cap's timer does not run out by itself here: whatever the machine's load, only the end of the call resumes the turn.
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  let resumed = false;
  const turn = backgroundTurn().then(() => (resumed = true));
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  expect(resumed).toBe(false);
  vi.useRealTimers();
  release();
  await slow;
  await turn;
  expect(resumed).toBe(true);
});

it("goes on after BACKGROUND_WAIT_MS, however long the other call takes", async () => {
  const slow = app.inject({ method: "GET", url: "/slow" });
  await new Promise((resolve) => setTimeout(resolve, 20));
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  let resumed = false;
  const turn = backgroundTurn().then(() => (resumed = true));
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  vi.advanceTimersByTime(BACKGROUND_WAIT_MS - 1);
  await Promise.resolve();
  expect(resumed).toBe(false);
  vi.advanceTimersByTime(1);
  await turn;
  expect(resumed).toBe(true);
  vi.useRealTimers();
  release();
  await slow;
});
