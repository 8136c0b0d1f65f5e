/**
 * Local times of a service day as instants, and back (issue 28): the planner
 * counts seconds from the day's local midnight; the API answers ISO 8601
 * instants with the zone's offset. Daylight-saving days are 23 or 25 hours,
 * so a wall-clock "14:00" is converted through the zone, never as 14 × 3600.
 */

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in minutes (east positive). */
function offsetMinutes(epochMs: number, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) offsetFormats.set(timeZone, (format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })));
  const name = format.formatToParts(new Date(epochMs)).find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!match) return 0;
  return (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3] ?? 0));
}

/** The instant a wall-clock time of a calendar day happens in the zone ("2026-11-21", 840 minutes). */
export function zonedInstant(day: string, minutesAfterMidnight: number, timeZone: string): number {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, date, 0, minutesAfterMidnight);
  // Two passes settle the offset on either side of a daylight-saving change.
  let instant = wall - offsetMinutes(wall, timeZone) * 60_000;
  instant = wall - offsetMinutes(instant, timeZone) * 60_000;
  return instant;
}

/** "2026-11-21T14:05:00-05:00": the instant as the zone's clock reads it, with the offset. */
export function isoWithOffset(epochMs: number, timeZone: string): string {
  const offset = offsetMinutes(epochMs, timeZone);
  const local = new Date(epochMs + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** The service day's clock for the planner: seconds since its local midnight, and back. */
export interface DayClock {
  /** Seconds from midnight to a wall-clock "HH:MM" minute count. */
  seconds(minutesAfterMidnight: number): number;
  /** Seconds from midnight to the next midnight (86 400 but on daylight-saving days). */
  readonly end: number;
  iso(seconds: number): string;
}

export function dayClock(day: string, timeZone: string): DayClock {
  const midnight = zonedInstant(day, 0, timeZone);
  const next = zonedInstant(day, 24 * 60, timeZone);
  return {
    seconds: (minutes) => Math.round((zonedInstant(day, minutes, timeZone) - midnight) / 1000),
    end: Math.round((next - midnight) / 1000),
    iso: (seconds) => isoWithOffset(midnight + Math.round(seconds) * 1000, timeZone),
  };
}
