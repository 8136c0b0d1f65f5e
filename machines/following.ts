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

/** The followers after a FOLLOW (added, once) or an UNFOLLOW (removed). */
export function followersAfter(followers: AnyActorRef[], event: FollowEvent): AnyActorRef[] {
  const others = followers.filter((ref) => ref !== event.follower);
  return event.type === "FOLLOW" ? [...others, event.follower] : others;
}

/**
 * The news for the new follower after a FOLLOW (how things are now), for
 * every follower after a change. A plain loop in an action, not
 * enqueueActions: the day and the queue are in the first screen's bundle,
 * and it would add to it.
 */
export function tell(followers: readonly AnyActorRef[], event: { type: string; follower?: AnyActorRef }, news: DayChanged | QueueChanged): void {
  for (const follower of event.type === "FOLLOW" ? [event.follower!] : followers) follower.send(news);
}
