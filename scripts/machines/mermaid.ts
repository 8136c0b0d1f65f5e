import type { MachineModel, StateModel, TransitionModel } from "../../src/features/machines/machine-model.ts";

/**
 * A Mermaid stateDiagram-v2 of a machine model (GitHub renders it).
 *
 * Mermaid puts a state in the last nested block that mentions it, so every
 * state is declared in its parent's block and every transition is written at
 * the top level, where a mention moves nothing. Transitions that stay in
 * their state (actions only) and those on the machine itself are not drawn;
 * the event table lists them.
 */

const KEYWORDS = new Set(["end", "state", "note", "direction", "class", "classdef", "style", "click", "as", "default", "root"]);

function mermaidIds(model: MachineModel): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  const visit = (state: StateModel) => {
    for (const child of state.children) {
      let id = child.path.replace(/[^A-Za-z0-9]/g, "_");
      if (KEYWORDS.has(id.toLowerCase())) id = `${id}_`;
      while (used.has(id)) id = `${id}_`;
      used.add(id);
      ids.set(child.id, id);
      visit(child);
    }
  };
  visit(model.root);
  return ids;
}

/** Mermaid reads ";" as a statement end and "#" as an entity; quotes end a name. */
function clean(text: string): string {
  return text.replace(/;/g, ",").replace(/#/g, "no. ").replace(/"/g, "'");
}

export function transitionLabel(transition: TransitionModel): string {
  return transition.guard ? `${transition.label} [${transition.guard}]` : transition.label;
}

export function machineMermaid(model: MachineModel): string {
  const ids = mermaidIds(model);
  const lines = ["stateDiagram-v2"];
  const declare = (parent: StateModel, indent: string) => {
    // Mermaid's region separator is only allowed inside a block: a parallel machine's regions stand side by side.
    const regions = parent.type === "parallel" && parent !== model.root;
    parent.children.forEach((child, index) => {
      if (regions && index > 0) lines.push(`${indent}--`);
      const id = ids.get(child.id)!;
      const name = clean(child.type === "history" ? `${child.key} (history)` : child.key);
      if (child.children.length > 0) {
        lines.push(`${indent}state "${name}" as ${id} {`);
        declare(child, `${indent}  `);
        lines.push(`${indent}}`);
      } else {
        lines.push(`${indent}state "${name}" as ${id}`);
      }
      if (child.type === "final") lines.push(`${indent}${id} --> [*]`);
    });
    if (parent.initial) lines.push(`${indent}[*] --> ${ids.get(parent.initial)}`);
  };
  declare(model.root, "  ");
  const drawFrom = (state: StateModel) => {
    for (const transition of state.transitions) {
      for (const target of transition.targets) lines.push(`  ${ids.get(state.id)} --> ${ids.get(target)} : ${clean(transitionLabel(transition))}`);
    }
    state.children.forEach(drawFrom);
  };
  // The machine's own transitions have no node to start from: the event table lists them.
  model.root.children.forEach(drawFrom);
  return lines.join("\n");
}
