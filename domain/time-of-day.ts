/**
 * Times of day as dispatch writes them ("HH:MM", 24-hour, in the service's
 * time zone): delivery windows, pharmacy hours and courier shifts (issue 28).
 * One place for the rules, so the ops API, the CSV import, the planner and
 * the courier's app agree on what a window is.
 */

export const CLOCK_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

export const CLOCK_MESSAGE = "must be a time of day as HH:MM (24-hour), e.g. 14:00";

export function isClockTime(value: string): boolean {
  return CLOCK_PATTERN.test(value);
}

/** "14:30" → 870: minutes after midnight. */
export function clockMinutes(value: string): number {
  if (!isClockTime(value)) throw new RangeError(`${value} is not a time of day as HH:MM`);
  return Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5));
}

/** A window's two ends, named for the messages: "delivery_window", "opening/closing", "shift". */
export interface ClockWindowNames {
  start: string;
  end: string;
}

/**
 * What is wrong with a window (a delivery window, opening hours, a shift), in
 * words for the field named `end`, or null when it is fine: both ends or
 * neither, and the start strictly before the end (a window never crosses midnight).
 */
export function clockWindowProblem(
  start: string | null | undefined,
  end: string | null | undefined,
  names: ClockWindowNames,
): { field: "start" | "end"; message: string } | null {
  const hasStart = start != null;
  const hasEnd = end != null;
  if (hasStart !== hasEnd) {
    return hasStart
      ? { field: "end", message: `is required with ${names.start}` }
      : { field: "start", message: `is required with ${names.end}` };
  }
  if (!hasStart || !isClockTime(start) || !isClockTime(end!)) return null;
  if (clockMinutes(end!) <= clockMinutes(start)) return { field: "end", message: `must be after ${names.start} (${start})` };
  return null;
}

/** The courier's words for a promised window: "Deliver 14:00–16:00"; null without one. */
export function deliveryWindowText(start: string | null | undefined, end: string | null | undefined): string | null {
  return start && end ? `Deliver ${start}\u2013${end}` : null;
}
