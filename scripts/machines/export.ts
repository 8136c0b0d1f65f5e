import { discoverMachines } from "./discover.ts";
import { generateViz, writeGenerated } from "./generate.ts";

/** `npm run machines:export`: docs/machines/<machine>.viz.ts, one per machine, ready to paste into the Stately visualizer. */
const files = await generateViz(await discoverMachines());
writeGenerated(files, ".viz.ts");
console.log(`machines:export wrote ${[...files.keys()].join(", ")}`);
