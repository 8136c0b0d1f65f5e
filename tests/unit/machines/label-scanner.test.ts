import { describe, expect, it } from "vitest";
import { createActor, fromCallback, type AnyMachineSnapshot, type EventObject } from "xstate";
import { SCAN_TEXT } from "../../../domain/label-scan.ts";
import { labelScannerMachine, type LabelScannerEvent, type LabelScannerInput } from "../../../machines/label-scanner.machine.ts";
import { transitionCoverPaths } from "../../support/model-coverage.ts";
import { testCamera } from "../../support/test-camera.ts";
import { makeOrder } from "../../support/order-fixtures.ts";
import { expectFullCoverageAcross, pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const ACTORS = ["camera"] as const;
const BAG = makeOrder({ id: 7, rx_numbers: ["RX-7001", "RX-7002"], external_id: "EXT-55" });
const ADDED = makeOrder({ id: 8, rx_numbers: ["RX-8001"], external_id: null });
/** The machine that scans (check-in, returns): it hears each LABEL_MATCHED. */
const matched: EventObject[] = [];
const SCREEN = createActor(fromCallback(({ receive }) => receive((event) => matched.push(event)))).start();
const INPUT: LabelScannerInput = { bags: [BAG], reportTo: SCREEN };

const EVENTS: LabelScannerEvent[] = [
  { type: "CAMERA_READY" },
  { type: "CAMERA_FAILED", problem: "denied" },
  // The bag's RX number, read in another case and with spaces; a label of no bag here; the bag added while scanning.
  { type: "LABEL_READ", code: " rx-7002 " },
  { type: "LABEL_READ", code: "RX-404" },
  { type: "LABEL_READ", code: "RX-8001" },
  { type: "BAGS_CHANGED", bags: [BAG, ADDED] },
  { type: "RETRY" },
  { type: "CLOSE" },
];

const serializeState = (snapshot: AnyMachineSnapshot) => {
  const { bags, unknownLabel, cameraProblem } = snapshot.context as { bags: { id: number }[]; unknownLabel: string | null; cameraProblem: string | null };
  return JSON.stringify([snapshot.value, snapshot.status, bags.map((bag) => bag.id), unknownLabel, cameraProblem]);
};

const paths = transitionCoverPaths(labelScannerMachine, { events: possibleEvents(EVENTS), input: INPUT, serializeState });

describe("label scanner machine (model-based)", () => {
  it.each(paths.map((path) => [pathName(path), path] as const))("%s", async (_title, path) => {
    const { snapshot } = await replayPath(labelScannerMachine, ACTORS, INPUT, path);
    expect(snapshot.value).toEqual(path.state.value);
    expect(snapshot.context).toEqual(path.state.context);
    expect(snapshot.status).toBe(path.state.status);
  });

  it("covers every state and transition", () => {
    expectFullCoverageAcross(labelScannerMachine, [{ input: INPUT, paths }]);
  });
});

describe("label scanner behaviour", () => {
  /** A live scanner with a camera the test drives. */
  function scanner(input: LabelScannerInput = INPUT) {
    const { camera, labelScanner } = testCamera();
    const actor = createActor(labelScanner, { input }).start();
    matched.length = 0;
    return { actor, camera };
  }

  it.each([
    ["an RX number", "RX-7002"],
    ["an external id, in another case", "ext-55"],
    ["an RX number with spaces around", "  RX-7001\n"],
  ])("%s of a bag is reported to the screen's machine; the camera stays open", (_what, code) => {
    const { actor, camera } = scanner();
    actor.send({ type: "CAMERA_READY" });
    actor.send({ type: "LABEL_READ", code });
    expect(matched).toEqual([{ type: "LABEL_MATCHED", orderId: 7 }]);
    expect(actor.getSnapshot().value).toEqual({ camera: "reading" });
    expect(camera).toEqual({ opened: 1, closed: 0 });
  });

  it("a label of no bag here is named in words, reported to no one, and the next good label clears it", () => {
    const { actor } = scanner();
    actor.send({ type: "CAMERA_READY" });
    actor.send({ type: "LABEL_READ", code: "RX-9001" });
    expect(matched).toEqual([]);
    expect(SCAN_TEXT.noOrderWithLabel(actor.getSnapshot().context.unknownLabel!)).toBe("No order here has the label RX-9001.");
    actor.send({ type: "LABEL_READ", code: "RX-7001" });
    expect(actor.getSnapshot().context.unknownLabel).toBeNull();
  });

  it("a label read before the camera shows its picture is not taken", () => {
    const { actor } = scanner();
    actor.send({ type: "LABEL_READ", code: "RX-7001" });
    expect(matched).toEqual([]);
  });

  it("no camera or permission refused: the reason, the camera closed, and it may be tried again", () => {
    const { actor, camera } = scanner();
    actor.send({ type: "CAMERA_FAILED", problem: "denied" });
    expect(actor.getSnapshot().value).toBe("unavailable");
    expect(actor.getSnapshot().context.cameraProblem).toBe("denied");
    expect(camera).toEqual({ opened: 1, closed: 1 });
    actor.send({ type: "RETRY" });
    expect(actor.getSnapshot().value).toEqual({ camera: "starting" });
    expect(actor.getSnapshot().context.cameraProblem).toBeNull();
    expect(camera.opened).toBe(2);
  });

  it("'Stop scanning' closes the camera and ends the scanner", () => {
    const { actor, camera } = scanner();
    actor.send({ type: "CAMERA_READY" });
    actor.send({ type: "CLOSE" });
    expect(actor.getSnapshot().status).toBe("done");
    expect(camera).toEqual({ opened: 1, closed: 1 });
  });

  it("alone (no screen's machine), a bag's label is taken and reported to no one", () => {
    const { actor } = scanner({ bags: [BAG] });
    actor.send({ type: "CAMERA_READY" });
    actor.send({ type: "LABEL_READ", code: "RX-7001" });
    expect(matched).toEqual([]);
    expect(actor.getSnapshot().value).toEqual({ camera: "reading" });
  });
});
