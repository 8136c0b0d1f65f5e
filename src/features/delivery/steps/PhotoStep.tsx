import { useId, useState } from "react";
import { useSelector } from "@xstate/react";
import type { ActorRefFrom } from "xstate";
import type { photoProofMachine, PhotoProofEvent } from "../../../../machines/photo-proof.machine.ts";
import { TEXT } from "../../../../domain/texts.ts";
import { ActionButton } from "../../../ui/ActionButton.tsx";
import { OrderSummary } from "../OrderSummary.tsx";
import type { StepProps } from "./step-props.ts";

/**
 * Where nobody signs, a photo of where the medication was left, shown back
 * before Continue (the photo machine runs as the flow's child 'photo'). The phone's camera opens from a plain file input
 * (capture="environment" works on every phone, no camera permission); the image
 * code loads only once a photo is chosen.
 */
export function PhotoStep({ snapshot }: Pick<StepProps, "snapshot">) {
  const { order, groupable, groupedOrderIds } = snapshot.context;
  // The child the flow invokes with id 'photo' (children are typed by every actor the flow may run).
  const child = snapshot.children.photo as ActorRefFrom<typeof photoProofMachine> | undefined;
  const proof = useSelector(child, (state) => state);
  const photo = proof?.context.photo ?? null;
  const required = proof?.context.required ?? false;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { input: useId(), hint: useId(), title: useId() };
  const canContinue = (proof?.can({ type: "CONTINUE" }) ?? false) && !busy;
  const send = (event: PhotoProofEvent) => child?.send(event);

  const take = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const { shrinkPhoto } = await import("../photo/shrink-photo.ts");
      send({ type: "PHOTO_TAKEN", photo: await shrinkPhoto(file) });
    } catch (error) {
      setProblem(error instanceof Error && error.message ? error.message : "The photo could not be used. Take the photo again.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1 className="screen__title" id={ids.title}>
        Photo of the drop-off
      </h1>
      <OrderSummary order={order} grouped={groupable.filter((candidate) => groupedOrderIds.includes(candidate.id))} />
      <p>
        Take a photo of where you left the medication.{" "}
        <strong>{required ? "This pharmacy requires a photo." : "The photo is optional."}</strong>
      </p>

      {photo && (
        <figure className="section photo-figure">
          <img className="photo-preview" src={photo.data_url} alt="Your photo of where the medication was left" width={photo.width} height={photo.height} />
          <figcaption className="muted">
            {photo.width} × {photo.height} px · {Math.ceil(photo.bytes / 1024)} KB
          </figcaption>
        </figure>
      )}

      {busy && (
        <p className="notice notice--ok" role="status" aria-live="polite">
          Preparing the photo…
        </p>
      )}
      {problem && (
        <p className="notice notice--error" role="alert">
          {problem}
        </p>
      )}

      <div className="actions">
        <label className={`button button--block photo-take${photo ? " button--secondary" : ""}`} htmlFor={ids.input}>
          {photo ? "Retake photo" : "Take a photo"}
          <input
            id={ids.input}
            className="visually-hidden"
            type="file"
            accept="image/*"
            capture="environment"
            disabled={busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              // The same file chosen again must still fire a change.
              event.target.value = "";
              void take(file);
            }}
          />
        </label>
        {photo && (
          <ActionButton variant="secondary" onClick={() => send({ type: "PHOTO_REMOVED" })}>
            Remove photo
          </ActionButton>
        )}
        {!canContinue && !busy && (
          <p id={ids.hint} className="muted" role="status">
            This pharmacy requires a photo of the drop-off.
          </p>
        )}
        <ActionButton disabled={!canContinue} aria-describedby={!canContinue && !busy ? ids.hint : undefined} onClick={() => send({ type: "CONTINUE" })}>
          {TEXT.continue}
        </ActionButton>
        <ActionButton variant="secondary" onClick={() => send({ type: "BACK" })}>
          Back
        </ActionButton>
      </div>
    </>
  );
}
