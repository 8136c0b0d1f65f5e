import type { MachineModel, StateModel } from "./machine-model.ts";

/**
 * The layered reading order of a state's children: the first state, then the
 * states one transition away, then two, and so on (a transition from deep
 * inside a child counts for the child); those no transition reaches come last.
 */
export function layeredChildren(parent: StateModel): StateModel[] {
  if (parent.type === "parallel" || parent.children.length < 2) return parent.children;
  const childOf = new Map<string, StateModel>();
  const index = (child: StateModel, node: StateModel) => {
    childOf.set(node.id, child);
    node.children.forEach((grandchild) => index(child, grandchild));
  };
  parent.children.forEach((child) => index(child, child));
  const next = new Map<StateModel, Set<StateModel>>(parent.children.map((child) => [child, new Set()]));
  const collect = (child: StateModel, node: StateModel) => {
    for (const transition of node.transitions) {
      for (const target of transition.targets) {
        const to = childOf.get(target);
        if (to && to !== child) next.get(child)!.add(to);
      }
    }
    node.children.forEach((grandchild) => collect(child, grandchild));
  };
  parent.children.forEach((child) => collect(child, child));
  const first = parent.children.find((child) => child.id === parent.initial) ?? parent.children[0]!;
  const ordered: StateModel[] = [first];
  for (let i = 0; i < ordered.length; i++) {
    // Sibling order breaks ties, so the layout follows the machine's own order where it can.
    const reached = parent.children.filter((child) => next.get(ordered[i]!)!.has(child) && !ordered.includes(child));
    ordered.push(...reached);
  }
  return [...ordered, ...parent.children.filter((child) => !ordered.includes(child))];
}

/** The ids of the states a state value (snapshot.value) says are active; unknown keys are ignored. */
export function activeStateIds(model: MachineModel, value: unknown): Set<string> {
  const active = new Set<string>();
  const walk = (state: StateModel, part: unknown) => {
    const keys = typeof part === "string" ? [part] : part && typeof part === "object" ? Object.keys(part) : [];
    for (const key of keys) {
      const child = state.children.find((candidate) => candidate.key === key);
      if (!child) continue;
      active.add(child.id);
      if (part && typeof part === "object") walk(child, (part as Record<string, unknown>)[key]);
    }
  };
  walk(model.root, value);
  return active;
}

/** The innermost active states: where the courier is. */
export function deepestActive(model: MachineModel, active: ReadonlySet<string>): StateModel[] {
  const found: StateModel[] = [];
  const visit = (state: StateModel) => {
    for (const child of state.children) {
      if (!active.has(child.id)) continue;
      if (child.children.some((grandchild) => active.has(grandchild.id))) visit(child);
      else found.push(child);
    }
  };
  visit(model.root);
  return found;
}
