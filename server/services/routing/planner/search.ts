/**
 * The search: ruin and recreate after Christiaens & Vanden Berghe's SISR
 * ("Slack Induction by String Removals", Transportation Science 2020).
 *
 * 1. Construction: every task inserted at its cheapest feasible place.
 * 2. Fewer vehicles: take the smallest route away and ruin-and-recreate
 *    without it; a candidate is kept when fewer tasks are left out or the
 *    tasks left out have been left out less often (their "absences"), which
 *    steers the search to place the hard tasks first. Repeated while it works.
 * 3. Less distance: simulated annealing over ruin-and-recreate moves,
 *    compared lexicographically (served, vehicles, then distance).
 *
 * Ruin removes a few strings of consecutive stops from routes near a random
 * stop (a pickup and its delivery always leave together); recreate inserts the
 * removed tasks one by one, in a random one of a few orders, at their cheapest
 * feasible place, skipping each place with a small probability ("blinks").
 */
import { randomInt, seededRandom, type Random } from "../prng.ts";
import type { Model } from "./model.ts";
import { LocalSearch } from "./local-search.ts";
import { Solution, type Insertion } from "./solution.ts";

export interface SearchOptions {
  timeLimitMs: number;
  seed: number;
  iterations?: number;
  maxVehicles: number;
  /** When the clock started (the model was built on the same budget). */
  startedAt: number;
}

export interface SearchResult {
  routes: number[][];
  unassigned: number[];
  iterations: number;
}

/** SISR's parameters: about 10 stops removed per move, strings of at most 10, 1 % blinks. */
const AVERAGE_REMOVED = 10;
const MAX_STRING = 10;
const BLINK = 0.01;
/** Share of the budget the fleet-minimisation phase may use. */
const FLEET_SHARE = 0.35;
/** Share of the budget one attempt to do with one vehicle fewer may take. */
const ATTEMPT_SHARE = 0.1;
/** Share of the budget the search may spend on serving every task before it turns to distance. */
const SERVE_SHARE = 0.7;
/** Annealing temperatures, relative to the mean edge of the first plan. */
const START_TEMPERATURE = 2;
const END_TEMPERATURE = 0.02;
const NEIGHBOURS = 60;
const CONSTRUCTIONS = 12;
/** 2-opt* exchanges after one move, at most. */
const TAIL_EXCHANGES = 4;
/** Tasks left out by earlier moves that a move tries to insert again. */
const POOL_TRIES = 10;
/** Further constructions only while they have taken less than this share of the budget (large days: one or two). */
const CONSTRUCTION_SHARE = 0.05;
/** The annealing stops here; relocate and exchange polish the best plan in the rest of the budget (on every new best, or after every move, they did worse: docs/planning.md). */
const FINAL_SHARE = 0.97;
/** Share of the budget without a better plan after which the annealing starts again from the best one. */
const STALL_SHARE = 0.2;

interface Key {
  unassigned: number;
  vehicles: number;
  distance: number;
}

function better(a: Key, b: Key): boolean {
  if (a.unassigned !== b.unassigned) return a.unassigned < b.unassigned;
  if (a.vehicles !== b.vehicles) return a.vehicles < b.vehicles;
  return a.distance < b.distance - 1e-9;
}

export class Search {
  readonly solution: Solution;
  readonly random: Random;
  readonly neighbours: Int32Array;
  readonly neighbourCount: number;
  readonly absences: Float64Array;
  readonly farness: Float64Array;
  readonly stops: number[];
  iteration = 0;
  averageRemoved = AVERAGE_REMOVED;
  readonly localSearch: LocalSearch;
  best: { routes: number[][]; unassigned: number[] };
  bestKey: Key;
  private readonly deadline: number;

  constructor(readonly model: Model, readonly options: SearchOptions) {
    this.solution = new Solution(model);
    this.random = seededRandom(options.seed);
    this.absences = new Float64Array(model.taskCount);
    this.deadline = options.startedAt + options.timeLimitMs;
    this.stops = [];
    for (let t = 0; t < model.taskCount; t++) {
      this.stops.push(t);
      if (model.pickupOf[t]! >= 0) this.stops.push(model.pickupOf[t]!);
    }
    this.neighbourCount = Math.min(NEIGHBOURS, Math.max(0, this.stops.length - 1));
    this.neighbours = this.buildNeighbours();
    const depot = model.location[model.startNode[0] ?? 0] ?? 0;
    this.farness = new Float64Array(model.taskCount);
    for (let t = 0; t < model.taskCount; t++) {
      const d = model.distance[depot * model.side + model.location[t]!]!;
      this.farness[t] = Number.isFinite(d) ? d : 0;
    }
    this.localSearch = new LocalSearch(this.solution, this.neighbours, this.neighbourCount, this.random);
    this.solution.unassigned = Array.from({ length: model.taskCount }, (_, t) => t);
    this.best = this.solution.snapshot();
    this.bestKey = { unassigned: model.taskCount, vehicles: 0, distance: 0 };
  }

  /** For each stop, the nearest other stops (SISR's adjacency), nearest first: a bounded insertion sort, O(n·k) at worst. */
  private buildNeighbours(): Int32Array {
    const m = this.model;
    const k = this.neighbourCount;
    const out = new Int32Array(m.nodeCount * Math.max(k, 1)).fill(-1);
    const keys = new Float64Array(k + 1);
    const ids = new Int32Array(k + 1);
    for (const node of this.stops) {
      const row = m.location[node]! * m.side;
      let count = 0;
      for (const other of this.stops) {
        if (other === node) continue;
        const d = m.distance[row + m.location[other]!]!;
        if (count === k && d >= keys[k - 1]!) continue;
        let at = count < k ? count++ : k - 1;
        while (at > 0 && keys[at - 1]! > d) {
          keys[at] = keys[at - 1]!;
          ids[at] = ids[at - 1]!;
          at--;
        }
        keys[at] = d;
        ids[at] = other;
      }
      for (let i = 0; i < count; i++) out[node * k + i] = ids[i]!;
    }
    return out;
  }

  private key(): Key {
    return { unassigned: this.solution.unassigned.length, vehicles: this.solution.usedVehicles(), distance: this.solution.totalDistance() };
  }

  private progress(): number {
    const elapsed = (performance.now() - this.options.startedAt) / this.options.timeLimitMs;
    if (this.options.iterations !== undefined) return Math.max(this.iteration / Math.max(1, this.options.iterations), elapsed >= 1 ? 1 : 0);
    return elapsed;
  }

  private outOfTime(): boolean {
    return performance.now() >= this.deadline;
  }

  private outOfBudget(): boolean {
    if (this.options.iterations !== undefined && this.iteration >= this.options.iterations) return true;
    return performance.now() >= this.deadline;
  }

  private saveIfBest(): void {
    const key = this.key();
    if (better(key, this.bestKey)) {
      this.bestKey = key;
      this.best = this.solution.snapshot();
    }
  }

  run(): SearchResult {
    const s = this.solution;
    // Tasks no vehicle could serve even alone stay out of the search: trying them every move costs much and finds nothing.
    const servable = this.servableTasks();
    // A few constructions in different orders (each costs about as much as ten moves); the best is kept.
    for (let attempt = 0; attempt < CONSTRUCTIONS && !(attempt > 0 && (this.outOfBudget() || this.progress() > CONSTRUCTION_SHARE)); attempt++) {
      if (attempt > 0) s.restore({ routes: s.routes.map((route) => [route.nodes[0]!, route.nodes[route.nodes.length - 1]!]), unassigned: [] });
      s.unassigned = servable.slice();
      this.recreate(this.options.maxVehicles, attempt === 0 ? 0 : BLINK, attempt === 0 ? 1 : attempt === 1 ? 6 : -1);
      this.saveIfBest();
    }
    s.restore(this.best);
    this.minimiseFleet();
    this.minimiseDistance();
    const hopeless = this.model.taskCount - servable.length;
    const unassigned = hopeless > 0 ? [...this.best.unassigned, ...this.hopeless(servable)] : this.best.unassigned;
    return { routes: this.best.routes, unassigned, iterations: this.iteration };
  }

  private servableTasks(): number[] {
    const s = this.solution;
    const out: number[] = [];
    const groups: number[] = [];
    const seen = new Set<number>();
    for (let v = 0; v < this.model.vehicleCount; v++) {
      if (!seen.has(this.model.vehicleGroup[v]!)) groups.push(v);
      seen.add(this.model.vehicleGroup[v]!);
    }
    for (let t = 0; t < this.model.taskCount; t++) if (groups.some((v) => s.bestInsertion(t, v, 0, this.random) !== null)) out.push(t);
    return out;
  }

  private hopeless(servable: number[]): number[] {
    const ok = new Set(servable);
    return Array.from({ length: this.model.taskCount }, (_, t) => t).filter((t) => !ok.has(t));
  }

  /** The fewest vehicles the load alone needs (loads on board from the start). */
  private vehicleLowerBound(): number {
    const m = this.model;
    let load = 0;
    for (let t = 0; t < m.taskCount; t++) if (m.pickupOf[t]! < 0) load += m.demand[t]!;
    let capacity = 0;
    for (let v = 0; v < m.vehicleCount; v++) capacity = Math.max(capacity, m.capacity[v]!);
    return Math.max(1, capacity > 0 ? Math.ceil(load / capacity - 1e-9) : 1);
  }

  private minimiseFleet(): void {
    const s = this.solution;
    const lowerBound = this.vehicleLowerBound();
    let limit = this.options.maxVehicles;
    let removing = false;
    // Route removals within FLEET_SHARE; serving everything (before any removal) may go on longer: it comes first.
    let attemptFrom = 0;
    while (!this.outOfBudget() && (this.progress() < FLEET_SHARE || (!removing && s.unassigned.length > 0 && this.progress() < SERVE_SHARE))) {
      // A fleet that will not shrink within a tenth of the budget is left as it is: distance needs the time.
      if (removing && s.unassigned.length > 0 && this.progress() - attemptFrom > ATTEMPT_SHARE) break;
      if (s.unassigned.length === 0) {
        removing = true;
        attemptFrom = this.progress();
        if (s.usedVehicles() <= lowerBound) break;
        // Take the route with the fewest stops away; its tasks must find room elsewhere.
        let smallest = -1;
        for (const route of s.routes) {
          if (route.nodes.length <= 2) continue;
          if (smallest < 0 || route.stopCount < s.routes[smallest]!.stopCount) smallest = route.vehicle;
        }
        const taken = s.routes[smallest]!.nodes.filter((node) => this.model.task[node]! >= 0 && !this.model.isPickup[node]).map((node) => this.model.task[node]!);
        s.detach(taken);
        s.refresh(s.routes[smallest]!);
        s.unassigned.push(...taken);
        limit = s.usedVehicles();
      }
      this.iteration++;
      const before = s.snapshot();
      const count = s.unassigned.length;
      let absent = 0;
      for (const t of s.unassigned) absent += this.absences[t]!;
      const pool = s.unassigned.length;
      const touched = this.ruin();
      const inserted = this.recreate(limit, BLINK, 0, pool);
      for (const r of inserted) touched.add(r);
      let absentAfter = 0;
      for (const t of s.unassigned) absentAfter += this.absences[t]!;
      if (!(s.unassigned.length < count || absentAfter < absent)) s.restore(before, touched);
      for (const t of s.unassigned) this.absences[t]!++;
      this.saveIfBest();
    }
    s.restore(this.best);
  }

  private minimiseDistance(): void {
    const s = this.solution;
    let current = this.key();
    const edges = this.stops.length + current.vehicles;
    const meanEdge = edges > 0 && Number.isFinite(current.distance) ? current.distance / edges : 1;
    const t0 = START_TEMPERATURE * meanEdge;
    const t1 = END_TEMPERATURE * meanEdge;
    let from = this.progress();
    let lastBest = from;
    // The annealing leaves the last sliver of the budget to relocate and exchange on the best plan.
    while (!this.outOfBudget() && this.progress() < FINAL_SHARE) {
      this.iteration++;
      if (this.progress() - lastBest > STALL_SHARE) {
        // Stuck (a fifth of the budget without a better plan): start the cooling again from the best plan, with
        // ruins three times larger until it improves; lrc201 with seed 5 otherwise stays at +34 % for the whole run.
        s.restore(this.best);
        current = this.key();
        from = this.progress();
        lastBest = from;
        this.averageRemoved = 3 * AVERAGE_REMOVED;
      } else if (this.progress() - lastBest > STALL_SHARE / 4) this.averageRemoved = AVERAGE_REMOVED;
      const p = Math.min(1, Math.max(0, (this.progress() - from) / Math.max(1e-9, FINAL_SHARE - from)));
      const temperature = t0 * Math.pow(t1 / t0, p);
      const before = s.snapshot();
      const pool = s.unassigned.length;
      const touched = this.ruin();
      const inserted = this.recreate(this.options.maxVehicles, BLINK, -1, pool);
      for (const r of inserted) touched.add(r);
      this.exchangeTails(touched);
      const next = this.key();
      let accept: boolean;
      if (next.unassigned !== current.unassigned) accept = next.unassigned < current.unassigned;
      else if (next.vehicles !== current.vehicles) accept = next.vehicles < current.vehicles;
      else accept = next.distance < current.distance - temperature * Math.log(this.random() || 1e-12);
      if (accept) {
        current = next;
        if (better(current, this.bestKey)) lastBest = this.progress();
        this.saveIfBest();
      } else {
        s.restore(before, touched);
      }
    }
    s.restore(this.best);
    this.localSearch.descend(() => this.outOfTime(), undefined, 10);
    this.saveIfBest();
  }

  /** 2-opt* from the routes a move changed against every other used route, while it improves (bounded); adds the routes it changed. */
  private exchangeTails(touched: Set<number>): void {
    const s = this.solution;
    const queue = [...touched];
    let budget = TAIL_EXCHANGES;
    while (queue.length > 0 && budget > 0) {
      const r = queue.pop()!;
      if (s.routes[r]!.nodes.length <= 2) continue;
      for (const other of s.routes) {
        if (other.vehicle === r || other.nodes.length <= 2) continue;
        if (s.twoOptStar(r, other.vehicle)) {
          touched.add(other.vehicle);
          queue.push(r);
          budget--;
          break;
        }
      }
    }
  }

  /** Removes strings of stops near a random stop; returns the routes touched (refreshed). */
  private ruin(): Set<number> {
    const s = this.solution;
    const m = this.model;
    const random = this.random;
    let routedStops = 0;
    let used = 0;
    for (const route of s.routes) {
      if (route.nodes.length > 2) {
        used++;
        routedStops += route.stopCount;
      }
    }
    const touched = new Set<number>();
    if (routedStops === 0) return touched;
    const maxString = Math.min(MAX_STRING, routedStops / used);
    const maxStrings = (4 * this.averageRemoved) / (1 + maxString) - 1;
    const strings = Math.floor(random() * maxStrings) + 1;
    let seed = -1;
    for (let tries = 0; tries < 50 && seed < 0; tries++) {
      const candidate = this.stops[randomInt(random, this.stops.length)]!;
      if (s.nodeRoute[candidate]! >= 0) seed = candidate;
    }
    if (seed < 0) return touched;
    const removed = new Set<number>();
    const k = this.neighbourCount;
    for (let i = -1; i < k && touched.size < strings; i++) {
      const node = i < 0 ? seed : this.neighbours[seed * k + i]!;
      if (node < 0) break;
      const r = s.nodeRoute[node]!;
      if (r < 0 || touched.has(r) || removed.has(m.task[node]!)) continue;
      const stopsOnRoute = s.routes[r]!.nodes.slice(1, -1);
      const size = stopsOnRoute.length;
      const length = Math.floor(random() * Math.min(size, maxString)) + 1;
      const at = s.nodePosition[node]! - 1;
      if (length === size || random() < 0.5) {
        const lo = Math.max(0, at - length + 1);
        const hi = Math.min(at, size - length);
        const first = lo + randomInt(random, hi - lo + 1);
        for (let j = first; j < first + length; j++) removed.add(m.task[stopsOnRoute[j]!]!);
      } else {
        // Split string: remove `length` stops of a window, keeping a few consecutive ones in it.
        let kept = 1;
        while (length + kept < size && random() < 0.5) kept++;
        const window = length + kept;
        const lo = Math.max(0, at - window + 1);
        const hi = Math.min(at, size - window);
        const first = lo + randomInt(random, Math.max(1, hi - lo + 1));
        const keepFrom = first + randomInt(random, length + 1);
        for (let j = first; j < first + window && j < size; j++) {
          if (j >= keepFrom && j < keepFrom + kept) continue;
          removed.add(m.task[stopsOnRoute[j]!]!);
        }
      }
      touched.add(r);
    }
    for (const r of s.detach(removed)) touched.add(r);
    for (const r of touched) s.refresh(s.routes[r]!);
    for (const t of removed) s.unassigned.push(t);
    return touched;
  }

  /**
   * Inserts the unassigned tasks one by one at their cheapest feasible place.
   * A vehicle not yet used is opened only when no used one can take the task
   * (serving comes before vehicles) and fewer than `limit` are in use.
   * `order`: -1 a random one of SISR's orders; 0 by absences; 1 construction.
   */
  private recreate(limit: number, blink: number, order: number, pool = 0): Set<number> {
    const s = this.solution;
    const m = this.model;
    const random = this.random;
    const { tasks, left } = this.candidates(pool);
    this.sortTasks(tasks, order);
    const touched = new Set<number>();
    let used = s.usedVehicles();
    for (const task of tasks) {
      // Out of time: the rest stays out, the move is then refused and the plan before it kept.
      if (this.outOfTime()) {
        left.push(task);
        continue;
      }
      let best: Insertion | null = null;
      for (const route of s.routes) {
        if (route.nodes.length <= 2) continue;
        const found = s.bestInsertion(task, route.vehicle, blink, random, best ? best.cost : Infinity);
        if (found) best = found;
      }
      if (!best && used < limit) {
        const groupsTried = new Set<number>();
        for (const route of s.routes) {
          if (route.nodes.length > 2) continue;
          const group = m.vehicleGroup[route.vehicle]!;
          if (groupsTried.has(group)) continue;
          groupsTried.add(group);
          const found = s.bestInsertion(task, route.vehicle, 0, random, best ? best.cost : Infinity);
          if (found) best = found;
        }
        if (best) used++;
      }
      if (best) {
        s.insert(task, best);
        touched.add(best.route);
      } else {
        left.push(task);
      }
    }
    s.unassigned = left;
    return touched;
  }

  /** The tasks a recreate tries: those the ruin removed and, of the tasks left out before it (the first `pool`), the most often absent. */
  private candidates(pool: number): { tasks: number[]; left: number[] } {
    const s = this.solution;
    const left: number[] = [];
    let tasks = s.unassigned;
    if (pool > POOL_TRIES) {
      // Of the tasks left out before this move, only the most often absent are tried again (a large day
      // may leave dozens out; trying them all every move would cost most of the time).
      const waiting = tasks.slice(0, pool).sort((a, b) => this.absences[b]! - this.absences[a]! || a - b);
      left.push(...waiting.slice(POOL_TRIES));
      tasks = [...waiting.slice(0, POOL_TRIES), ...tasks.slice(pool)];
    }
    return { tasks, left };
  }

  private sortTasks(tasks: number[], order: number): void {
    const m = this.model;
    const random = this.random;
    // Shuffle first: ties (and the "random" order) are then seeded, not positional.
    for (let i = tasks.length - 1; i > 0; i--) {
      const j = randomInt(random, i + 1);
      [tasks[i], tasks[j]] = [tasks[j]!, tasks[i]!];
    }
    let choice = order;
    if (order === -1) {
      const draw = random() * 11;
      choice = draw < 4 ? 2 : draw < 8 ? 3 : draw < 10 ? 4 : 5;
    }
    const width = (t: number) => m.due[t]! - m.ready[t]! + (m.pickupOf[t]! >= 0 ? m.due[m.pickupOf[t]!]! - m.ready[m.pickupOf[t]!]! : 0);
    if (choice === 0) tasks.sort((a, b) => this.absences[b]! - this.absences[a]!);
    else if (choice === 1) tasks.sort((a, b) => width(a) - width(b));
    else if (choice === 3) tasks.sort((a, b) => m.demand[b]! - m.demand[a]!);
    else if (choice === 4) tasks.sort((a, b) => this.farness[b]! - this.farness[a]!);
    else if (choice === 5) tasks.sort((a, b) => this.farness[a]! - this.farness[b]!);
    else if (choice === 6) tasks.sort((a, b) => m.due[a]! - m.due[b]!);
  }
}
