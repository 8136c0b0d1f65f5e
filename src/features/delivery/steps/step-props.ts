import type { SnapshotFrom } from "xstate";
import type { DeliveryFlowEvent, deliveryFlowMachine } from "../../../../machines/delivery-flow.machine.ts";

export type DeliveryFlowSnapshot = SnapshotFrom<typeof deliveryFlowMachine>;

/** Every step renders the flow's snapshot and sends it the courier's events. */
export interface StepProps {
  snapshot: DeliveryFlowSnapshot;
  send: (event: DeliveryFlowEvent) => void;
}
