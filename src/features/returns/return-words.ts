import type { Order } from "../../../domain/contract/entities.ts";
import type { ReturnDetailKind, ReturnLineType } from "../../../domain/returns.ts";
import { TEXT } from "../../../domain/texts.ts";

/** The returns screens' headings for each kind of line. */
export const KIND_TITLES: Record<ReturnDetailKind, string> = {
  orders: TEXT.itemsToReturn,
  cash: "Cash",
  check: "Check",
};

/** Why a line goes back, as the courier says it. */
export function lineReason(type: ReturnLineType, order: Order): string {
  if (type === "cash") return "Cash collected at delivery";
  if (type === "check") return "Check collected at delivery";
  return order.status.name === "delivery_attempted" ? "Delivery attempted" : "Not delivered";
}
