import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { serverSecrets } from "../db/schema.ts";

/**
 * A key the server makes for itself the first time it needs it and keeps in
 * the database, so every process behind the balancer signs and checks with
 * the same one and nothing has to be configured. Whoever reads the database
 * could forge with it, but could read far more than that already.
 */
export async function serverSecret(db: Db, name: string): Promise<string> {
  // Two processes starting together: the first insert wins and both read it.
  await db.insert(serverSecrets).values({ name, value: randomBytes(32).toString("base64url") }).onConflictDoNothing();
  const [row] = await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, name));
  return row!.value;
}
