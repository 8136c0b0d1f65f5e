import { calendarDate, localCalendarDate } from "../../domain/dates.ts";

/**
 * Today's calendar day (YYYY-MM-DD) in the service's time zone (the server's
 * SERVICE_TIME_ZONE, given with the staff session): the board's first service
 * date, the day the couriers and the API call today wherever the browser is.
 * Only when the browser does not know the zone's name, its own day.
 */
export function serviceToday(timeZone: string | null, now = new Date()): string {
  if (timeZone) {
    try {
      return calendarDate(now, timeZone);
    } catch {
      // RangeError: an unknown zone name in this browser.
    }
  }
  return localCalendarDate(now);
}
