/** Spec §5: the date pattern is MM/DD/YYYY. */
export const US_DATE_PATTERN = /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/(\d{4})$/;

/** "MM/DD/YYYY" → "YYYY-MM-DD", or null when it is not a real calendar date. */
export function usDateToIso(value: string): string | null {
  const match = US_DATE_PATTERN.exec(value.trim());
  if (!match) return null;
  const [, month, day, year] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) return null;
  return `${year}-${month}-${day}`;
}

/** "YYYY-MM-DD" → "MM/DD/YYYY" for display. */
export function isoToUsDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!match) return null;
  return `${match[2]}/${match[3]}/${match[1]}`;
}

/** The calendar date ("YYYY-MM-DD") of an instant in a time zone: the courier's "today". */
export function calendarDate(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/**
 * The calendar date ("YYYY-MM-DD") of an instant in the runtime's own time
 * zone: the same as calendarDate(instant, <this device's zone>), without
 * creating an Intl formatter (tens of milliseconds on a slow phone's first use).
 */
export function localCalendarDate(instant: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`;
}
