import type { ClockWindowNames } from "../../../domain/time-of-day.ts";
import { clockWindowProblem } from "../../../domain/time-of-day.ts";
import { badRequest } from "../../http/errors.ts";

/**
 * A window as it will be stored (one end may come from the request, the other
 * from the row) checked by the domain rule; 400 in the field's words. Called
 * inside the transaction, so a refusal changes nothing.
 */
export function refuseBadWindow(start: string | null, end: string | null, names: ClockWindowNames): void {
  const problem = clockWindowProblem(start, end, names);
  if (!problem) return;
  const field = problem.field === "start" ? names.start : names.end;
  throw badRequest(`Invalid body.${field}: ${problem.message}`, [{ path: `body.${field}`, message: problem.message }]);
}
