import { createHmac, randomBytes } from "node:crypto";

/**
 * Standard Webhooks (https://www.standardwebhooks.com): the secret is
 * "whsec_" + base64 key bytes; the signature is "v1," + base64 HMAC-SHA256 of
 * "<webhook-id>.<webhook-timestamp>.<body>" keyed with those bytes.
 */
const PREFIX = "whsec_";

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

export function signatureHeaders(secret: string, id: string, body: string, now: Date = new Date()): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const key = Buffer.from(secret.slice(PREFIX.length), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` };
}
