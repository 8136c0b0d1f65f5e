import { startTransition, useLayoutEffect, useState } from "react";
import type { AnyActorRef } from "xstate";

/**
 * An actor that `parent` starts in its own system when the component mounts:
 * `open` sends the event that starts it (from a layout effect: rendering sends
 * nothing) and returns what closes it, if anything; `read` finds it in the
 * parent's system. The component follows `parent` from that same layout
 * effect, so the opened actor is rendered before the browser paints. (Read
 * through useSyncExternalStore — useSelector — it was not: that subscription
 * starts in a passive effect, which after a transition's render (a route
 * change, a deferred value) runs in a later task, so the screen first painted
 * a frame with nothing where the actor's view goes, and rendered again in
 * another task: issue 29.) `read` and `open` must keep their identity (made
 * once, with useState).
 *
 * `inSlices`: the opened actor is rendered in a transition instead, in slices
 * after that paint, for a screen whose first frame is not seen as empty (the
 * page's splash is what the component shows meanwhile): rendered before the
 * paint, the whole screen is one task of the commit that opened it, which on a
 * slow phone is a long one (issue 29).
 */
export function useOpenedActor<T extends AnyActorRef>(
  parent: AnyActorRef,
  read: () => T | undefined,
  open: () => (() => void) | void,
  { inSlices = false }: { inSlices?: boolean } = {},
): T | undefined {
  const [actor, setActor] = useState(read);
  useLayoutEffect(() => {
    const follow = () => {
      const next = read();
      if (inSlices) startTransition(() => setActor(next));
      else setActor(next);
    };
    const subscription = parent.subscribe(follow);
    const close = open();
    return () => {
      subscription.unsubscribe();
      close?.();
    };
  }, [parent, read, open, inSlices]);
  return actor;
}
