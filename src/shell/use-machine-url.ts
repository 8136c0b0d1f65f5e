import { useSelector } from "@xstate/react";
import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import type { ActorRef, EventObject, Snapshot } from "xstate";

export interface MachineUrl<TSnapshot extends Snapshot<unknown>, TEvent extends EventObject, TEmitted extends EventObject> {
  /** The current URL as the feature reads it (canonical), or null when it is none of the machine's (left alone). */
  url: string | null;
  /** The URL a snapshot stands for, or null for none (a finished flow: see `whenDone`). */
  pathOf: (snapshot: TSnapshot) => string | null;
  /** The event that asks the machine for a URL (a deep link, the back button), or null: the URL is then put back. */
  eventFor: (url: string) => TEvent | null;
  /** Where the app goes once the machine is done, and whether that replaces the URL it was on. */
  whenDone?: { to: (snapshot: TSnapshot) => string; replace: boolean };
  /** Emitted events that move the courier on (pushed): the URL for each. */
  onEmitted?: { [K in TEmitted["type"]]?: (event: Extract<TEmitted, { type: K }>) => string };
}

/**
 * The one way a flow's machine and the URL stay in step. A new URL (a deep
 * link, the back button) is asked of the machine; where the machine lands the
 * URL follows: replaced when it corrected the URL (a refused step), pushed when
 * the machine moved by itself (a button), so the back button walks the steps.
 */
export function useMachineUrl<TSnapshot extends Snapshot<unknown>, TEvent extends EventObject, TEmitted extends EventObject>(
  actor: ActorRef<TSnapshot, TEvent, TEmitted>,
  options: MachineUrl<TSnapshot, TEvent, TEmitted>,
): void {
  const navigate = useNavigate();
  // The feature's functions are read fresh; only the URL and the machine's path decide when to act.
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const path = useSelector(actor, (snapshot) => options.pathOf(snapshot));
  const { url } = options;

  // The URL last seen (undefined before the first look, so a deep link is asked of the machine).
  const seen = useRef<string | null | undefined>(undefined);
  // A navigation under way: the router may take a while (a lazy route); it is not repeated meanwhile.
  const navigatingTo = useRef<string | null>(null);
  useEffect(() => {
    const urlMoved = seen.current !== url;
    seen.current = url;
    if (url === null) return;
    const { pathOf, eventFor } = latest.current;
    let landed = pathOf(actor.getSnapshot());
    if (landed === null || landed === url || navigatingTo.current === landed) return;
    if (urlMoved) {
      const event = eventFor(url);
      if (event) actor.send(event);
      landed = pathOf(actor.getSnapshot());
      if (landed === null || landed === url) return;
      navigatingTo.current = landed;
      void navigate(landed, { replace: true });
    } else {
      navigatingTo.current = landed;
      void navigate(landed);
    }
  }, [actor, navigate, path, url]);
  useEffect(() => {
    if (navigatingTo.current === url) navigatingTo.current = null;
  }, [url]);

  useEffect(() => {
    const subscription = actor.subscribe((snapshot) => {
      const done = latest.current.whenDone;
      if (done && snapshot.status === "done") void navigate(done.to(snapshot), { replace: done.replace });
    });
    return () => subscription.unsubscribe();
  }, [actor, navigate]);

  useEffect(() => {
    const subscription = actor.on("*", (event) => {
      const to = (latest.current.onEmitted as Record<string, ((emitted: TEmitted) => string) | undefined> | undefined)?.[event.type];
      if (to) void navigate(to(event));
    });
    return () => subscription.unsubscribe();
  }, [actor, navigate]);
}
