import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * No two files import each other in a circle (issue 26). ESLint's import-x/no-cycle keeps the
 * repository so but does not follow type-only imports; three server files once imported each
 * other for a type (`Tx`). This reads every import, types and dynamic ones included.
 */
const ROOT = resolve(import.meta.dirname, "../..");
const FOLDERS = ["domain", "machines", "src", "server", "scripts", "tests"];

function sourceFiles(folder: string, out: string[] = []): string[] {
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|tsx|mts|mjs)$/.test(entry)) out.push(path);
  }
  return out;
}

/** The repository's files each file imports (relative specifiers only: packages cannot import back). */
function importGraph(root: string, folders: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of folders.flatMap((folder) => sourceFiles(join(root, folder)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => resolve(dirname(file), specifier))
      .flatMap((target) => [target, target.replace(/\.js$/, ".ts"), `${target}.ts`, `${target}.tsx`, join(target, "index.ts")].find((path) => existsSync(path) && statSync(path).isFile()) ?? []);
    graph.set(file, targets);
  }
  return graph;
}

/** The circles of a graph: its strongly connected components of more than one file (Tarjan), each as repository paths. */
function importCircles(graph: Map<string, string[]>, root: string): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(relative(root, member));
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

describe("imports", () => {
  it("run in no circle anywhere in the repository, type-only imports included", () => {
    expect(importCircles(importGraph(ROOT, FOLDERS), ROOT)).toEqual([]);
  });

  it("finds a circle closed by a type-only import (the check can fail)", () => {
    const root = mkdtempSync(join(tmpdir(), "import-cycles-"));
    mkdirSync(join(root, "server"));
    writeFileSync(join(root, "server/transitions.ts"), 'import { enqueue } from "./events.ts";\nexport type Tx = { id: number };\nexport const run = () => enqueue;\n');
    writeFileSync(join(root, "server/events.ts"), 'import type { Tx } from "./transitions.ts";\nexport const enqueue = (tx: Tx) => tx;\n');
    writeFileSync(join(root, "server/alone.ts"), 'import { run } from "./transitions.ts";\nexport const go = run;\n');
    try {
      expect(importCircles(importGraph(root, ["server"]), root)).toEqual([["server/events.ts", "server/transitions.ts"]]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
