import type { RowIndicator } from "../../domain/pharmacy-progress.ts";
import { CheckIcon, ReturnIcon } from "./icons.tsx";
import "./row-indicator-badge.css";

/**
 * Spec §4 row indicators, one look on every list: 'incomplete' (saved on the
 * device), 'not collected' (a payable copay not collected yet), 'cancelled',
 * the incomplete mark (something goes back to the pharmacy) and the complete
 * mark. The caller decides the indicator (rowIndicator) and which of them its
 * list shows (`only`; all when omitted).
 */
export function RowIndicatorBadge({ indicator, only }: { indicator: RowIndicator; only?: readonly RowIndicator[] }) {
  if (only && !only.includes(indicator)) return null;
  switch (indicator) {
    case "incomplete":
      return <span className="badge badge--warn">incomplete</span>;
    case "not_collected":
      return <span className="badge badge--danger">not collected</span>;
    case "cancelled":
      return <span className="badge badge--danger">cancelled</span>;
    case "incomplete_mark":
      return (
        <span className="badge badge--warn badge--icon" role="img" aria-label="To return to the pharmacy">
          <ReturnIcon />
        </span>
      );
    case "complete_mark":
      return (
        <span className="badge badge--ok badge--icon" role="img" aria-label="complete">
          <CheckIcon />
        </span>
      );
  }
}
