import { getShortestPaths } from "xstate/graph";
import { discoverMachines } from "./discover.ts";
import { demoEvents, demoMachine, type Demo } from "./demo-kit.ts";
import { allStateIds } from "../../tests/support/model-coverage.ts";
for (const e of await discoverMachines()) {
  const demo = ((await import(`./demos/${e.name}.demo.ts`)) as { default: Demo }).default;
  const events = demoEvents(demo);
  const paths = getShortestPaths(demoMachine(demo), { events: (s) => s.status === "active" ? events.filter((ev) => s.can(ev as never)) : [], limit: 20000 });
  const reached = new Set(paths.flatMap((p) => (p.state as any)._nodes.map((n: any) => n.id)));
  console.log(e.name, "UNREACHED:", allStateIds(e.machine).filter((id) => !reached.has(id)).join(" "));
}
