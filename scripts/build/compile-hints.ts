import path from "node:path";
import type { Plugin, Rollup } from "vite";
import { withStaticImports } from "./static-imports.ts";

/**
 * Chromium's explicit compile hint (V8, Chrome 136+): a script that opens with
 * this comment has all its functions compiled on the thread that streams it in,
 * as it downloads, instead of each one on the page's main thread the first
 * time it is called. Other browsers read a comment.
 */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad";

/**
 * The compile hint on the courier's chunks that run as a screen opens: the
 * page's own (the app, React, the router, XState), each on-demand screen's
 * with what it imports, the HTTP client's and the offline store's. On a first
 * visit (every Lighthouse run is one) the main thread compiled their functions
 * one by one as they were first called, in the middle of the app's start and
 * first render (issue 29, scripts/bench/notes.ts). Chunks loaded for one
 * step or on a courier's action (the card fields, the signature pad, the
 * scanner's decoder, the photo shrinker, the date mask, which the delivery
 * screens fetch ahead once a step is shown) and the dispatch console's stay
 * lazily compiled: most of their functions may never run on a given day.
 *
 * `roots` are modules (paths from the project's root, index.html for the
 * page's entry); a chunk gets the hint when it holds one of them or a chunk
 * that does imports it statically (the browser loads it before the root runs).
 *
 * Written into the chunks once they are final (Vite writes its preload list
 * above a chunk's code after the output's banners), with their source maps
 * moved down a line. The file names keep the hash of the code without it:
 * the hint does not change what the code does.
 */
export function startupCompileHints(root: string, roots: readonly string[]): Plugin {
  return {
    name: "rxc-startup-compile-hints",
    apply: "build",
    enforce: "post",
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((output): output is Rollup.OutputChunk => output.type === "chunk");
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const holders = roots.map((file) => {
          const id = path.resolve(root, file);
          const holder = file.endsWith(".html") ? chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId === id) : chunks.find((chunk) => chunk.moduleIds.includes(id));
          return holder ? holder.fileName : this.error(`${file}: no chunk holds it (scripts/build/compile-hints.ts)`);
        });
        for (const file of withStaticImports(chunks, holders)) {
          const chunk = byFile.get(file)!;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          const mapAsset = bundle[`${file}.map`];
          if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
          if (mapAsset?.type === "asset") {
            const map = JSON.parse(String(mapAsset.source)) as { mappings: string };
            map.mappings = `;${map.mappings}`;
            mapAsset.source = JSON.stringify(map);
          }
        }
      },
    },
  };
}
