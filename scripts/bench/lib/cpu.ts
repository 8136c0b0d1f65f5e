import { readFileSync } from "node:fs";
import pg from "pg";

/** User + system CPU seconds a process has used (Linux /proc; 0 when it is gone). */
export function processCpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends serving one database (the server's pool): their CPU is the database's share of a request. */
export async function backendPids(databaseUrl: string): Promise<number[]> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [name]);
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

export const cpuOf = (pids: readonly number[]) => pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0);
