import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../../..");
export const MARKDOWN = path.join(ROOT, "docs/benchmarks.md");
export const LATEST_JSON = path.join(ROOT, "docs/benchmarks/latest.json");

/** The sections of docs/benchmarks.md, in the order a reader meets them. */
export const SECTIONS = ["First screen", "Wizard responsiveness", "API under load", "Load shedding", "Order import", "Webhooks", "Soak", "Offline drain", "Routing", "Planning", "PDF rendering", "Day board"] as const;
export type SectionName = (typeof SECTIONS)[number];

const INTRO = `# Benchmarks

\`npm run bench\` measures everything below on the machine it runs on and rewrites each section
with the figures, the machine and the date (scripts/bench/index.ts; \`npm run bench -- --only=load\`
for one benchmark, \`npm run bench -- --soak\` for the soak). The same figures go to
docs/benchmarks/latest.json, so two runs can be compared with \`git diff\`. Nothing here is part
of \`npm test\`: timings depend on the machine and are never asserted in a test; sizes are
(tests/unit/bundle-budget.test.ts).

A figure taken on a shared or busy machine is noisy: each section gives the 1-minute load
average it was measured under.
`;

/** Replaces one "## <name>" section (up to the next "## "), keeping every other; a new one goes in its place in SECTIONS. */
export function writeSection(name: SectionName, body: string): void {
  const current = existsSync(MARKDOWN) ? readFileSync(MARKDOWN, "utf8") : INTRO;
  const section = `## ${name}\n\n${body.trim()}\n`;
  const parsed = splitSections(current);
  parsed.sections.set(name, section);
  const ordered = [
    ...SECTIONS.filter((known) => parsed.sections.has(known)),
    ...[...parsed.sections.keys()].filter((other) => !(SECTIONS as readonly string[]).includes(other)),
  ];
  const head = parsed.head.trim() === "# Benchmarks" || parsed.head.trim() === "" ? INTRO : parsed.head;
  const text = [head.trimEnd(), ...ordered.map((key) => parsed.sections.get(key)!.trimEnd())].join("\n\n") + "\n";
  writeFileSync(MARKDOWN, text);
}

function splitSections(text: string): { head: string; sections: Map<string, string> } {
  const sections = new Map<string, string>();
  const starts = [...text.matchAll(/^## (.+?)\s*$/gm)];
  const head = starts.length ? text.slice(0, starts[0]!.index) : text;
  starts.forEach((match, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]!.index : text.length;
    sections.set(match[1]!, text.slice(match.index, end));
  });
  return { head, sections };
}

type Json = Record<string, unknown>;

/** Merges one benchmark's result into docs/benchmarks/latest.json; returns what was there before (for a comparison). */
export function recordResult(key: string, value: unknown): unknown {
  mkdirSync(path.dirname(LATEST_JSON), { recursive: true });
  const current: Json = existsSync(LATEST_JSON) ? (JSON.parse(readFileSync(LATEST_JSON, "utf8")) as Json) : {};
  const results = (current.results as Json | undefined) ?? {};
  const previous = results[key];
  results[key] = value;
  const next = { updated: new Date().toISOString(), results };
  writeFileSync(LATEST_JSON, `${JSON.stringify(next, null, 2)}\n`);
  return previous;
}

export function previousResult(key: string): unknown {
  if (!existsSync(LATEST_JSON)) return undefined;
  return ((JSON.parse(readFileSync(LATEST_JSON, "utf8")) as Json).results as Json | undefined)?.[key];
}

/** A Markdown table. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n");
}

export const verdict = (met: boolean): string => (met ? "met" : "**missed**");
