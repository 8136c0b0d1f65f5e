import { OPS_API_PREFIX } from "../../domain/contract/ops.ts";

/**
 * True for every path of the operations API: Bearer keys there, never the courier's cookie.
 * Here, below both APIs, so the courier's auth (server/auth/plugin.ts) can skip these paths
 * without importing the operations API.
 */
export function isOpsUrl(url: string): boolean {
  return url === OPS_API_PREFIX || url.startsWith(`${OPS_API_PREFIX}/`) || url.startsWith(`${OPS_API_PREFIX}?`);
}
