import path from "node:path";
import type { CodeSplittingGroup } from "rolldown";

/** What rolldown's chunking context answers about a module (the part this file reads). */
type Graph = { getModuleInfo(id: string): { importers: readonly string[]; dynamicImporters: readonly string[]; isEntry: boolean } | null };

/** The roots whose static imports reach a module: entries and import() targets, the module itself included when it is one. */
function rootsReaching(graph: Graph, id: string): string[] {
  const seen = new Set<string>();
  const roots: string[] = [];
  const walk = (moduleId: string) => {
    if (seen.has(moduleId)) return;
    seen.add(moduleId);
    const info = graph.getModuleInfo(moduleId);
    if (!info) return;
    if (info.isEntry || info.dynamicImporters.length > 0) roots.push(moduleId);
    for (const importer of info.importers) walk(importer);
  };
  walk(id);
  return roots;
}

/** The chunk the courier's screens share: modules more than one of them imports and the first screen does not. */
export const SHARED_FEATURE_CHUNK = "feature-shared";
/** The chunk of modules the courier's screens share with the dispatch console's first screen, which loads them all already. */
export const CONSOLE_SHARED_FEATURE_CHUNK = "feature-console-shared";

/**
 * One chunk per on-demand screen of the courier's app, one for what several of
 * them share, instead of a chunk per set of importers: a reload on the
 * delivery step ran 23 module scripts, each in a task of its own (0.4–2 ms of
 * thread time unthrottled, ~10× that on the low-tier phone), nine of its
 * sixteen preloaded chunks under 3.5 KB (issue 29, scripts/bench/notes.ts).
 *
 * A module goes to a screen's chunk when that screen's code is the only one of
 * the courier's screens that imports it (statically, through any path), to the
 * shared chunk when several do. Everything else is left to rolldown as before:
 * the first screen's modules (its download is budgeted), what only a library
 * loaded on demand imports (braintree-web, signature_pad, imask, the scanner's
 * decoder, the photo shrinker stay behind their import()), node_modules, and
 * what only the dispatch console imports. What the console's first screen
 * imports too (money, vocabulary…) is one chunk of its own, so the console
 * downloads nothing it did not before. /machines (a developer's page that
 * charts every flow) counts as no screen: it loads the screens' chunks.
 * A module is in one group only, so it is in exactly one chunk.
 */
export function featureChunkGroups(root: string, { courierEntry, features, ignored }: { courierEntry: string; features: readonly { module: string }[]; ignored: readonly string[] }): CodeSplittingGroup[] {
  const courier = path.resolve(root, courierEntry);
  const screens = new Map(features.map(({ module }) => [path.resolve(root, module), path.basename(module, path.extname(module))]));
  const notAScreen = new Set(ignored.map((module) => path.resolve(root, module)));
  return [
    {
      // Only the modules named here: rolldown would otherwise pull each one's imports (React, the app's shell) in with it.
      // No chunk circle follows: what a grouped module imports is reached from at least the same roots, so it is in the
      // same group, the shared one, or left where it was (the first screen's chunks).
      includeDependenciesRecursively: false,
      name: (id, graph) => {
        if (id.includes("/node_modules/") || id.startsWith("\0")) return null;
        const reachedFrom = rootsReaching(graph as unknown as Graph, id);
        const ownScreens = reachedFrom.filter((rootId) => screens.has(rootId) && !notAScreen.has(rootId));
        if (ownScreens.length === 0) return null;
        if (reachedFrom.includes(courier)) return null;
        // Another entry (the console's page), or code loaded on demand that is not a screen (the scanner's, which
        // several screens load): never a screen's own chunk, or loading it would load that whole screen's.
        const others = reachedFrom.filter((rootId) => !screens.has(rootId));
        if (others.some((rootId) => (graph as unknown as Graph).getModuleInfo(rootId)?.isEntry)) return CONSOLE_SHARED_FEATURE_CHUNK;
        return ownScreens.length === 1 && others.length === 0 ? screens.get(ownScreens[0]!)! : SHARED_FEATURE_CHUNK;
      },
    },
  ];
}
