import type { SnapshotFrom } from "xstate";
import { DELIVERY_STEPS, submittedFrom, type DeliveryStep } from "../../../domain/delivery-record.ts";
import type { deliveryFlowMachine } from "../../../machines/delivery-flow.machine.ts";

/** The URL the delivery screens show for the flow's state (spec §2 routes). */

/** The URL segment of each step (spec §2 routes). */
export const DELIVERY_STEP_PATHS: Record<DeliveryStep | "finished" | "attempted", string> = {
  address: "address",
  verifyDob: "verify-dob",
  recipient: "recipient",
  idVerification: "idverification",
  payment: "payment",
  signature: "signature",
  finished: "finished",
  attempted: "attempted",
};

export function deliveryStepOfPath(segment: string): DeliveryStep | null {
  return DELIVERY_STEPS.find((step) => DELIVERY_STEP_PATHS[step] === segment) ?? null;
}

type Snapshot = SnapshotFrom<typeof deliveryFlowMachine>;

/** The URL segment the app shows for a snapshot: a submission stays on the step it was sent from. */
export function deliveryPathOf(snapshot: Snapshot): string {
  if (snapshot.matches("finished")) return DELIVERY_STEP_PATHS.finished;
  if (snapshot.matches("attempted")) return DELIVERY_STEP_PATHS.attempted;
  if (snapshot.matches("submitting")) return DELIVERY_STEP_PATHS[submittedFrom(snapshot.context)];
  // A failed delivery being confirmed: the step that gave the reason stays on screen, under the dialog.
  if (snapshot.matches({ steps: "confirmingFailure" })) return DELIVERY_STEP_PATHS[snapshot.context.confirming?.step ?? "address"];
  const step = DELIVERY_STEPS.find((name) => snapshot.matches({ steps: name }));
  return DELIVERY_STEP_PATHS[step ?? "address"];
}
