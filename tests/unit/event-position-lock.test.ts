import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EVENT_POSITION_LOCK } from "../../server/services/events/record.ts";

/**
 * Events take their positions under one advisory lock: the commit trigger of
 * the migrations takes it in SQL, an orders batch in TypeScript (decision
 * 0037). Two numbers would let a batch's events and a courier's interleave out
 * of commit order, silently; this keeps them one.
 */
describe("the events' position lock", () => {
  it("is the same number in the migrations' trigger and in the batch's last statement", () => {
    const migrations = path.resolve("server/db/migrations");
    const locks = readdirSync(migrations)
      .filter((file) => file.endsWith(".sql"))
      .flatMap((file) => [...readFileSync(path.join(migrations, file), "utf8").matchAll(/pg_advisory_xact_lock\((\d+)\)/g)].map((match) => Number(match[1])));
    expect(locks.length).toBeGreaterThan(0);
    expect(new Set(locks)).toEqual(new Set([EVENT_POSITION_LOCK]));
  });
});
