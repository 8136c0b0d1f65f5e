/**
 * Local search over a working plan: relocate (a task, with its pickup when it
 * has one, taken out and put back at its cheapest feasible place in any used
 * route, its own included: Or-opt of one task within a route, relocate
 * between routes) and exchange (two tasks of different routes, each put back
 * at its cheapest feasible place in the other's route). Both keep a pickup and
 * its delivery together and judge every insertion with the O(1) slack checks
 * of solution.ts; a move is applied only when it shortens the plan (or empties
 * a route) and both routes re-time feasibly, otherwise the routes are put back
 * exactly as they were.
 */
import type { Model } from "./model.ts";
import type { Route, Solution } from "./solution.ts";

/** Below this, a saving is rounding, not a saving (and would let the descent cycle). */
const SAVING = 1e-7;

export class LocalSearch {
  private readonly model: Model;
  /** The tasks a move tried to exchange with: a few of the nearest stops' tasks. */
  private readonly exchangeWith: number;

  constructor(
    private readonly solution: Solution,
    private readonly neighbours: Int32Array,
    private readonly neighbourCount: number,
    private readonly random: () => number,
    exchangeWith = 8,
  ) {
    this.model = solution.model;
    this.exchangeWith = Math.min(exchangeWith, neighbourCount);
  }

  /**
   * Takes `task` off its route and puts it back at its cheapest feasible place
   * when that is shorter (or empties the route). True when it moved; the
   * routes changed are added to `touched`.
   */
  relocate(task: number, touched?: Set<number>): boolean {
    const s = this.solution;
    const from = s.nodeRoute[task]!;
    if (from < 0) return false;
    const route = s.routes[from]!;
    const saved = route.nodes;
    const before = route.distance;
    if (!this.takeOut(route, task)) return false;
    // An emptied route is one vehicle fewer: any feasible place is better.
    const emptied = route.nodes.length <= 2;
    let bound = emptied ? Infinity : before - route.distance - SAVING;
    let best = null;
    for (const other of s.routes) {
      if (other.nodes.length <= 2 && other !== route) continue;
      if (emptied && other === route) continue;
      const found = s.bestInsertion(task, other.vehicle, 0, this.random, bound);
      if (found) {
        best = found;
        bound = found.cost;
      }
    }
    if (!best) {
      this.putBack(route, saved);
      return false;
    }
    s.insert(task, best);
    touched?.add(from);
    touched?.add(best.route);
    return true;
  }

  /**
   * Exchanges `a` and `b` (on different routes): each goes to its cheapest
   * feasible place in the other's route, when the pair of routes gets shorter.
   */
  exchange(a: number, b: number, touched?: Set<number>): boolean {
    const s = this.solution;
    const ra = s.nodeRoute[a]!;
    const rb = s.nodeRoute[b]!;
    if (ra < 0 || rb < 0 || ra === rb) return false;
    const A = s.routes[ra]!;
    const B = s.routes[rb]!;
    const savedA = A.nodes;
    const savedB = B.nodes;
    const before = A.distance + B.distance;
    if (!this.takeOut(A, a)) return false;
    if (!this.takeOut(B, b)) {
      this.putBack(A, savedA);
      return false;
    }
    const left = before - A.distance - B.distance - SAVING;
    const intoA = left > 0 ? s.bestInsertion(b, ra, 0, this.random, left) : null;
    const intoB = intoA ? s.bestInsertion(a, rb, 0, this.random, left - intoA.cost) : null;
    if (!intoA || !intoB) {
      this.putBack(A, savedA);
      this.putBack(B, savedB);
      return false;
    }
    s.insert(b, intoA);
    s.insert(a, intoB);
    touched?.add(ra);
    touched?.add(rb);
    return true;
  }

  /**
   * Relocate and exchange for every routed task, in a seeded random order,
   * until a pass finds nothing or `stop` says so. The routes changed are
   * added to `touched`; true when anything moved.
   */
  descend(stop: () => boolean, touched?: Set<number>, maxPasses = 3): boolean {
    const s = this.solution;
    const m = this.model;
    const k = this.neighbourCount;
    const tasks: number[] = [];
    for (let t = 0; t < m.taskCount; t++) if (s.nodeRoute[t]! >= 0) tasks.push(t);
    let moved = false;
    for (let pass = 0; pass < maxPasses; pass++) {
      let improved = false;
      for (let i = tasks.length - 1; i > 0; i--) {
        const j = Math.floor(this.random() * (i + 1));
        [tasks[i], tasks[j]] = [tasks[j]!, tasks[i]!];
      }
      for (const t of tasks) {
        if (stop()) return moved;
        if (this.relocate(t, touched)) {
          improved = true;
          continue;
        }
        for (let n = 0; n < this.exchangeWith; n++) {
          const node = this.neighbours[t * k + n]!;
          if (node < 0) break;
          const other = m.task[node]!;
          if (other === t || s.nodeRoute[other]! < 0 || s.nodeRoute[other] === s.nodeRoute[t]) continue;
          if (this.exchange(t, other, touched)) {
            improved = true;
            break;
          }
        }
      }
      moved ||= improved;
      if (!improved) break;
    }
    return moved;
  }

  /** Removes the task's stops and re-times the route; false (route untouched) when the rest would not be feasible. */
  private takeOut(route: Route, task: number): boolean {
    const s = this.solution;
    const m = this.model;
    const saved = route.nodes;
    route.nodes = saved.filter((node) => m.task[node] !== task);
    s.refresh(route);
    // Without the triangle inequality (a road engine's matrix) or with service once per place, a shorter route can be a later one.
    // An emptied route is an unused vehicle, whatever its own start and end would take.
    if (route.nodes.length <= 2 || s.routeFeasible(route)) return true;
    this.putBack(route, saved);
    return false;
  }

  private putBack(route: Route, nodes: number[]): void {
    route.nodes = nodes;
    this.solution.refresh(route);
  }
}
