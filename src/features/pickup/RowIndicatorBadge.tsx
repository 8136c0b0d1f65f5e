import type { Order } from "../../../domain/contract/entities.ts";
import { rowIndicator, type RowIndicator } from "../../../domain/pharmacy-progress.ts";
import { useOfflineOrderIds } from "../../app/offline-status.ts";
import { CheckIcon } from "../../ui/icons.tsx";

/** Spec §4 row indicators, as rowIndicator() decides them; `only` limits which this list shows. */
export function RowIndicatorBadge({ order, only }: { order: Order; only?: readonly RowIndicator[] }) {
  const indicator = rowIndicator(order, useOfflineOrderIds());
  if (only && !only.includes(indicator)) return null;
  switch (indicator) {
    case "incomplete":
      return <span className="badge badge--warn">incomplete</span>;
    case "not_collected":
      return <span className="badge badge--warn">not collected</span>;
    case "incomplete_mark":
      return <span className="badge badge--warn" role="img" aria-label="incomplete">!</span>;
    case "cancelled":
      return <span className="badge badge--danger">cancelled</span>;
    case "complete_mark":
      return (
        <span className="badge badge--ok" role="img" aria-label="complete">
          <CheckIcon />
        </span>
      );
  }
}
