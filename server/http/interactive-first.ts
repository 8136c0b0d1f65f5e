import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * Couriers' calls first (issue 25, "Import at the speed of a pharmacy's
 * nightly file"; decision 0027). An orders batch is background work: a
 * pharmacy's nightly file can take a second longer, a courier on a doorstep
 * cannot. Three rules, all per process:
 *
 * - **One background call at a time.** A route marked `config: { background:
 *   true }` (orders/batch) waits for the one before it to end before its body
 *   is even parsed, so two importers never double the share below.
 * - **Give way to calls in flight.** At every turn (between slices of the
 *   batch's CPU work, between its statements, before its body is parsed),
 *   while the server is answering any other call, the batch waits for those
 *   calls to end — at most BACKGROUND_WAIT_MS a turn.
 * - **A bounded share while couriers are calling.** While other calls have
 *   come in within the last ACTIVE_WINDOW_MS, each turn also rests in
 *   proportion to the work done since the last one, so the batch (its CPU
 *   here and the statements it has PostgreSQL run) takes at most about
 *   BACKGROUND_SHARE of the time — the rest of both cores stays with the
 *   couriers' calls. At most MAX_REST_MS per turn. A batch takes no turn
 *   inside its transaction (the rows' locks are held briefly) but one right
 *   after the commit, so PostgreSQL's work for the writes counts too.
 * - **A budget.** A background call rests and waits only until it has taken
 *   GIVE_WAY_BUDGET_MS; after that its turns are the event loop's alone. A
 *   1000-row batch so takes at most its own time plus 300 ms (≥ ~2,000
 *   orders/s on a quiet machine, the goal being 1,000): a busy day slows an
 *   import, never stops it. Alone, an import rests and waits not at all.
 *
 * Every other call counts as interactive from its first hook until its
 * answer is sent.
 */

/** The longest a turn waits for other calls in flight before it goes anyway. */
export const BACKGROUND_WAIT_MS = 10;
/** While couriers are calling, the share of the time background work takes (the rest of each turn is a rest). */
export const BACKGROUND_SHARE = 0.25;
/** Couriers count as calling for this long after a call of theirs began or ended. */
export const ACTIVE_WINDOW_MS = 500;
/** The longest rest of one turn. */
export const MAX_REST_MS = 60;
/** A background call gives way (rests and waits) only until it has taken this long, its work, rests and waits together. */
export const GIVE_WAY_BUDGET_MS = 300;

let answering = 0;
let lastInteractive = Number.NEGATIVE_INFINITY;
let waiting: (() => void)[] = [];
/** When the background work running now last resumed (null: none is running). */
let workingSince: number | null = null;
/** When the background call running now entered the lane. */
let laneSince = 0;
/** The background calls waiting for theirs to begin, in order; the first is running. */
const lane: (() => void)[] = [];
let laneBusy = false;

declare module "fastify" {
  interface FastifyContextConfig {
    /** Work that gives way to other calls (backgroundTurn), one such call at a time. */
    background?: boolean;
  }
  interface FastifyRequest {
    /** Counted among the calls being answered; uncounted once, when it ends. */
    interactive: boolean;
  }
}

const ended = async (request: FastifyRequest) => {
  if (!request.interactive) return;
  request.interactive = false;
  answering--;
  lastInteractive = performance.now();
  if (answering === 0 && waiting.length) for (const resume of waiting.splice(0)) resume();
};

async function enterLane(): Promise<void> {
  // The lane is handed from one call to the next (leaveLane): it stays busy in between.
  if (laneBusy) await new Promise<void>((resolve) => lane.push(resolve));
  else laneBusy = true;
  laneSince = performance.now();
}

function leaveLane(): void {
  workingSince = null;
  const next = lane.shift();
  if (next) next();
  else laneBusy = false;
}

export function installInteractiveFirst(app: FastifyInstance): void {
  app.decorateRequest("interactive", false);
  app.addHook("onRequest", async (request) => {
    if (request.routeOptions.config?.background) return;
    request.interactive = true;
    answering++;
    lastInteractive = performance.now();
  });
  // Before the body is read and parsed (a 1000-row batch is ~1 MB of JSON): the lane, then a turn.
  app.addHook("preParsing", async (request, reply) => {
    if (!request.routeOptions.config?.background) return;
    await enterLane();
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      leaveLane();
    };
    // Released when the answer has gone or the connection ended, whichever way the call ends (even while it waited here).
    if (reply.raw.closed || request.raw.socket?.destroyed) return release();
    reply.raw.once("close", release);
    await backgroundTurn();
  });
  app.addHook("onResponse", ended);
  app.addHook("onRequestAbort", ended);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A turn for background work: the event loop's, then — while couriers are
 * calling — a rest in proportion to the work since the last turn, and a wait
 * while other calls are in flight (at most BACKGROUND_WAIT_MS), both only
 * within the call's GIVE_WAY_BUDGET_MS.
 */
export async function backgroundTurn(): Promise<void> {
  const now = performance.now();
  const worked = workingSince === null ? 0 : now - workingSince;
  await new Promise<void>((resolve) => setImmediate(resolve));
  // Outside a background call (laneBusy false) there is no budget to keep to.
  const budget = laneBusy ? GIVE_WAY_BUDGET_MS - (now - laneSince) : BACKGROUND_WAIT_MS;
  if (budget >= 1 && (answering > 0 || now - lastInteractive < ACTIVE_WINDOW_MS)) {
    const rest = Math.min(MAX_REST_MS, budget, (worked * (1 - BACKGROUND_SHARE)) / BACKGROUND_SHARE);
    if (rest >= 1) await sleep(rest);
    if (answering > 0) await callsAnswered(Math.min(BACKGROUND_WAIT_MS, Math.max(1, budget - rest)));
  }
  // Work is timed within a background call only (between two calls the lane is idle).
  workingSince = laneBusy ? performance.now() : null;
}

function callsAnswered(atMostMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const resume = () => {
      clearTimeout(timer);
      waiting = waiting.filter((other) => other !== resume);
      resolve();
    };
    const timer = setTimeout(resume, atMostMs);
    waiting.push(resume);
  });
}
