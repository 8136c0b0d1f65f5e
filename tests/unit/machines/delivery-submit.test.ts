import { describe, expect, it } from "vitest";
import type { AnyMachineSnapshot } from "xstate";
import { TEXT } from "../../../domain/texts.ts";
import { deliverySubmitMachine, type DeliverySubmission, type DeliverySubmitContext } from "../../../machines/delivery-submit.machine.ts";
import { DONE, QUEUED, REFUSED, SERVER } from "../../support/delivery-flow-events.ts";
import { transitionCoverPaths } from "../../support/model-coverage.ts";
import { expectFullCoverageAcross, pathName, possibleEvents, pathOfEvents, replayPath } from "../../support/replay-paths.ts";

const ACTORS = ["send"] as const;
const FAILURE: DeliverySubmission = {
  kind: "failure",
  body: { failure_reason: "Incorrect Address", client_occurred_at: "2026-11-21T15:30:00.000Z", order_ids: [70] },
};

const E = {
  sent: { type: "xstate.done.actor.send", output: DONE },
  queued: { type: "xstate.done.actor.send", output: QUEUED },
  refused: { type: "xstate.error.actor.send", error: REFUSED },
  serverError: { type: "xstate.error.actor.send", error: SERVER },
  retry: { type: "RETRY" },
  cancel: { type: "CANCEL" },
} as const;

const serializeState = (snapshot: AnyMachineSnapshot) => {
  const { error, queued, sent } = snapshot.context as DeliverySubmitContext;
  return JSON.stringify([snapshot.value, snapshot.status, error, queued, sent]);
};

const paths = transitionCoverPaths(deliverySubmitMachine, { events: possibleEvents(Object.values(E)), input: FAILURE, serializeState });

describe("delivery submit machine (model-based)", () => {
  it.each(paths.map((path) => [pathName(path), path] as const))("%s", async (_title, path) => {
    const { snapshot } = await replayPath(deliverySubmitMachine, ACTORS, FAILURE, path);
    expect(snapshot.value).toEqual(path.state.value);
    expect(snapshot.context).toEqual(path.state.context);
    expect(snapshot.status).toBe(path.state.status);
  });

  it("covers every state and transition", () => {
    expectFullCoverageAcross(deliverySubmitMachine, [{ input: FAILURE, paths }]);
  });
});

const path = pathOfEvents;
const run = (events: readonly object[]) => replayPath(deliverySubmitMachine, ACTORS, FAILURE, path(events));

describe("delivery submit behaviour", () => {
  it("sends the call as the flow made it and answers sent", async () => {
    const { snapshot, calls } = await run([E.sent]);
    expect(calls).toEqual([{ actor: "send", input: FAILURE }]);
    expect(snapshot.output).toEqual({ sent: true, queued: false });
  });

  it("a call kept on the device for the offline queue counts as sent, and says it is queued", async () => {
    const { snapshot } = await run([E.queued]);
    expect(snapshot.output).toEqual({ sent: true, queued: true });
  });

  it("a refused call shows the server's words; Try again sends the same call and clears the alert", async () => {
    const failed = await run([E.refused]);
    expect(failed.snapshot.value).toBe("failed");
    expect(failed.snapshot.context.error).toBe(REFUSED.message);
    const retried = await run([E.refused, E.retry, E.sent]);
    expect(retried.calls.map((call) => call.input)).toEqual([FAILURE, FAILURE]);
    expect(retried.snapshot.output).toEqual({ sent: true, queued: false });
  });

  it("a 500 says so in the spec's words; Cancel answers not sent", async () => {
    const failed = await run([E.serverError]);
    expect(failed.snapshot.context.error).toBe(TEXT.serverError);
    const cancelled = await run([E.serverError, E.cancel]);
    expect(cancelled.snapshot.status).toBe("done");
    expect(cancelled.snapshot.output).toEqual({ sent: false, queued: false });
  });
});
