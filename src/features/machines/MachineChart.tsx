import { allStates, conditionWords, nameToWords, type MachineModel, type StateModel, type TransitionModel } from "./machine-model.ts";
import { layeredChildren } from "./chart-layout.ts";

/**
 * One machine drawn as a statechart of nested boxes: each state with what it
 * means and the transitions that leave it (event, condition in words, where it
 * goes), children inside their parent in layered order. HTML, not a picture,
 * so it reads on a phone and to a screen reader; the active states are marked.
 */

interface ChartProps {
  model: MachineModel;
  active: ReadonlySet<string>;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
export const stateTitle = (key: string) => capitalise(nameToWords(key));

function eventText(transition: TransitionModel): string {
  const src = transition.label.replace(/^(done|error): /, "");
  switch (transition.kind) {
    case "always":
      return "At once";
    case "done":
      return `${src} succeeded`;
    case "error":
      return `${src} failed`;
    case "stateDone":
      return "When finished";
    case "after":
      return capitalise(transition.label);
    default:
      return transition.label;
  }
}

function targetName(model: MachineModel, id: string): string {
  const states = allStates(model);
  const target = states.find((state) => state.id === id);
  if (!target) return id;
  if (states.filter((state) => state.key === target.key).length === 1) return stateTitle(target.key);
  const parentPath = target.path.split(".").slice(-2, -1)[0];
  return parentPath ? `${stateTitle(parentPath)} › ${nameToWords(target.key)}` : stateTitle(target.key);
}

function Move({ model, state, transition }: { model: MachineModel; state: StateModel; transition: TransitionModel }) {
  const when = conditionWords(transition, state);
  const targets = transition.targets.map((id) => targetName(model, id)).join(", ");
  return (
    <li className="chart__move">
      <span className="chart__event">{eventText(transition)}</span>
      <span className="chart__to">
        <span aria-hidden="true">→ </span>
        <span className="visually-hidden">goes to </span>
        {targets || <span className="muted">stays here</span>}
      </span>
      {when && <span className="chart__when">{when === "otherwise" ? "otherwise" : `if ${when}`}</span>}
    </li>
  );
}

function StateBox({ model, state, parent, active, depth }: { model: MachineModel; state: StateModel; parent: StateModel; active: ReadonlySet<string>; depth: number }) {
  const isActive = active.has(state.id);
  const here = isActive && !state.children.some((child) => active.has(child.id));
  const Heading = (["h3", "h4", "h5", "h6"] as const)[Math.min(depth, 3)]!;
  const className = ["chart__state", isActive && "chart__state--active", here && "chart__state--here", state.type === "final" && "chart__state--final"]
    .filter(Boolean)
    .join(" ");
  return (
    <li className={className} aria-current={here ? "step" : undefined} data-state={state.path}>
      <div className="chart__head">
        <Heading className="chart__title">{stateTitle(state.key)}</Heading>
        {parent.initial === state.id && <span className="badge">start</span>}
        {state.type === "final" && <span className="badge">end</span>}
        {here && <span className="badge chart__here">Courier is here</span>}
      </div>
      {state.description && <p className="chart__description">{state.description}</p>}
      {state.invokes.length > 0 && (
        <p className="chart__runs">Calls {state.invokes.map((invoke) => invoke.src).join(", ")}, then waits for its answer.</p>
      )}
      {state.transitions.length > 0 && (
        <ul className="chart__moves" aria-label={`Ways out of ${stateTitle(state.key)}`}>
          {state.transitions.map((transition, index) => (
            <Move key={index} model={model} state={state} transition={transition} />
          ))}
        </ul>
      )}
      {state.children.length > 0 && <StateList model={model} parent={state} active={active} depth={depth + 1} />}
    </li>
  );
}

function StateList({ model, parent, active, depth }: { model: MachineModel; parent: StateModel; active: ReadonlySet<string>; depth: number }) {
  return (
    <>
      {parent.type === "parallel" && <p className="chart__parallel">These run at the same time:</p>}
      <ol className={parent.type === "parallel" ? "chart chart--parallel" : "chart"}>
        {layeredChildren(parent).map((child) => (
          <StateBox key={child.id} model={model} state={child} parent={parent} active={active} depth={depth} />
        ))}
      </ol>
    </>
  );
}

export function MachineChart({ model, active }: ChartProps) {
  const anywhere = model.root.transitions;
  return (
    <div className="chart-frame">
      {anywhere.length > 0 && (
        <ul className="chart__moves chart__moves--anywhere" aria-label="In any state">
          {anywhere.map((transition, index) => (
            <Move key={index} model={model} state={model.root} transition={transition} />
          ))}
        </ul>
      )}
      <StateList model={model} parent={model.root} active={active} depth={0} />
    </div>
  );
}
