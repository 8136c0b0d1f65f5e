import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * Couriers' calls first (issue 25, "Import at the speed of a pharmacy's
 * nightly file"). An orders batch is background work: a pharmacy's nightly
 * file can take a second longer, a courier on a doorstep cannot. The batch's
 * own CPU work (checking and building 1000 rows, ~70 ms of this thread per
 * batch) is cut into small pieces; between two pieces, while this server is
 * answering any other call, the batch waits for those calls to end — at most
 * BACKGROUND_WAIT_MS, so a busy day slows an import but never stops it. The
 * transaction's writes are not held back: they run as fast as they can.
 *
 * A route opts in with `config: { background: true }`; every other call
 * counts as interactive from its first hook until its answer is sent.
 */

/** The longest a piece of background work waits for other calls before it goes anyway. */
export const BACKGROUND_WAIT_MS = 10;

let answering = 0;
let waiting: (() => void)[] = [];

declare module "fastify" {
  interface FastifyContextConfig {
    /** Work that gives way to other calls (backgroundTurn). */
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
  if (answering === 0 && waiting.length) for (const resume of waiting.splice(0)) resume();
};

export function installInteractiveFirst(app: FastifyInstance): void {
  app.decorateRequest("interactive", false);
  app.addHook("onRequest", async (request) => {
    if (request.routeOptions.config?.background) return;
    request.interactive = true;
    answering++;
  });
  app.addHook("onResponse", ended);
  app.addHook("onRequestAbort", ended);
}

/**
 * A turn of the event loop for background work; then, if other calls are
 * being answered, a wait until none is (at most BACKGROUND_WAIT_MS).
 */
export async function backgroundTurn(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (answering === 0) return;
  await new Promise<void>((resolve) => {
    const resume = () => {
      clearTimeout(timer);
      waiting = waiting.filter((other) => other !== resume);
      resolve();
    };
    const timer = setTimeout(resume, BACKGROUND_WAIT_MS);
    waiting.push(resume);
  });
}
