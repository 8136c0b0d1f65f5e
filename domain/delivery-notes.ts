import type { Order } from "./contract/entities.ts";

export interface DeliveryInstruction {
  text: string;
  /** Written by a supervisor: shown with more weight. */
  important: boolean;
}

/** The delivery instructions a courier is shown: never the notes marked as courier notes (spec §6), never blank ones. */
export function deliveryInstructions(order: Pick<Order, "delivery_notes">): DeliveryInstruction[] {
  return order.delivery_notes
    .filter((note) => !note.courier_note && note.delivery_instruction.trim() !== "")
    .map((note) => ({ text: note.delivery_instruction.trim(), important: note.superuser_note }));
}
