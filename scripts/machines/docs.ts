import { writeFileSync } from "node:fs";
import { discoverMachines } from "./discover.ts";
import { generateMarkdown, generateViz, writeGenerated } from "./generate.ts";

/**
 * `npm run machines:docs`: docs/machines/<machine>.md and README.md from the machines.
 * With `--json-out <file>` it writes nothing under docs/ and puts every generated file
 * (Markdown and visualizer copies) and each machine's model-test report in <file> as
 * JSON: tests/unit/machine-docs.test.ts compares them with the committed ones.
 */
const entries = await discoverMachines();
const jsonOut = process.argv.indexOf("--json-out");
if (jsonOut >= 0) {
  const target = process.argv[jsonOut + 1];
  if (!target) throw new Error("--json-out needs a file");
  const { files, reports } = await generateMarkdown(entries);
  const all = new Map([...files, ...(await generateViz(entries))]);
  writeFileSync(target, JSON.stringify({ files: Object.fromEntries(all), reports: Object.fromEntries(reports) }));
} else {
  const { files } = await generateMarkdown(entries);
  writeGenerated(files, ".md");
  console.log(`machines:docs wrote ${[...files.keys()].join(", ")}`);
}
