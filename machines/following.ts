import type { AnyActorRef } from "xstate";
import type { Order } from "../domain/contract/entities.ts";

/**
 * A flow that shows the day (check-in, returns) asks the day, and the
 * offline queue, to tell it what changes: FOLLOW when it starts, UNFOLLOW
 * when it ends. They answer at once with how things are, then after every
 * change, with the events below. No actor reads another's snapshot.
 */
export type FollowEvent = { type: "FOLLOW"; follower: AnyActorRef } | { type: "UNFOLLOW"; follower: AnyActorRef };

/** What the day tells the flows that follow it: its orders, after a refresh or any flow's change. */
export interface DayChanged {
  type: "DAY_CHANGED";
  orders: Order[];
}

/** What the offline queue tells the flows that follow it: whether orders stored on the device still wait to be resubmitted. */
export interface QueueChanged {
  type: "QUEUE_CHANGED";
  incompleteOffline: boolean;
}
