import type { AnyMachineSnapshot, Snapshot } from "xstate";
import { fill } from "../../../domain/texts.ts";

/**
 * The confirmation a machine of the delivery is asking, or null. One pattern
 * for every "confirm … yes/no" of the delivery (the flow's failed-delivery and
 * failed-tick confirmations, the payment step's 'unable to pay'): a state whose
 * meta carries the spec's text and which answers CONFIRM and CANCEL. The view
 * shows that text, with the support phone filled in, in its one dialog
 * (Confirmation.tsx), which asks this of the flow and of each machine it runs.
 */
export function confirmationOf(snapshot: Snapshot<unknown>): string | null {
  // A submission's promise asks nothing; only a machine's states carry meta.
  if (!isMachineSnapshot(snapshot)) return null;
  for (const meta of Object.values(snapshot.getMeta()) as { confirmation?: string }[]) {
    if (meta?.confirmation) return fill(meta.confirmation, phoneOf(snapshot));
  }
  return null;
}

function isMachineSnapshot(snapshot: Snapshot<unknown>): snapshot is AnyMachineSnapshot {
  return typeof (snapshot as Partial<AnyMachineSnapshot>).getMeta === "function";
}

/** The support line a text's {phone} names: the flow and its payment machine both carry it in their context. */
function phoneOf(snapshot: AnyMachineSnapshot): Record<string, string> {
  const phone = (snapshot.context as { supportPhone?: unknown } | undefined)?.supportPhone;
  return typeof phone === "string" ? { phone } : {};
}
