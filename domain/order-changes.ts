import { issueWords } from "./contract/issue-words.ts";
import { OrderUpdateOpsRequest } from "./contract/ops.ts";

/**
 * An edit of an order, checked by the rules PATCH /api/ops/v1/orders/{id}
 * checks (the contract's OrderUpdateOpsRequest, in the API's words) before it
 * is sent: the console's order page says what is wrong without a round trip.
 * Each problem names its field: "zipcode must be a ZIP code: 5 digits, or 5+4".
 */
export function orderChangeProblems(changes: object): string[] {
  const checked = OrderUpdateOpsRequest.safeParse(changes, { error: issueWords });
  if (checked.success) return [];
  return checked.error.issues.map((issue) => [issue.path.filter((part) => typeof part === "string").at(-1), issue.message].filter(Boolean).join(" "));
}

/** The problems as the order page says them. */
export const changesRefusedText = (problems: string[]) => `The changes were not saved: ${problems.join("; ")}.`;
