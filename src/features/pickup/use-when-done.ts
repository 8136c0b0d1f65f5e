import { useEffect, useRef } from "react";

interface Finishing<TOutput> {
  status: string;
  output?: TOutput | undefined;
}

interface Subscribable<TOutput> {
  getSnapshot(): Finishing<TOutput>;
  subscribe(next: (snapshot: Finishing<TOutput>) => void): { unsubscribe(): void };
}

/**
 * Runs `onDone` once when the actor reaches its final state — also when it
 * was already final by the time the screen subscribed (a machine whose first
 * state decides there is nothing to do).
 */
export function useWhenDone<TOutput>(actor: Subscribable<TOutput>, onDone: (output: TOutput) => void): void {
  const handler = useRef(onDone);
  const handled = useRef(false);
  useEffect(() => {
    handler.current = onDone;
  });
  useEffect(() => {
    const check = (snapshot: Finishing<TOutput>) => {
      if (handled.current || snapshot.status !== "done" || snapshot.output == null) return;
      handled.current = true;
      handler.current(snapshot.output);
    };
    check(actor.getSnapshot());
    const subscription = actor.subscribe(check);
    return () => subscription.unsubscribe();
  }, [actor]);
}
