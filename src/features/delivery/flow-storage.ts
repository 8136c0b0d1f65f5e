import type { MemoValue } from "./action-memo.ts";

/**
 * A delivery in progress survives a reload (issue 4): the flow machine's
 * persisted snapshot — plain JSON: the step, what was entered, a signature's
 * SVG — is kept per order in localStorage with what each action was sent with.
 * Never card data: the payment step is saved as "no method chosen yet" while
 * the card fields are up, since they (and what was typed in them) cannot
 * survive a reload anyway. Entries are for one courier and day only, and are
 * removed when the delivery is finished or attempted.
 */

const PREFIX = "rxc-delivery-flow:";
const VERSION = 1;

export interface StoredFlow {
  version: typeof VERSION;
  courierId: number;
  /** The courier's day (YYYY-MM-DD). */
  day: string;
  snapshot: unknown;
  memo: Record<string, MemoValue>;
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    // Storage disabled (private mode, policy): the flow still works, it just does not survive a reload.
    return null;
  }
}

const keyOf = (orderId: number) => `${PREFIX}${orderId}`;

function read(key: string): StoredFlow | null {
  try {
    const raw = storage()?.getItem(key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredFlow>;
    if (parsed.version !== VERSION || typeof parsed.courierId !== "number" || typeof parsed.day !== "string") return null;
    if (typeof parsed.snapshot !== "object" || parsed.snapshot === null) return null;
    return { version: VERSION, courierId: parsed.courierId, day: parsed.day, snapshot: parsed.snapshot, memo: parsed.memo ?? {} };
  } catch {
    return null;
  }
}

/** The saved flow of this order for this courier and day; anything else found under its key is removed. */
export function loadFlow(orderId: number, courierId: number, day: string): StoredFlow | null {
  const flow = read(keyOf(orderId));
  if (flow && flow.courierId === courierId && flow.day === day) return flow;
  clearFlow(orderId);
  return null;
}

export function saveFlow(orderId: number, flow: Omit<StoredFlow, "version">): void {
  try {
    storage()?.setItem(keyOf(orderId), JSON.stringify({ ...flow, version: VERSION, snapshot: withoutCardFields(flow.snapshot) }));
  } catch {
    // Quota or storage refused: the delivery goes on; only a reload would lose the step.
  }
}

export function clearFlow(orderId: number): void {
  try {
    storage()?.removeItem(keyOf(orderId));
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/** Patient data of another courier or day has no business on the device. */
export function purgeStaleFlows(courierId: number, day: string): void {
  const store = storage();
  if (!store) return;
  for (const key of flowKeys(store)) {
    const flow = read(key);
    if (!flow || flow.courierId !== courierId || flow.day !== day) store.removeItem(key);
  }
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The payment child while the card fields are up (state card.*) is saved as
 * the choosing state with no method: on reload the courier picks card again
 * and the fields are set up afresh.
 */
export function withoutCardFields(snapshot: unknown): unknown {
  if (!isObject(snapshot) || !isObject(snapshot.children)) return snapshot;
  const payment = snapshot.children.payment;
  if (!isObject(payment) || !isObject(payment.snapshot)) return snapshot;
  const child = payment.snapshot;
  if (!isObject(child.value) || !("card" in child.value) || !isObject(child.context)) return snapshot;
  const context = { ...child.context, method: null, cardFields: { number: false, cvv: false, expiration: false }, error: null };
  return {
    ...snapshot,
    children: { ...snapshot.children, payment: { ...payment, snapshot: { ...child, value: "choosing", context, children: {} } } },
  };
}

/** A saved flow in the middle of sending a delivery call: it must be resumed, whatever the order's status says. */
export function isSubmitting(flow: StoredFlow): boolean {
  const value = isObject(flow.snapshot) ? flow.snapshot.value : null;
  return isObject(value) && Object.keys(value).some((state) => state.startsWith("submitting"));
}

/** Logout: every delivery in progress leaves the device with the courier. */
export function clearAllFlows(): void {
  const store = storage();
  if (!store) return;
  for (const key of flowKeys(store)) store.removeItem(key);
}

function flowKeys(store: Storage): string[] {
  const keys: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key?.startsWith(PREFIX)) keys.push(key);
  }
  return keys;
}
