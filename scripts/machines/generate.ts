import { readdirSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { machineModel } from "../../src/features/machines/machine-model.ts";
import { ROOT, type MachineEntry } from "./discover.ts";
import { indexMarkdown, machineMarkdown, type IndexRow } from "./markdown.ts";
import { modelTestReport, type ModelTestReport } from "./test-paths.ts";
import { vizSource } from "./viz-source.ts";

/** Everything under docs/machines/, as path → content, generated from the machines (nothing is written here). */

export const DOCS_DIR = "docs/machines";

export async function generateMarkdown(entries: readonly MachineEntry[]): Promise<{ files: Map<string, string>; reports: Map<string, ModelTestReport> }> {
  const files = new Map<string, string>();
  const reports = new Map<string, ModelTestReport>();
  const rows: IndexRow[] = [];
  for (const entry of entries) {
    const model = machineModel(entry.machine);
    const report = await modelTestReport(entry);
    rows.push({ entry, model, report });
    reports.set(entry.name, report);
    files.set(`${DOCS_DIR}/${entry.name}.md`, machineMarkdown(entry, model, report));
  }
  files.set(`${DOCS_DIR}/README.md`, indexMarkdown(rows));
  return { files, reports };
}

export async function generateViz(entries: readonly MachineEntry[]): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of entries) files.set(`${DOCS_DIR}/${entry.name}.viz.ts`, await vizSource(entry));
  return files;
}

/** Writes the files, and removes generated files of the same kind that no machine makes any more. */
export function writeGenerated(files: Map<string, string>, kind: ".md" | ".viz.ts"): void {
  mkdirSync(path.join(ROOT, DOCS_DIR), { recursive: true });
  for (const file of readdirSync(path.join(ROOT, DOCS_DIR))) {
    const relative = `${DOCS_DIR}/${file}`;
    const sameKind = kind === ".md" ? file.endsWith(".md") : file.endsWith(".viz.ts");
    if (sameKind && !files.has(relative)) rmSync(path.join(ROOT, relative));
  }
  for (const [file, content] of files) writeFileSync(path.join(ROOT, file), content);
}
