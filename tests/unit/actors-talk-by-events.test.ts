import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Actors talk by events: none reads or subscribes to another actor's snapshot
 * (the delivery flow once read the day's orders from its snapshot; check-in's
 * and returns' followDay once subscribed to the day's and the queue's). Views
 * and hooks that select from the actor they render are fine. Read from the
 * syntax tree, so a read is found however the line is written.
 */

/** The actor creators whose function is an actor's own code. */
const ACTOR_CREATORS = new Set(["fromCallback", "fromPromise", "fromObservable", "fromEventObservable", "fromTransition"]);
const READS = new Set(["getSnapshot", "subscribe"]);

/** `system.get(…)`, optionally chained, cast or parenthesised. */
function isSystemGet(node: ts.Expression): boolean {
  while (ts.isAsExpression(node) || ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node) || ts.isSatisfiesExpression(node)) node = node.expression;
  return ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "get" && /\bsystem$/.test(node.expression.expression.getText());
}

/** Where a file reads or subscribes to another actor's snapshot, as "line: why". */
function snapshotReads(source: string, where: "machines" | "src"): string[] {
  const file = ts.createSourceFile("file.tsx", source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const line = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  // Names bound to an actor found through the system: `const day = system.get(SYSTEM_IDS.courierDay)`.
  const fromSystem = new Set<string>();
  const visit = (node: ts.Node, inActor: boolean) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && isSystemGet(node.initializer)) fromSystem.add(node.name.text);
    if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node) || ts.isMethodDeclaration(node)) && node.name.getText() === "onSnapshot") {
      found.push(`${line(node)}: an invoke's onSnapshot hands the invoker its child's every snapshot`);
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && READS.has(node.expression.name.text)) {
      const receiver = node.expression.expression;
      const what = `${node.expression.name.text}()`;
      if (isSystemGet(receiver) || (ts.isIdentifier(receiver) && fromSystem.has(receiver.text))) found.push(`${line(node)}: ${what} of an actor found through the system`);
      else if (inActor) found.push(`${line(node)}: ${what} inside an actor's own code`);
      else if (where === "machines") found.push(`${line(node)}: ${what} in a machine`);
    }
    const creator = ts.isCallExpression(node) && ts.isIdentifier(node.expression) && ACTOR_CREATORS.has(node.expression.text);
    ts.forEachChild(node, (child) => visit(child, inActor || creator));
  };
  visit(file, false);
  return found;
}

function sourceFiles(folder: string, out: string[] = []): string[] {
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(entry)) out.push(path);
  }
  return out;
}

describe("actors talk by events", () => {
  it("no machine, and no actor or adapter of the apps, reads or subscribes to the snapshot of another actor", () => {
    const files = [...sourceFiles("machines").map((path) => ({ path, where: "machines" as const })), ...sourceFiles("src").map((path) => ({ path, where: "src" as const }))];
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(({ path, where }) => snapshotReads(readFileSync(path, "utf8"), where).map((read) => `${path}:${read}`))).toEqual([]);
  });

  it("finds the reads the machines once made (the check can fail)", () => {
    // The delivery flow's old reportDelivered: the day's orders from the day's snapshot.
    const deliveryFlow = `export const m = setup({ actions: { reportDelivered: sendTo(
      ({ system }) => system.get(SYSTEM_IDS.courierDay),
      ({ context, system }) => {
        const day = system.get(SYSTEM_IDS.courierDay)?.getSnapshot().context.day;
        return { type: "ORDERS_DELIVERED", orders: day?.orders ?? [] };
      }) } });`;
    expect(snapshotReads(deliveryFlow, "machines")).toEqual(["4: getSnapshot() of an actor found through the system"]);
    // Check-in's old followDay: subscribed to the day's snapshot and compared its orders by hand.
    const followDay = `const actors = { followDay: fromCallback(({ input, system, sendBack }) => {
      const day = system.get(SYSTEM_IDS.courierDay) as CourierDayRef | undefined;
      if (!day) return;
      follow(day.getSnapshot());
      const subscription = day.subscribe(follow);
      return () => subscription.unsubscribe();
    }) };`;
    expect(snapshotReads(followDay, "src")).toEqual(["4: getSnapshot() of an actor found through the system", "5: subscribe() of an actor found through the system"]);
    // An actor handed another actor in its input, and an invoke watching its child.
    const handed = `const a = fromPromise(async ({ input }) => input.queue.getSnapshot().context.items);
      const invoke = { src: "session", onSnapshot: { actions: "watch" } };`;
    expect(snapshotReads(handed, "src")).toEqual(["1: getSnapshot() inside an actor's own code", "2: an invoke's onSnapshot hands the invoker its child's every snapshot"]);
  });

  it("lets a view select from the actor it renders", () => {
    const view = `export function Screen({ actor }) {
      const state = useSelector(actor, (snapshot) => snapshot);
      useEffect(() => { const s = actor.subscribe(keep); keep(actor.getSnapshot()); return () => s.unsubscribe(); }, [actor]);
      return null;
    }`;
    expect(snapshotReads(view, "src")).toEqual([]);
    expect(snapshotReads(view, "machines")).toHaveLength(2);
  });
});
