/**
 * Module resolution hooks (node:module register) for reading the model-based
 * tests outside Vitest: "vitest" becomes a stand-in that collects without
 * running, and tests/support/model-coverage.ts becomes a probe that records
 * every path set transitionCoverPaths returns.
 */
interface HookData {
  vitestStandIn: string;
  modelCoverage: string;
  probe: string;
}

let urls: HookData | null = null;

export function initialize(data: HookData): void {
  urls = data;
}

type Resolved = { url: string; format?: string | null; shortCircuit?: boolean };
type NextResolve = (specifier: string, context: { parentURL?: string }) => Promise<Resolved>;

export async function resolve(specifier: string, context: { parentURL?: string }, nextResolve: NextResolve): Promise<Resolved> {
  const parent = context.parentURL ?? "";
  // Resolved through the chain (not short-circuited) so that tsx still compiles the TypeScript it leads to.
  if (urls && specifier === "vitest" && parent.includes("/tests/")) return nextResolve(urls.vitestStandIn, context);
  const resolved = await nextResolve(specifier, context);
  if (urls && resolved.url === urls.modelCoverage && parent !== urls.probe) return nextResolve(urls.probe, context);
  return resolved;
}
