import { calendarDate } from "../domain/dates.ts";
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig, type Config } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { ensureReferenceData } from "./db/reference-data.ts";
import { hasCouriers, seedDemo } from "./seed/seed.ts";

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  // Said plainly and nothing started: a weak key is not run with (docs/operations.md).
  if (error instanceof ConfigError) {
    console.error(`Rx Courier cannot start: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await ensureReferenceData(database.db);
if (config.demoData && !(await hasCouriers(database.db))) {
  try {
    await seedDemo(database.db, calendarDate(new Date(), config.serviceTimeZone));
  } catch (error) {
    // Several processes started at once on an empty PostgreSQL: the first loaded the day, our copy was refused (unique email).
    if (!(await hasCouriers(database.db))) throw error;
  }
}

const app = await buildApp({ config, database });
await app.listen({ host: config.host, port: config.port });

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await app.close();
    await database.close();
    process.exit(0);
  });
}
