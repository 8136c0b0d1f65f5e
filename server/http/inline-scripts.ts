import { createHash } from "node:crypto";

/**
 * The CSP sources for the page's own inline scripts, by hash: index.html
 * starts the first API calls before the app's JavaScript arrives, and the
 * policy allows exactly that text and no other inline script.
 */
export function inlineScriptHashes(html: string): string[] {
  const scripts = html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g);
  return [...scripts].map(([, body]) => `'sha256-${createHash("sha256").update(body!, "utf8").digest("base64")}'`);
}
