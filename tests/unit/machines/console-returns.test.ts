import { describe, expect, it } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { ReturnManifest } from "../../../domain/contract/ops-proof.ts";
import { consoleReturnsMachine } from "../../../machines/console-returns.machine.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const MANIFEST = { id: 7, pharmacy: { id: 1, name: "Riverside Community Pharmacy" }, orders: [] } as unknown as ReturnManifest;
const PHARMACIES = [
  { id: 1, name: "Riverside Community Pharmacy" },
  { id: 2, name: "Market Street Apothecary" },
];
const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
const notFound: ApiFailure = { kind: "refused", status: 404, message: "Pharmacy 2 not found", code: "not_found" };

const EVENTS = [
  { type: "SET_SERVICE_DATE", serviceDate: "2026-11-26" },
  { type: "SET_SERVICE_DATE", serviceDate: "" },
  { type: "SELECT_PHARMACY", pharmacyId: 2 },
  { type: "SELECT_PHARMACY", pharmacyId: 9 },
  { type: "RETRY" },
  { type: "xstate.done.actor.loadPharmacies", output: PHARMACIES },
  { type: "xstate.done.actor.loadPharmacies", output: [] },
  { type: "xstate.error.actor.loadPharmacies", error: offline },
  { type: "xstate.done.actor.loadReturns", output: [MANIFEST] },
  { type: "xstate.done.actor.loadReturns", output: [] },
  { type: "xstate.error.actor.loadReturns", error: notFound },
];

const ACTORS = ["loadPharmacies", "loadReturns"] as const;
const DISPATCHER = { role: "dispatcher" as const, pharmacyId: null, serviceDate: "2026-11-27" };
const PHARMACIST = { role: "pharmacist" as const, pharmacyId: 1, serviceDate: "2026-11-27" };

function pathsFor(input: typeof DISPATCHER | typeof PHARMACIST) {
  return transitionCoverPaths(consoleReturnsMachine, {
    input,
    // A pharmacist's pharmacies are their own one.
    events: possibleEvents(input.role === "pharmacist" ? EVENTS.filter((e) => e.type !== "xstate.done.actor.loadPharmacies").concat([{ type: "xstate.done.actor.loadPharmacies", output: [PHARMACIES[0]!] }]) : EVENTS),
    serializeState: (s) =>
      JSON.stringify([s.value, s.context.serviceDate, s.context.pharmacyId, s.context.pharmacies.length, s.context.returns.length, s.context.failure?.kind ?? null, s.context.error !== null]),
  });
}

describe("console returns machine (issue 27)", () => {
  const paths = pathsFor(DISPATCHER);

  it.each(paths.map((path) => [pathName(path), path] as const))("replays a dispatcher's %s", async (_name, path) => {
    const { snapshot, calls } = await replayPath(consoleReturnsMachine, ACTORS, DISPATCHER, path);
    expect(snapshot.value).toEqual(path.state.value);
    expect(snapshot.context).toEqual(path.state.context);
    // Returns are only ever asked for a listed pharmacy and a real day.
    for (const call of calls.filter((c) => c.actor === "loadReturns")) {
      const input = call.input as { pharmacyId: number; serviceDate: string };
      expect([1, 2]).toContain(input.pharmacyId);
      expect(input.serviceDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it("covers every state and transition", () => expectFullCoverage(consoleReturnsMachine, paths, { input: DISPATCHER }));

  const pharmacistPaths = pathsFor(PHARMACIST);
  it.each(pharmacistPaths.map((path) => [pathName(path), path] as const))("replays a pharmacist's %s", async (_name, path) => {
    const { snapshot, calls } = await replayPath(consoleReturnsMachine, ACTORS, PHARMACIST, path);
    expect(snapshot.context).toEqual(path.state.context);
    // A pharmacist's pharmacy never changes: every call is for theirs.
    for (const call of calls.filter((c) => c.actor === "loadReturns")) expect((call.input as { pharmacyId: number }).pharmacyId).toBe(1);
    expect(snapshot.context.pharmacyId).toBe(1);
  });

  it("starts a dispatcher on the first pharmacy listed and says a failure in words", () => {
    const ready = paths.find((p) => p.state.matches("ready") && p.state.context.returns.length === 1);
    expect(ready?.state.context.pharmacyId).toBe(1);
    const failed = paths.find((p) => p.state.matches("failed") && p.state.context.failure?.status === 404);
    expect(failed?.state.context.error).toBe("This pharmacy's returns cannot be found.");
    const offlineFailure = paths.find((p) => p.state.matches("failed") && p.state.context.failure?.kind === "network");
    expect(offlineFailure?.state.context.error).toBe("The server cannot be reached. Check the connection, then choose 'Try again'.");
  });

  it("never lists returns without a pharmacy", () => {
    const none = paths.find((p) => p.state.matches("ready") && p.state.context.pharmacies.length === 0);
    expect(none?.state.context.pharmacyId).toBeNull();
    expect(none?.steps.some((s) => s.event.type === "xstate.done.actor.loadReturns")).toBe(false);
  });
});
