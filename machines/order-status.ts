import { transition } from "xstate";
import type { OrderStatusName } from "../domain/vocabulary.ts";
import { createOrderLifecycleMachine, type OrderLifecycleContext, type OrderLifecycleEvent } from "./order-lifecycle.definition.ts";

/** Built on the first status computed: the screens that load this module (check-in, delivery, returns) compute one only when the courier records something. */
let lifecycle: ReturnType<typeof createOrderLifecycleMachine> | undefined;
const orderLifecycle = () => (lifecycle ??= createOrderLifecycleMachine());

/**
 * The status an order moves to on an event, or null when the lifecycle
 * refuses it. Both the server (409) and the app's local copy use this.
 */
export function nextOrderStatus(
  status: OrderStatusName,
  event: OrderLifecycleEvent["type"],
  context: Partial<OrderLifecycleContext> = {},
): OrderStatusName | null {
  const machine = orderLifecycle();
  const snapshot = machine.resolveState({
    value: status,
    context: { paymentType: context.paymentType ?? null, paymentCollected: context.paymentCollected ?? false },
  });
  if (!snapshot.can({ type: event })) return null;
  const [next] = transition(machine, snapshot, { type: event });
  return next.value as OrderStatusName;
}

/** The lifecycle event that moves an order from one status to another, if any does. */
export function eventBetween(
  from: OrderStatusName,
  to: OrderStatusName,
  context: Partial<OrderLifecycleContext> = {},
): OrderLifecycleEvent["type"] | null {
  const events: OrderLifecycleEvent["type"][] = [
    "SUBMIT_TO_COURIER", "UNASSIGN", "VERIFY", "PICK_UP", "CANCEL", "DELIVER", "ATTEMPT_DELIVERY", "RETURN_TO_PHARMACY", "RECONCILE",
  ];
  return events.find((event) => nextOrderStatus(from, event, context) === to) ?? null;
}
