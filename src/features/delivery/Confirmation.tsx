import { useSelector } from "@xstate/react";
import type { AnyActorRef } from "xstate";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { confirmationOf } from "./confirmation.ts";

/**
 * The delivery's one confirmation dialog. Whichever machine of the flow asks
 * (the flow, or a machine it runs: the payment step's 'unable to pay'), the
 * dialog is this one, its text is read by confirmationOf, and the courier's
 * answer goes to the machine that asked. A machine's meta covers only its own
 * states, so each running child is watched where it runs.
 */
export function Confirmation({ actor }: { actor: AnyActorRef }) {
  const snapshot = useSelector(actor, (state) => state);
  const message = confirmationOf(snapshot);
  if (message) {
    return <ConfirmDialog message={message} onConfirm={() => actor.send({ type: "CONFIRM" })} onCancel={() => actor.send({ type: "CANCEL" })} />;
  }
  const children = Object.entries((snapshot.children ?? {}) as Record<string, AnyActorRef | undefined>);
  return (
    <>
      {children.map(([id, child]) => (child ? <Confirmation key={id} actor={child} /> : null))}
    </>
  );
}
