import { useSelector } from "@xstate/react";
import { Link } from "react-router";
import type { Order, Pharmacy } from "../../../domain/contract/entities.ts";
import { SCAN_TEXT } from "../../../domain/label-scan.ts";
import { formatUsd } from "../../../domain/money.ts";
import { bagsToReturn, linesOfKind, totalOfKind, type ReturnDetailKind } from "../../../domain/returns.ts";
import { TEXT } from "../../../domain/texts.ts";
import { ActionButton } from "../../ui/ActionButton.tsx";
import { CheckIcon } from "../../ui/icons.tsx";
import { ScanButton } from "../../ui/scanner/ScanButton.tsx";
import { ScannerPanel } from "../../ui/scanner/ScannerPanel.tsx";
import { useLabelScanner } from "../../ui/scanner/use-label-scanner.ts";
import { KIND_TITLES } from "./return-words.ts";
import type { ReturnsActor } from "./returns-actor.ts";
import { ReturnsHeader } from "./ReturnsHeader.tsx";

const KINDS: ReturnDetailKind[] = ["orders", "cash", "check"];
const ordersCount = (count: number) => `${count} ${count === 1 ? "order" : "orders"}`;

/** /pharmacies/{id}/reconcile: what goes back — items, cash, check — with totals and links to the lines. */
export function ReturnsSummaryScreen({ actor, pharmacy }: { actor: ReturnsActor; pharmacy: Pharmacy }) {
  const state = useSelector(actor, (snapshot) =>
    snapshot.matches("blocked") ? "blocked" : snapshot.matches("nothingToReturn") ? "nothing" : "summary",
  );
  const summary = useSelector(actor, (snapshot) => snapshot.context.summary);
  const orders = useSelector(actor, (snapshot) => snapshot.context.orders);
  const ticked = useSelector(actor, (snapshot) => snapshot.context.tickedOrderIds);
  const scanner = useLabelScanner(actor);
  const bags = bagsToReturn(orders, summary);

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
          {!scanner && bags.length > 0 && (
            <div className="scan-row">
              <p className="muted">{SCAN_TEXT.returnsOffer}</p>
              <ScanButton onScan={() => actor.send({ type: "SCAN" })} />
            </div>
          )}
          {scanner && <ScannerPanel scanner={scanner} hint={SCAN_TEXT.returnsHint} />}
          {(scanner || ticked.length > 0) && <BagTicks bags={bags} ticked={ticked} />}
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

/** The bags going back, each ticked off once its label was read: a check, not a step. */
function BagTicks({ bags, ticked }: { bags: Order[]; ticked: number[] }) {
  const count = bags.filter((bag) => ticked.includes(bag.id)).length;
  return (
    <section className="section" aria-labelledby="bag-ticks-title">
      <h2 id="bag-ticks-title" className="section__title">
        Bags handed back: {count} of {bags.length}
      </h2>
      <ul className="list">
        {bags.map((bag) => {
          const done = ticked.includes(bag.id);
          return (
            <li key={bag.id} className={`card bag-row${done ? " bag-row--ticked" : ""}`}>
              <div>
                <p>
                  <strong>
                    {bag.patient_first_name} {bag.patient_last_name}
                  </strong>
                </p>
                <p className="muted">RX {bag.rx_numbers.join(", ")}</p>
              </div>
              <span className="bag-row__tick" role="img" aria-label={done ? "handed back" : "not scanned yet"}>
                <CheckIcon />
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
