/**
 * The one date rule (issue 24 §3, issue 25): every date the API accepts is one
 * both engines store and one that makes sense for what it dates. Dates are
 * calendar days, "YYYY-MM-DD"; "today" is the service's day (its time zone),
 * handed in by the caller, so the rule itself is pure.
 */

/** The range any stored or searched date lies in: PostgreSQL has no year 0000, and nothing we date is older or later. */
export const EARLIEST_DATE = "1900-01-01";
export const LATEST_DATE = "2100-12-31";
/** A service date may be planned this many days ahead of today. */
export const SERVICE_DATE_HORIZON_DAYS = 365;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "YYYY-MM-DD" naming a day that exists (no 02-30). */
export function isCalendarDay(value: string): boolean {
  const match = ISO_DAY.exec(value);
  if (!match) return false;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return date.getUTCFullYear() === Number(match[1]) && date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]);
}

/** The calendar day `days` after `day` (both "YYYY-MM-DD"). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Same-format ISO days compare as text. */
const within = (value: string, from: string, to: string) => value >= from && value <= to;

/** Any date the API takes (and a filter's): null when it is storable, else the reason in words. */
export function storableDateProblem(value: string): string | null {
  return within(value, EARLIEST_DATE, LATEST_DATE) ? null : `must be from ${EARLIEST_DATE} to ${LATEST_DATE}`;
}

/** A date of birth: from 1900-01-01 to today. */
export function birthDateProblem(value: string, today: string): string | null {
  if (value > today) return `must not be after today (${today})`;
  return value < EARLIEST_DATE ? `must be from ${EARLIEST_DATE} on` : null;
}

/**
 * A service date written by a create, a batch row, a patch or an assignment:
 * from today to today + 365 days. A day already gone cannot be delivered on.
 */
export function serviceDateProblem(value: string, today: string): string | null {
  if (value < today) return `is in the past: a delivery day must be today (${today}) or later`;
  const last = addDays(today, SERVICE_DATE_HORIZON_DAYS);
  return value > last ? `must be at most ${SERVICE_DATE_HORIZON_DAYS} days ahead (${last} at the latest)` : null;
}

export interface DatedFields {
  patient_date_of_birth?: string | null;
  service_date?: string;
}

/** The date rule over an order's body: the field's name and its reason, for each date it breaks. */
export function orderDateProblems(body: DatedFields, today: string): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const birth = body.patient_date_of_birth == null ? null : birthDateProblem(body.patient_date_of_birth, today);
  if (birth) problems.push({ path: "patient_date_of_birth", message: birth });
  const service = body.service_date === undefined ? null : serviceDateProblem(body.service_date, today);
  if (service) problems.push({ path: "service_date", message: service });
  return problems;
}
