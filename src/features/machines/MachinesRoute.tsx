import { useMemo } from "react";
import { useLiveMachineState } from "../../shell/live-machine-state.ts";
import { allStates, nameToWords } from "./machine-model.ts";
import { activeStateIds, deepestActive } from "./chart-layout.ts";
import { MACHINES, type CatalogueEntry } from "./catalogue.ts";
import { MachineChart, stateTitle } from "./MachineChart.tsx";
import "./machines.css";

/**
 * /machines, "How the app works": every machine of the app drawn from its
 * definition, for product owners; during a delivery the courier's step is
 * marked. Loaded on demand: the courier's screens carry none of it.
 */
export function Component() {
  return (
    <main className="screen machines">
      <h1 className="screen__title">How the app works</h1>
      <p className="lead">
        Every screen follows one of these state machines. Open one to see its states, what each means, and what moves the
        app from one to the next. During a delivery, the step the courier is on is marked.
      </p>
      <ul className="list">
        {MACHINES.map((entry) => (
          <li key={entry.name}>
            <MachineSection entry={entry} />
          </li>
        ))}
      </ul>
    </main>
  );
}

function MachineSection({ entry }: { entry: CatalogueEntry }) {
  const { model } = entry;
  const live = useLiveMachineState(model.id);
  const active = useMemo(() => activeStateIds(model, live), [model, live]);
  const here = deepestActive(model, active);
  const title = stateTitle(model.id);
  const transitions = allStates(model).reduce((sum, state) => sum + state.transitions.length, model.root.transitions.length);
  return (
    <details className="machine" open={here.length > 0 || undefined}>
      <summary className="machine__summary">
        <h2 className="machine__title">{title}</h2>
        {model.description && <span className="machine__description">{model.description}</span>}
        <span className="machine__counts muted">
          {allStates(model).length} states · {transitions} transitions
        </span>
        {here.length > 0 && (
          <span className="badge chart__here">
            Courier is here: {here.map((state) => state.path.split(".").map(nameToWords).join(" › ")).join(", ")}
          </span>
        )}
      </summary>
      <MachineChart model={model} active={active} />
    </details>
  );
}
