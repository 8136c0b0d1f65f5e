/** npm run db:reset: the embedded database (or DATABASE_URL) back to the demo day for today. */
import { calendarDate } from "../../domain/dates.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { resetToDemo } from "./seed.ts";

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const today = calendarDate(new Date(), config.serviceTimeZone);
await resetToDemo(database.db, today);
await database.close();
console.log(`Demo data for ${today} loaded into ${config.databaseUrl ? "PostgreSQL" : config.dataDir}.`);
