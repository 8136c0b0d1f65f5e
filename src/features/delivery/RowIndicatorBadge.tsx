import type { RowIndicator } from "../../../domain/pharmacy-progress.ts";
import { CheckIcon } from "../../ui/icons.tsx";

export const ReturnIcon = () => (
  <svg width={22} height={22} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.4} strokeLinecap="round" strokeLinejoin="round" aria-hidden>
    <path d="M9 14L4 9l5-5" />
    <path d="M4 9h11a5 5 0 0 1 0 10h-3" />
  </svg>
);

/**
 * Spec §4 row indicators: 'incomplete' (saved on the device), 'not collected'
 * (a payable copay not collected yet), the incomplete mark (something goes
 * back to the pharmacy) and the complete mark. `marks`: show the two marks
 * (rows already delivered or attempted), not only the words.
 */
export function RowIndicatorBadge({ indicator, marks }: { indicator: RowIndicator; marks: boolean }) {
  switch (indicator) {
    case "incomplete":
      return <span className="badge badge--warn">incomplete</span>;
    case "not_collected":
      return <span className="badge badge--danger">not collected</span>;
    case "cancelled":
      return <span className="badge">cancelled</span>;
    case "incomplete_mark":
      return marks ? (
        <span className="badge badge--warn badge--icon" role="img" aria-label="To return to the pharmacy">
          <ReturnIcon />
        </span>
      ) : null;
    case "complete_mark":
      return marks ? (
        <span className="badge badge--ok badge--icon" role="img" aria-label="Complete">
          <CheckIcon />
        </span>
      ) : null;
  }
}
