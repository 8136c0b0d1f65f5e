import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import pg from "pg";

export const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** A process's parent, the user + system CPU seconds it has used and its main thread's scheduling policy (Linux /proc); null when it is gone. */
export function processStat(pid: number): { parent: number; cpuSeconds: number; policy: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After the command's name in parentheses (which may hold spaces or a parenthesis): state, ppid, … utime (14th field), stime (15th), … policy (41st).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { parent: Number(fields[1]), cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND, policy: Number(fields[38]) };
  } catch {
    return null;
  }
}

/** User + system CPU seconds a process has used (Linux /proc; 0 when it is gone). */
export const processCpuSeconds = (pid: number): number => processStat(pid)?.cpuSeconds ?? 0;

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
