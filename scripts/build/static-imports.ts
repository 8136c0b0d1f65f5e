import type { Rollup } from "vite";

/** These chunks' files and every chunk they import statically, through any path: what the browser loads before they run. */
export function withStaticImports(chunks: readonly Rollup.OutputChunk[], files: readonly string[]): Set<string> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of byFile.get(file)?.imports ?? []) walk(imported);
  };
  for (const file of files) walk(file);
  return seen;
}
