import { Link } from "react-router";
import { TEXT } from "../../../../domain/texts.ts";
import { CheckIcon, ReturnIcon } from "../../../ui/icons.tsx";

/** Spec §2 …/finished and …/attempted. */
export function OutcomeScreen({ outcome, listPath, queued = false }: { outcome: "finished" | "attempted"; listPath: string; queued?: boolean }) {
  const delivered = outcome === "finished";
  return (
    <section className="outcome" aria-labelledby="outcome-title">
      <span className={`outcome__icon ${delivered ? "" : "outcome__icon--attempted"}`}>{delivered ? <CheckIcon /> : <ReturnIcon />}</span>
      <h1 id="outcome-title" className={`screen__title outcome__title ${delivered ? "" : "outcome__title--attempted"}`}>
        {delivered ? TEXT.delivered : TEXT.attempted}
      </h1>
      {queued && <p className="notice notice--warn">{TEXT.incompleteOrderBanner}</p>}
      <Link className="button button--block" to={listPath}>
        {TEXT.backToOrders}
      </Link>
    </section>
  );
}
