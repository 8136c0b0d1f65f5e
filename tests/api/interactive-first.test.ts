import Fastify from "fastify";
import { afterEach, expect, it, vi } from "vitest";
import { BACKGROUND_WAIT_MS, backgroundTurn, GIVE_WAY_BUDGET_MS, installInteractiveFirst } from "../../server/http/interactive-first.ts";

/**
 * Issue 25: an orders batch's CPU work gives way to the other calls the
 * server is answering (server/http/interactive-first.ts): between two slices
 * it waits while one is in flight, resumes as soon as none is, and never
 * waits longer than BACKGROUND_WAIT_MS; a background route does not count.
 * Background calls run one at a time, and give way only within their budget.
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
const order: string[] = [];
let releaseHeld: () => void = () => {};
app.post("/held", { config: { background: true } }, async (request) => {
  const { name } = request.body as { name: string };
  order.push(`start ${name}`);
  if (name === "first") await new Promise<void>((resolve) => (releaseHeld = resolve));
  order.push(`end ${name}`);
  return { ok: true };
});
app.post("/many-turns", { config: { background: true } }, async () => {
  const started = performance.now();
  for (let i = 0; i < 150; i++) await backgroundTurn();
  return { took: performance.now() - started };
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

it("runs one background call at a time: the next one's body waits until the one before has answered", async () => {
  order.length = 0;
  const first = app.inject({ method: "POST", url: "/held", payload: { name: "first" } });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const second = app.inject({ method: "POST", url: "/held", payload: { name: "second" } });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(order).toEqual(["start first"]);
  releaseHeld();
  expect((await first).statusCode).toBe(200);
  expect((await second).statusCode).toBe(200);
  expect(order).toEqual(["start first", "end first", "start second", "end second"]);
});

it("gives way only within its budget: a call in flight all along slows a background call by about GIVE_WAY_BUDGET_MS, not by a wait at every turn", async () => {
  const slow = app.inject({ method: "GET", url: "/slow" });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const answer = await app.inject({ method: "POST", url: "/many-turns", payload: {} });
  const { took } = answer.json<{ took: number }>();
  // 150 turns waiting BACKGROUND_WAIT_MS each would be 1.5 s; the budget stops the waits after ~300 ms.
  expect(took).toBeGreaterThanOrEqual(GIVE_WAY_BUDGET_MS - 2 * BACKGROUND_WAIT_MS);
  expect(took).toBeLessThan(150 * BACKGROUND_WAIT_MS * 0.6);
  release();
  await slow;
});
