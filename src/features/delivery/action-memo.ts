import { newIdempotencyKey } from "../../offline/idempotency.ts";

/**
 * What each courier action was sent with — its Idempotency-Key, and the
 * location of a completion — kept with the flow's saved snapshot. A reload
 * while a call is in flight restarts that call (the machine resumes in its
 * submitting state); it must go out as the same request, or the server would
 * record the delivery twice or refuse the changed body. A Retry tap is a new
 * action and gets a fresh key.
 */
export type MemoValue = string | number | boolean | null | { [key: string]: MemoValue };

export interface ActionMemo {
  /** The Idempotency-Key of one action (e.g. "delivery:2026-11-21T15:30:00.000Z"), made on first use. */
  keyFor(action: string): string;
  /** A value fixed on first use for one action. */
  once<T extends MemoValue>(name: string, make: () => T): T;
  /** Forget every action: the next send is a new courier action. */
  forgetAll(): void;
  /** Everything remembered, for storage. */
  entries(): Record<string, MemoValue>;
}

export function createActionMemo(initial: Record<string, MemoValue> = {}): ActionMemo {
  let memo: Record<string, MemoValue> = { ...initial };
  const once = <T extends MemoValue>(name: string, make: () => T): T => {
    if (!(name in memo)) {
      memo = { ...memo, [name]: make() };
    }
    return memo[name] as T;
  };
  return {
    keyFor: (action) => once(`key:${action}`, newIdempotencyKey),
    once,
    forgetAll() {
      memo = {};
    },
    entries: () => memo,
  };
}
