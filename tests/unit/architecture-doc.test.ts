import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { actorSystemEdges, withDiagram } from "../../scripts/architecture/actor-system.ts";

describe("docs/architecture.md", () => {
  const markdown = readFileSync("docs/architecture.md", "utf8");

  it("opens with the actor system as the machines define it (npm run architecture:docs)", () => {
    expect(markdown.startsWith("# Architecture\n\n## The actor system")).toBe(true);
    expect(withDiagram(markdown)).toBe(markdown);
  });

  it("draws who starts whom and who sends what to whom, read from the machines", () => {
    const edges = actorSystemEdges().map((edge) => `${edge.from} ${edge.kind} ${edge.to}: ${edge.label}`);
    expect(edges).toEqual(
      expect.arrayContaining([
        "courierApp starts session: starts",
        "courierApp starts offlineQueue: starts",
        "courierApp starts courierDay: starts, while session.signedIn",
        "deliveryFlow sends offlineQueue: handToOfflineQueue: ENQUEUE",
        "deliveryFlow sends courierDay: reportDelivered: DELIVERY_RECORDED",
        "deliveryFlow sends courierDay: reportAttempted: DELIVERY_RECORDED",
        "returns sends courierDay: reportReturned: ORDERS_CHANGED",
        "verifyOrder sends courierDay: reportOrder: ORDERS_CHANGED",
        "addons sends courierDay: reportAdded: ORDERS_CHANGED",
        "checkIn sends courierDay: reportVisit: VISITS_CHANGED",
        "courierApp starts deliveryFlow: starts on FLOW.START",
        "courierApp starts returns: starts on FLOW.START",
        "checkIn sends courierDay: followDay: follows",
        "returns sends offlineQueue: followDay: follows",
      ]),
    );
  });
});
