import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { actorSystemEdges, consoleSystemEdges, SCREENS, withDiagram } from "../../scripts/architecture/actor-system.ts";

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
        "session sends courierApp: tellSessionOpened: SESSION_OPENED",
        "session sends courierApp: tellSessionClosed: SESSION_CLOSED",
        "deliveryFlow starts submit: starts, while submitting",
        "submit sends offlineQueue: handToOfflineQueue: ENQUEUE",
        "deliveryFlow starts photo: starts, while steps.recipient.photo",
        "deliveryFlow starts photo: starts, while steps.signature.photo",
        "photo sends deliveryFlow: tellDelivery: PHOTO_CHANGED",
        "deliveryFlow sends courierDay: reportOutcome: DELIVERY_RECORDED",
        "returns sends courierDay: reportReturned: ORDERS_CHANGED",
        "verifyOrder sends courierDay: reportOrder: ORDERS_CHANGED",
        "addons sends courierDay: reportAdded: ORDERS_CHANGED",
        "checkIn sends courierDay: reportVisit: VISITS_CHANGED",
        "courierApp starts deliveryFlow: starts on FLOW.START",
        "courierApp starts returns: starts on FLOW.START",
        "checkIn sends courierDay: followDay: FOLLOW",
        "checkIn sends courierDay: unfollowDay: UNFOLLOW",
        "returns sends courierDay: followDay: FOLLOW",
        "returns sends offlineQueue: followQueue: FOLLOW",
        "courierDay sends checkIn: tellFollowers: DAY_CHANGED",
        "courierDay sends returns: tellFollowers: DAY_CHANGED",
        "offlineQueue sends returns: tellFollowers: QUEUE_CHANGED",
        "checkIn starts labelScanner: starts, while scanning",
        "labelScanner sends checkIn: reportMatch: LABEL_MATCHED",
        "returns starts labelScanner: starts, while scanningBags",
        "labelScanner sends returns: reportMatch: LABEL_MATCHED",
      ]),
    );
  });
});

describe("the dispatch console's actor system", () => {
  it("draws the console starting its session and each screen's machine, the session's news, and each screen's 401 to the session by system id", () => {
    const edges = consoleSystemEdges().map((edge) => `${edge.from} ${edge.kind} ${edge.to}: ${edge.label}`);
    const screens = Object.values(SCREENS).map((machine) => machine.id);
    expect(screens).toEqual(["consoleBoard", "consoleCouriers", "consolePlan", "consoleOrder", "consoleImport", "consoleReturns"]);
    expect(edges).toEqual(
      expect.arrayContaining([
        "console starts consoleSession: starts",
        "consoleSession sends console: tellSessionOpened: SESSION_OPENED",
        "consoleSession sends console: tellSessionClosed: SESSION_CLOSED",
        ...screens.map((screen) => `console starts ${screen}: starts on SCREEN.OPEN`),
        ...screens.map((screen) => `${screen} sends consoleSession: tellSessionEnded: SESSION_EXPIRED`),
      ]),
    );
  });
});
