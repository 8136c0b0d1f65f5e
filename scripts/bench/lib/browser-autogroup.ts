import { existsSync, readFileSync, writeFileSync } from "node:fs";

/**
 * How the browser's scheduling group stood against the bench's own processes (decision 0047):
 * - "first": Linux groups each session's processes (autogroups) and the browser's group was given the highest weight;
 * - "no autogroups": the kernel shares the cores between processes, so nice values and the idle policy already hold;
 * - "not permitted": autogroups are on and this user may not raise a group (root or CAP_SYS_NICE is needed).
 */
export type BrowserGroupStanding = "first" | "no autogroups" | "not permitted";

const AUTOGROUP_SWITCH = "/proc/sys/kernel/sched_autogroup_enabled";
/** The highest weight a group can have: 88,761 against 1,024 for a group at nice 0. */
const FIRST = -20;

/** Whether the kernel shares the cores between sessions (autogroups) before it shares them between processes. */
export function autogroupsEnabled(): boolean {
  return existsSync(AUTOGROUP_SWITCH) && readFileSync(AUTOGROUP_SWITCH, "utf8").trim() === "1";
}

/**
 * With autogroups on (Debian's default), Linux shares the cores fairly between sessions first and only then between
 * the processes of a session, whatever their nice value or policy. Playwright starts the browser in a session of its
 * own, so the servers under the idle policy (decision 0045), the TLS balancers and Lighthouse's driver, all in the
 * bench's session, still took up to half of the cores from the browser whenever one of them ran. The browser's group
 * at nice −20 puts every one of them below every browser process, as decisions 0042 and 0045 meant.
 */
export function putBrowserGroupFirst(browserPid: number): BrowserGroupStanding {
  if (!autogroupsEnabled()) return "no autogroups";
  const groupFile = `/proc/${browserPid}/autogroup`;
  if (!existsSync(groupFile)) throw new Error(`no browser process ${browserPid} to put first`);
  try {
    writeFileSync(groupFile, String(FIRST));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EPERM" || (error as NodeJS.ErrnoException).code === "EACCES") return "not permitted";
    throw error;
  }
  const standing = readFileSync(groupFile, "utf8");
  // "/autogroup-154 nice -20": read back, so a kernel that ignored the write fails the run instead of passing unnoticed.
  if (!new RegExp(`nice ${FIRST}\\s*$`).test(standing)) throw new Error(`the browser's scheduling group did not take nice ${FIRST}: ${standing.trim()}`);
  return "first";
}

/** How the log and the report say it. */
export const BROWSER_GROUP_TEXT: Record<BrowserGroupStanding, string> = {
  first:
    "the browser's processes run in a scheduling group above the bench's own session (Linux autogroups: the servers, the balancers and Lighthouse's driver take a core only when the browser leaves one; decision 0047)",
  "no autogroups": "the kernel shares the cores between processes, not sessions (autogroups off), so the servers' idle policy holds as it is (decision 0047)",
  "not permitted":
    "**not** above the bench's own session: autogroups are on and this user may not raise the browser's group (run as root or with CAP_SYS_NICE), so the servers, the balancers and Lighthouse's driver weighed as much as the whole browser (decision 0047)",
};
