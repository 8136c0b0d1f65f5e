import { describe, expect, it } from "vitest";
import { reconcile, type Drawn } from "../../src/console/map/redraw.ts";

/** A layer group that records what it was asked to do. */
function recordingGroup() {
  const layers = new Set<string>();
  const added: string[] = [];
  const removed: string[] = [];
  return {
    layers,
    added,
    removed,
    addLayer(layer: string) {
      layers.add(layer);
      added.push(layer);
    },
    removeLayer(layer: string) {
      layers.delete(layer);
      removed.push(layer);
    },
  };
}

describe("the map redraws only what changed (issue 27: a board of 2,000 stops)", () => {
  it("keeps a stop whose drawing is the same, redraws one that changed, removes one no longer given, adds a new one", () => {
    const drawn = new Map<string, Drawn<string>>();
    const group = recordingGroup();
    let drawing = 0;
    const draw = (stop: { tone: string }) => `layer-${++drawing}-${stop.tone}`;
    const keyOf = (stop: { tone: string }) => stop.tone;

    reconcile(drawn, group, [["1", { tone: "todo" }], ["2", { tone: "todo" }], ["3", { tone: "carried" }]], keyOf, draw);
    expect([...group.layers]).toEqual(["layer-1-todo", "layer-2-todo", "layer-3-carried"]);

    group.added.length = 0;
    reconcile(drawn, group, [["1", { tone: "todo" }], ["3", { tone: "delivered" }], ["4", { tone: "todo" }]], keyOf, draw);
    expect(group.added).toEqual(["layer-4-delivered", "layer-5-todo"]);
    expect(group.removed.sort()).toEqual(["layer-2-todo", "layer-3-carried"]);
    expect([...group.layers].sort()).toEqual(["layer-1-todo", "layer-4-delivered", "layer-5-todo"]);
    expect([...drawn.keys()].sort()).toEqual(["1", "3", "4"]);

    // The same again: nothing is drawn or removed.
    group.added.length = 0;
    group.removed.length = 0;
    reconcile(drawn, group, [["1", { tone: "todo" }], ["3", { tone: "delivered" }], ["4", { tone: "todo" }]], keyOf, draw);
    expect(group.added).toEqual([]);
    expect(group.removed).toEqual([]);
  });
});
