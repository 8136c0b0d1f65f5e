import { useSelector } from "@xstate/react";
import { Link } from "react-router";
import type { Pharmacy } from "../../../domain/contract/entities.ts";
import { formatUsd } from "../../../domain/money.ts";
import { linesOfKind, totalOfKind, type ReturnDetailKind } from "../../../domain/returns.ts";
import { TEXT } from "../../../domain/texts.ts";
import { ActionButton } from "../../ui/ActionButton.tsx";
import { KIND_TITLES } from "./return-words.ts";
import type { ReturnsActor } from "./ReturnsRoute.tsx";
import { ReturnsHeader } from "./ReturnsHeader.tsx";

const KINDS: ReturnDetailKind[] = ["orders", "cash", "check"];
const ordersCount = (count: number) => `${count} ${count === 1 ? "order" : "orders"}`;

/** /pharmacies/{id}/reconcile: what goes back — items, cash, check — with totals and links to the lines. */
export function ReturnsSummaryScreen({ actor, pharmacy }: { actor: ReturnsActor; pharmacy: Pharmacy }) {
  const state = useSelector(actor, (snapshot) =>
    snapshot.matches("blocked") ? "blocked" : snapshot.matches("nothingToReturn") ? "nothing" : "summary",
  );
  const summary = useSelector(actor, (snapshot) => snapshot.context.summary);

  return (
    <main className="screen">
      <ReturnsHeader title="Returns" pharmacyName={pharmacy.name} back={{ to: "/pharmacies", label: "Pharmacies" }} />
      {state === "blocked" && (
        <p className="notice notice--warn" role="alert">
          {TEXT.incompleteOrdersReturnsAlert}
        </p>
      )}
      {state === "nothing" && (
        <div className="stack">
          <p className="notice notice--ok" role="status">
            Nothing is left to return to {pharmacy.name}.
          </p>
          <Link className="button button--block" to="/pharmacies">
            Back to pharmacies
          </Link>
        </div>
      )}
      {state === "summary" && (
        <>
          <p className="lead">Hand these to the pharmacy staff, then ask them to sign for the items.</p>
          <ul className="list" aria-label="What goes back to the pharmacy">
            {KINDS.map((kind) => {
              const count = linesOfKind(summary, kind).length;
              const total = formatUsd(totalOfKind(summary, kind));
              const label = (
                <span className="returns-row__main">
                  <span className="returns-row__title">{KIND_TITLES[kind]}</span>
                  <span className="muted">{count === 0 ? "None" : ordersCount(count)}</span>
                </span>
              );
              return (
                <li key={kind}>
                  {count === 0 ? (
                    <div className="row-link returns-row">
                      {label}
                      <span className="returns-row__amount">{total}</span>
                    </div>
                  ) : (
                    <button
                      type="button"
                      className="row-link row-link--button returns-row"
                      onClick={() => actor.send({ type: "VIEW_DETAILS", kind })}
                    >
                      {label}
                      <span className="returns-row__amount">
                        {total}
                        <span className="row-link__action returns-row__more" aria-hidden="true">
                          Details
                        </span>
                      </span>
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
          <div className="actions">
            <ActionButton onClick={() => actor.send({ type: "SIGN" })}>{TEXT.continue}</ActionButton>
          </div>
        </>
      )}
    </main>
  );
}
