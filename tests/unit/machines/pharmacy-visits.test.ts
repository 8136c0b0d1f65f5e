import { describe, expect, it } from "vitest";
import type { AnyMachineSnapshot } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import {
  pharmacyVisitsMachine,
  type PharmacyVisitsEvent,
  type PharmacyVisitsInput,
  type VisitAnswer,
} from "../../../machines/pharmacy-visits.machine.ts";
import { transitionCoverPaths } from "../../support/model-coverage.ts";
import { makePharmacy, makeVisit } from "../../support/order-fixtures.ts";
import { expectFullCoverageAcross, pathName, possibleEvents, pathOfEvents, replayPath } from "../../support/replay-paths.ts";

const ACTORS = ["confirmVisits"] as const;
const SERVER: ApiFailure = { kind: "server", status: 500, message: "", code: null };

const VISITS = [
  makeVisit({ id: 11, pharmacy: makePharmacy({ id: 1 }), confirmed: true }),
  makeVisit({ id: 12, pharmacy: makePharmacy({ id: 2 }), confirmed: null }),
  makeVisit({ id: 13, pharmacy: makePharmacy({ id: 3 }), confirmed: null }),
  makeVisit({ id: 14, pharmacy: makePharmacy({ id: 4 }), confirmed: false }),
];

const EVENTS: PharmacyVisitsEvent[] | Record<string, unknown>[] = [
  { type: "ANSWER", visitId: 12, confirmed: true },
  { type: "ANSWER", visitId: 12, confirmed: false },
  { type: "ANSWER", visitId: 13, confirmed: true },
  { type: "ANSWER", visitId: 11, confirmed: false },
  { type: "SUBMIT" },
  { type: "xstate.done.actor.confirmVisits", output: { pharmacy_visits: [] } },
  { type: "xstate.error.actor.confirmVisits", error: SERVER },
];

const SCENARIOS: { name: string; input: PharmacyVisitsInput }[] = [
  { name: "two pending", input: { courierId: 1, visits: VISITS } },
  { name: "none pending", input: { courierId: 1, visits: [VISITS[0]!, VISITS[3]!] } },
];

const serializeState = (snapshot: AnyMachineSnapshot) => {
  const { answers, confirmed, error } = snapshot.context as { answers: VisitAnswer[]; confirmed: unknown[]; error: string | null };
  return JSON.stringify([snapshot.value, snapshot.status, answers, confirmed.length, error]);
};

const pathsOf = (input: PharmacyVisitsInput) =>
  transitionCoverPaths(pharmacyVisitsMachine, { events: possibleEvents(EVENTS), input, serializeState });

describe("pharmacy-visits machine", () => {
  for (const { name, input } of SCENARIOS) {
    it.each(pathsOf(input).map((path) => [pathName(path), path] as const))(`${name}: %s`, async (_title, path) => {
      const { snapshot } = await replayPath(pharmacyVisitsMachine, ACTORS, input, path);
      expect(snapshot.value).toEqual(path.state.value);
      expect(snapshot.context).toEqual(path.state.context);
      expect(snapshot.status).toBe(path.state.status);
    });
  }

  it("covers every state and transition", () => {
    expectFullCoverageAcross(
      pharmacyVisitsMachine,
      SCENARIOS.map(({ input }) => ({ input, paths: pathsOf(input) })),
    );
  });
});

const by = (events: Record<string, unknown>[]) => pathOfEvents(events);

describe("pharmacy-visits behaviour (spec §2, §8)", () => {
  const input = SCENARIOS[0]!.input;

  it("lists only the pending visits and asks each one", async () => {
    const { snapshot } = await replayPath(pharmacyVisitsMachine, ACTORS, input, by([]));
    expect(snapshot.context.pending.map((v: { id: number }) => v.id)).toEqual([12, 13]);
    expect(snapshot.can({ type: "SUBMIT" })).toBe(false);
    expect(snapshot.can({ type: "ANSWER", visitId: 11, confirmed: false })).toBe(false);
  });

  it("submits every answer, the last one per visit, and ends with the visits confirmed or declined", async () => {
    const { snapshot, calls } = await replayPath(pharmacyVisitsMachine, ACTORS, input, by([
      { type: "ANSWER", visitId: 13, confirmed: true },
      { type: "ANSWER", visitId: 12, confirmed: true },
      { type: "ANSWER", visitId: 12, confirmed: false },
      { type: "SUBMIT" },
      { type: "xstate.done.actor.confirmVisits", output: {} },
    ]));
    expect(calls).toEqual([
      { actor: "confirmVisits", input: { courierId: 1, pharmacy_visits: [{ id: 12, confirmed: false }, { id: 13, confirmed: true }] } },
    ]);
    expect(snapshot.status).toBe("done");
    expect(snapshot.output.visits.map((v: { id: number; confirmed: boolean | null }) => [v.id, v.confirmed])).toEqual([
      [12, false],
      [13, true],
    ]);
  });

  it("a failed submit shows the exact text with the provider and disables submit", async () => {
    const { snapshot } = await replayPath(pharmacyVisitsMachine, ACTORS, input, by([
      { type: "ANSWER", visitId: 12, confirmed: true },
      { type: "ANSWER", visitId: 13, confirmed: true },
      { type: "SUBMIT" },
      { type: "xstate.error.actor.confirmVisits", error: SERVER },
    ]));
    expect(snapshot.value).toBe("failed");
    expect(snapshot.context.error).toBe(
      "There was a technical error upon submit, please contact Rx Courier support by pressing the HELP button to confirm your availability",
    );
    expect(snapshot.can({ type: "SUBMIT" })).toBe(false);
  });

  it("with nothing pending it is done at once", async () => {
    const { snapshot, calls } = await replayPath(pharmacyVisitsMachine, ACTORS, SCENARIOS[1]!.input, by([]));
    expect(snapshot.status).toBe("done");
    expect(calls).toEqual([]);
  });
});
