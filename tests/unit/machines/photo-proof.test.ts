import { describe, expect, it } from "vitest";
import { createActor, setup, type AnyMachineSnapshot, type EventObject } from "xstate";
import { photoProofMachine, type PhotoProofContext, type PhotoProofEvent, type PhotoProofInput } from "../../../machines/photo-proof.machine.ts";
import { PHOTO } from "../../support/delivery-flow-events.ts";
import { transitionCoverPaths } from "../../support/model-coverage.ts";
import { expectFullCoverageAcross, pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const EVENTS: PhotoProofEvent[] = [{ type: "PHOTO_TAKEN", photo: { ...PHOTO } }, { type: "PHOTO_REMOVED" }, { type: "CONTINUE" }, { type: "BACK" }];
const OPTIONAL: PhotoProofInput = { photo: null, required: false };
const REQUIRED: PhotoProofInput = { photo: null, required: true };

const serializeState = (snapshot: AnyMachineSnapshot) => {
  const { photo, required, accepted } = snapshot.context as PhotoProofContext;
  return JSON.stringify([snapshot.value, snapshot.status, photo != null, required, accepted]);
};

const SCENARIOS = [OPTIONAL, REQUIRED].map((input) => ({
  input,
  paths: transitionCoverPaths(photoProofMachine, { events: possibleEvents(EVENTS), input, serializeState }),
}));

describe("photo proof machine (model-based)", () => {
  for (const { input, paths } of SCENARIOS) {
    it.each(paths.map((path) => [pathName(path), path] as const))(`required ${input.required}: %s`, async (_title, path) => {
      const { snapshot } = await replayPath(photoProofMachine, [], input, path);
      expect(snapshot.value).toEqual(path.state.value);
      expect(snapshot.context).toEqual(path.state.context);
      expect(snapshot.status).toBe(path.state.status);
    });
  }

  it("covers every state and transition", () => {
    expectFullCoverageAcross(photoProofMachine, SCENARIOS);
  });
});

/** The photo machine as the delivery flow runs it: what it tells the flow, and what it answers. */
function underFlow(input: PhotoProofInput) {
  const told: EventObject[] = [];
  const parent = setup({ actors: { photo: photoProofMachine } }).createMachine({
    invoke: { id: "photo", src: "photo", input: ({ self }) => ({ ...input, reportTo: self }), onDone: { actions: ({ event }) => told.push({ type: "done", ...event.output }) } },
    on: { PHOTO_CHANGED: { actions: ({ event }) => told.push(event) } },
  });
  const actor = createActor(parent).start();
  const photo = actor.getSnapshot().children.photo!;
  return { photo, told };
}

describe("photo proof behaviour", () => {
  it("tells the delivery each photo taken or removed (kept with its draft), and answers Continue", () => {
    const { photo, told } = underFlow(OPTIONAL);
    photo.send({ type: "PHOTO_TAKEN", photo: PHOTO });
    photo.send({ type: "PHOTO_REMOVED" });
    photo.send({ type: "CONTINUE" });
    expect(told).toEqual([{ type: "PHOTO_CHANGED", photo: PHOTO }, { type: "PHOTO_CHANGED", photo: null }, { type: "done", accepted: true }]);
  });

  it("where the pharmacy requires a photo, Continue waits for one; removing it holds Continue again", () => {
    const { photo, told } = underFlow(REQUIRED);
    expect(photo.getSnapshot().can({ type: "CONTINUE" })).toBe(false);
    photo.send({ type: "PHOTO_TAKEN", photo: PHOTO });
    expect(photo.getSnapshot().can({ type: "CONTINUE" })).toBe(true);
    photo.send({ type: "PHOTO_REMOVED" });
    expect(photo.getSnapshot().can({ type: "CONTINUE" })).toBe(false);
    photo.send({ type: "BACK" });
    expect(told.at(-1)).toEqual({ type: "done", accepted: false });
  });

  it("starts with the photo taken before (a reload, or Back then Continue again)", () => {
    const { photo } = underFlow({ photo: PHOTO, required: true });
    expect((photo.getSnapshot().context as PhotoProofContext).photo).toEqual(PHOTO);
    expect(photo.getSnapshot().can({ type: "CONTINUE" })).toBe(true);
  });
});
