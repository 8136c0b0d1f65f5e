import type { AnyMachineSnapshot } from "xstate";
import { fill } from "../../../domain/texts.ts";

/**
 * The confirmation a machine is asking, or null. One pattern for every
 * "confirm … yes/no" of the delivery (the flow's failed-delivery and failed-tick
 * confirmations, the payment step's 'unable to pay'): a state whose meta
 * carries the spec's text and which answers CONFIRM and CANCEL; the view shows
 * that text in a ConfirmDialog, with the support phone filled in.
 */
export function confirmationOf(snapshot: AnyMachineSnapshot & { context: { supportPhone: string } }): string | null {
  for (const meta of Object.values(snapshot.getMeta()) as { confirmation?: string }[]) {
    if (meta?.confirmation) return fill(meta.confirmation, { phone: snapshot.context.supportPhone });
  }
  return null;
}
