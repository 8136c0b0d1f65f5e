import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * Load shedding (issue 14 finding 10): at most `concurrency` API calls are
 * served at once; more wait in line, and a call that cannot start within
 * `maxWaitMs` of reaching the server (or finds the line full) is answered at
 * once with 503 and Retry-After. The app's offline queue retries a 503, and a
 * refusal in a second is better for a courier than an answer in ten.
 *
 * The embedded database runs each query on this thread, so a call's database
 * work finishes without giving the event loop a turn. Started as soon as its
 * socket was read, each call would hold the loop while the other sockets'
 * calls sat unread in the kernel, a wait nobody can time or bound (the bench
 * saw 22 s). So a call first lets the loop finish reading every socket that
 * is ready (one setImmediate), with its arrival time taken, and is refused if
 * its turn comes too late: the loop itself is the line, and it is bounded.
 * (The embedded database also gives the loop a turn before every query, so
 * the loop keeps accepting and reading while calls run: server/db/turn-taking-pglite.ts.)
 */

export interface LoadSheddingOptions {
  concurrency: number;
  maxWaitMs: number;
  /** Calls allowed to wait at once; beyond it the refusal is immediate. */
  maxQueue: number;
}

export const BUSY_MESSAGE = "The server is busy. Please try again in a moment.";

declare module "fastify" {
  interface FastifyContextConfig {
    /** A long-lived stream (GET /api/ops/v1/events): it holds no slot, and has a cap of its own (issue 27). */
    streaming?: boolean;
  }
  interface FastifyRequest {
    /** Set once the call holds a serving slot; released once, when it ends. */
    servingSlot: boolean;
  }
}

export function installLoadShedding(app: FastifyInstance, options: LoadSheddingOptions): { stats(): { shed: number; served: number } } {
  let running = 0;
  let shed = 0;
  let served = 0;
  /** Each waiter takes the slot it is offered, or declines it (it waited too long) so it goes to the next. */
  const waiting: (() => boolean)[] = [];

  app.decorateRequest("servingSlot", false);

  const release = (request: FastifyRequest) => {
    if (!request.servingSlot) return;
    request.servingSlot = false;
    // The slot passes straight to the next in line that still wants it, so `running` never exceeds the bound.
    for (let next = waiting.shift(); next; next = waiting.shift()) if (next()) return;
    running--;
  };

  const refuse = (reply: FastifyReply) => {
    shed++;
    return reply.status(503).header("retry-after", "1").send({ error: "busy", message: BUSY_MESSAGE });
  };

  app.addHook("onRequest", async (request, reply) => {
    if (!request.url.startsWith("/api/") || request.url.startsWith("/api/health") || request.routeOptions.config?.streaming) return;
    const arrivedAt = performance.now();
    await new Promise<void>((resolve) => setImmediate(resolve));
    const waitedTooLong = () => performance.now() - arrivedAt > options.maxWaitMs;
    if (waitedTooLong()) return refuse(reply);
    if (running < options.concurrency) {
      running++;
    } else {
      const admitted =
        waiting.length < options.maxQueue &&
        (await new Promise<boolean>((resolve) => {
          // A busy thread can keep the timer below from firing until the line has cleared,
          // so the wait is also checked by the clock when the slot comes.
          const turn = () => {
            clearTimeout(timer);
            const inTime = !waitedTooLong();
            resolve(inTime);
            return inTime;
          };
          const timer = setTimeout(
            () => {
              const index = waiting.indexOf(turn);
              if (index !== -1) waiting.splice(index, 1);
              resolve(false);
            },
            Math.max(0, options.maxWaitMs - (performance.now() - arrivedAt)),
          );
          waiting.push(turn);
        }));
      if (!admitted) return refuse(reply);
    }
    request.servingSlot = true;
    served++;
  });
  app.addHook("onResponse", async (request) => release(request));
  app.addHook("onRequestAbort", async (request) => release(request));

  return { stats: () => ({ shed, served }) };
}
