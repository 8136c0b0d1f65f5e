/**
 * A working plan: one route per vehicle (possibly empty) and the tasks left
 * out. Each route keeps, per position, the earliest start and departure
 * (forward) and the latest departure and start that keep the rest of the
 * route feasible (backward), and the load on board; with them an insertion is
 * judged in O(1) per position (Savelsbergh's forward/backward slack), a
 * pickup-and-delivery pair in one scan.
 */
import type { Model } from "./model.ts";

const EPS = 1e-9;

export class Route {
  /** Nodes including the vehicle's start (first) and end (last). */
  nodes: number[];
  start = new Float64Array(8);
  departure = new Float64Array(8);
  latestDeparture = new Float64Array(8);
  latestStart = new Float64Array(8);
  /** Load on board after serving the node. */
  load = new Float64Array(8);
  /** Largest load at or before the position. */
  loadPrefixMax = new Float64Array(8);
  /** Largest load at or after the position. */
  loadSuffixMax = new Float64Array(8);
  /** Load of tasks without a pickup still on board after the position. */
  plainRemaining = new Float64Array(8);
  /** Tasks picked up and not yet delivered after the position (counted, not weighed: a task may weigh 0). */
  openPairs = new Int32Array(8);
  distance = 0;

  constructor(readonly vehicle: number, model: Model) {
    this.nodes = [model.startNode[vehicle]!, model.endNode[vehicle]!];
  }

  get stopCount(): number {
    return this.nodes.length - 2;
  }
}

export interface Insertion {
  route: number;
  /** Position (index in nodes) after which the pickup goes; -1 without pickup. */
  pickupAfter: number;
  /** Position (index in the original nodes) after which the delivery goes. */
  deliveryAfter: number;
  cost: number;
}

export class Solution {
  routes: Route[];
  unassigned: number[] = [];
  /** Route index of each stop node, -1 when not routed. */
  nodeRoute: Int32Array;
  nodePosition: Int32Array;

  constructor(readonly model: Model) {
    this.routes = Array.from({ length: model.vehicleCount }, (_, v) => new Route(v, model));
    this.nodeRoute = new Int32Array(model.nodeCount).fill(-1);
    this.nodePosition = new Int32Array(model.nodeCount).fill(-1);
    for (const route of this.routes) this.refresh(route);
  }

  /** Effective service at `node` when it follows `previous`. */
  serviceAt(node: number, previous: number): number {
    const m = this.model;
    return m.serviceOnce && m.serviceKey[node] === m.serviceKey[previous] ? 0 : m.service[node]!;
  }

  /** Recomputes a route's timing, loads and distance after its nodes changed. */
  refresh(route: Route): void {
    const m = this.model;
    const nodes = route.nodes;
    const n = nodes.length;
    if (route.start.length < n) {
      const cap = Math.max(n, route.start.length * 2);
      route.start = new Float64Array(cap);
      route.departure = new Float64Array(cap);
      route.latestDeparture = new Float64Array(cap);
      route.latestStart = new Float64Array(cap);
      route.load = new Float64Array(cap);
      route.loadPrefixMax = new Float64Array(cap);
      route.loadSuffixMax = new Float64Array(cap);
      route.plainRemaining = new Float64Array(cap);
      route.openPairs = new Int32Array(cap);
    }
    const side = m.side;
    const index = route.vehicle;
    let load = 0;
    for (let k = 1; k < n - 1; k++) {
      const node = nodes[k]!;
      if (!m.isPickup[node] && m.pickupOf[m.task[node]!]! < 0) load += m.demand[m.task[node]!]!;
    }
    const first = nodes[0]!;
    route.start[0] = m.ready[first]!;
    route.departure[0] = m.ready[first]!;
    route.load[0] = load;
    route.loadPrefixMax[0] = load;
    route.plainRemaining[0] = load;
    route.openPairs[0] = 0;
    let plain = load;
    let open = 0;
    let distance = 0;
    for (let k = 1; k < n; k++) {
      const previous = nodes[k - 1]!;
      const node = nodes[k]!;
      const a = m.location[previous]! * side + m.location[node]!;
      distance += m.distance[a]!;
      const arrival = route.departure[k - 1]! + m.travel[a]!;
      const start = arrival > m.ready[node]! ? arrival : m.ready[node]!;
      route.start[k] = start;
      route.departure[k] = start + this.serviceAt(node, previous);
      if (k < n - 1) {
        this.nodeRoute[node] = index;
        this.nodePosition[node] = k;
        load += m.isPickup[node] ? m.demand[m.task[node]!]! : -m.demand[m.task[node]!]!;
        if (!m.isPickup[node] && m.pickupOf[m.task[node]!]! < 0) plain -= m.demand[m.task[node]!]!;
        else open += m.isPickup[node] ? 1 : -1;
      }
      route.plainRemaining[k] = plain;
      route.openPairs[k] = open;
      route.load[k] = load;
      route.loadPrefixMax[k] = Math.max(route.loadPrefixMax[k - 1]!, load);
    }
    route.distance = distance;
    route.loadSuffixMax[n - 1] = route.load[n - 1]!;
    for (let k = n - 2; k >= 0; k--) route.loadSuffixMax[k] = Math.max(route.load[k]!, route.loadSuffixMax[k + 1]!);
    route.latestDeparture[n - 1] = Infinity;
    route.latestStart[n - 1] = m.due[nodes[n - 1]!]!;
    for (let k = n - 2; k >= 0; k--) {
      const node = nodes[k]!;
      const next = nodes[k + 1]!;
      const latestDeparture = route.latestStart[k + 1]! - m.travel[m.location[node]! * side + m.location[next]!]!;
      route.latestDeparture[k] = latestDeparture;
      const service = k === 0 ? 0 : this.serviceAt(node, nodes[k - 1]!);
      route.latestStart[k] = Math.min(m.due[node]!, latestDeparture - service);
    }
  }

  /** Whether the route's schedule holds (a consistency check for tests and the final plan). */
  routeFeasible(route: Route): boolean {
    const m = this.model;
    const n = route.nodes.length;
    for (let k = 0; k < n; k++) if (route.start[k]! > m.due[route.nodes[k]!]! ) return false;
    for (let k = 0; k < n; k++) if (route.load[k]! > m.capacity[route.vehicle]! ) return false;
    return true;
  }

  usedVehicles(): number {
    let used = 0;
    for (const route of this.routes) if (route.nodes.length > 2) used++;
    return used;
  }

  totalDistance(): number {
    let total = 0;
    for (const route of this.routes) if (route.nodes.length > 2) total += route.distance;
    return total;
  }

  /**
   * The cheapest feasible place for `task` in `route` (extra distance), or
   * null. `blink` skips each position with that probability (SISR's "blinks").
   */
  bestInsertion(task: number, routeIndex: number, blink: number, random: () => number, bound = Infinity): Insertion | null {
    const m = this.model;
    const route = this.routes[routeIndex]!;
    const nodes = route.nodes;
    const n = nodes.length;
    const side = m.side;
    const travel = m.travel;
    const dist = m.distance;
    const loc = m.location;
    const ready = m.ready;
    const due = m.due;
    const delivery = task;
    const pickup = m.pickupOf[task]!;
    const demand = m.demand[task]!;
    const capacity = m.capacity[route.vehicle]!;
    const dLoc = loc[delivery]!;
    let best: Insertion | null = null;
    let bestCost = bound;
    if (pickup < 0) {
      const dueD = due[delivery]!;
      for (let a = 0; a < n - 1; a++) {
        if (route.loadPrefixMax[a]! + demand > capacity) break;
        // Departures only grow along a route: once past the window's end, every later place is too.
        if (route.departure[a]! > dueD) break;
        if (blink > 0 && random() < blink) continue;
        const prev = nodes[a]!;
        const next = nodes[a + 1]!;
        const pLoc = loc[prev]!;
        const nLoc = loc[next]!;
        const cost = dist[pLoc * side + dLoc]! + dist[dLoc * side + nLoc]! - dist[pLoc * side + nLoc]!;
        if (cost >= bestCost) continue;
        const arrival = route.departure[a]! + travel[pLoc * side + dLoc]!;
        const start = arrival > ready[delivery]! ? arrival : ready[delivery]!;
        if (start > due[delivery]!) continue;
        const leave = start + this.serviceAt(delivery, prev);
        const arrivalNext = leave + travel[dLoc * side + nLoc]!;
        const startNext = arrivalNext > ready[next]! ? arrivalNext : ready[next]!;
        if (startNext > due[next]! || startNext + this.serviceAt(next, delivery) > route.latestDeparture[a + 1]! - EPS) continue;
        bestCost = cost;
        best = { route: routeIndex, pickupAfter: -1, deliveryAfter: a, cost };
      }
      return best;
    }
    const pkLoc = loc[pickup]!;
    const dueP = due[pickup]!;
    const dueD = due[delivery]!;
    for (let i = 0; i < n - 1; i++) {
      if (route.departure[i]! > dueP) break;
      if (route.load[i]! + demand > capacity) continue;
      const prev = nodes[i]!;
      const prevLoc = loc[prev]!;
      const arrivalP = route.departure[i]! + travel[prevLoc * side + pkLoc]!;
      const startP = arrivalP > ready[pickup]! ? arrivalP : ready[pickup]!;
      if (startP > due[pickup]!) continue;
      const leaveP = startP + this.serviceAt(pickup, prev);
      const next = nodes[i + 1]!;
      const nextLoc = loc[next]!;
      const pickupCost = dist[prevLoc * side + pkLoc]! - dist[prevLoc * side + nextLoc]!;
      // Delivery right after the pickup.
      if (!(blink > 0 && random() < blink)) {
        const cost = pickupCost + dist[pkLoc * side + dLoc]! + dist[dLoc * side + nextLoc]!;
        if (cost < bestCost) {
          const arrivalD = leaveP + travel[pkLoc * side + dLoc]!;
          const startD = arrivalD > ready[delivery]! ? arrivalD : ready[delivery]!;
          if (startD <= due[delivery]!) {
            const leaveD = startD + this.serviceAt(delivery, pickup);
            const arrivalNext = leaveD + travel[dLoc * side + nextLoc]!;
            const startNext = arrivalNext > ready[next]! ? arrivalNext : ready[next]!;
            if (startNext <= due[next]! && startNext + this.serviceAt(next, delivery) <= route.latestDeparture[i + 1]! - EPS) {
              bestCost = cost;
              best = { route: routeIndex, pickupAfter: i, deliveryAfter: i, cost };
            }
          }
        }
      }
      // Delivery later: walk the nodes after the pickup with their pushed times.
      const pickupDetour = pickupCost + dist[pkLoc * side + nextLoc]!;
      // Every later delivery place costs the pickup's detour at least (distances keep the triangle inequality).
      if (pickupDetour >= bestCost) continue;
      let before = pickup;
      let leaveBefore = leaveP;
      for (let k = i + 1; k < n - 1; k++) {
        const node = nodes[k]!;
        const nodeLoc = loc[node]!;
        const arrivalK = leaveBefore + travel[loc[before]! * side + nodeLoc]!;
        const startK = arrivalK > ready[node]! ? arrivalK : ready[node]!;
        if (startK > due[node]!) break;
        if (route.load[k]! + demand > capacity) break;
        const leaveK = startK + this.serviceAt(node, before);
        if (leaveK > dueD) break;
        before = node;
        leaveBefore = leaveK;
        if (pickupDetour >= bestCost) continue;
        if (blink > 0 && random() < blink) continue;
        const after = nodes[k + 1]!;
        const afterLoc = loc[after]!;
        const cost = pickupDetour + dist[nodeLoc * side + dLoc]! + dist[dLoc * side + afterLoc]! - dist[nodeLoc * side + afterLoc]!;
        if (cost >= bestCost) continue;
        const arrivalD = leaveK + travel[nodeLoc * side + dLoc]!;
        const startD = arrivalD > ready[delivery]! ? arrivalD : ready[delivery]!;
        if (startD > due[delivery]!) continue;
        const leaveD = startD + this.serviceAt(delivery, node);
        const arrivalNext = leaveD + travel[dLoc * side + afterLoc]!;
        const startNext = arrivalNext > ready[after]! ? arrivalNext : ready[after]!;
        if (startNext > due[after]! || startNext + this.serviceAt(after, delivery) > route.latestDeparture[k + 1]! - EPS) continue;
        bestCost = cost;
        best = { route: routeIndex, pickupAfter: i, deliveryAfter: k, cost };
      }
    }
    return best;
  }

  /**
   * 2-opt* between two routes of identical vehicles: swap their tails (after
   * A[i] and B[j]) when that shortens the pair and both stay feasible, judged
   * in O(1) per pair of cuts from the slack bookkeeping. A cut with a pickup
   * on one side and its delivery on the other is never taken. The first
   * improving exchange is applied (and re-checked forward); true if one was.
   */
  twoOptStar(ra: number, rb: number): boolean {
    const m = this.model;
    const A = this.routes[ra]!;
    const B = this.routes[rb]!;
    if (m.vehicleGroup[A.vehicle] !== m.vehicleGroup[B.vehicle]) return false;
    const side = m.side;
    const na = A.nodes.length;
    const nb = B.nodes.length;
    const capacity = m.capacity[A.vehicle]!;
    for (let i = 0; i < na - 1; i++) {
      if (A.openPairs[i] !== 0) continue;
      const a = A.nodes[i]!;
      const a1 = A.nodes[i + 1]!;
      const aLoc = m.location[a]!;
      const a1Loc = m.location[a1]!;
      const dA = m.distance[aLoc * side + a1Loc]!;
      for (let j = 0; j < nb - 1; j++) {
        if (i === 0 && j === 0) continue;
        if (i === na - 2 && j === nb - 2) continue;
        if (B.openPairs[j] !== 0) continue;
        const b = B.nodes[j]!;
        const b1 = B.nodes[j + 1]!;
        const bLoc = m.location[b]!;
        const b1Loc = m.location[b1]!;
        const delta = m.distance[aLoc * side + b1Loc]! + m.distance[bLoc * side + a1Loc]! - dA - m.distance[bLoc * side + b1Loc]!;
        if (!(delta < -1e-7)) continue;
        // Loads: A's head then B's tail (and the other way round).
        if (A.loadPrefixMax[i]! - A.plainRemaining[i]! + B.plainRemaining[j]! > capacity) continue;
        if (B.loadPrefixMax[j]! - B.plainRemaining[j]! + A.plainRemaining[i]! > capacity) continue;
        if (B.loadSuffixMax[j + 1]! > capacity || A.loadSuffixMax[i + 1]! > capacity) continue;
        // Times: the first stop of each new tail, then the tail's own slack.
        const arrivalB1 = A.departure[i]! + m.travel[aLoc * side + b1Loc]!;
        const startB1 = arrivalB1 > m.ready[b1]! ? arrivalB1 : m.ready[b1]!;
        if (startB1 > m.due[b1]! || startB1 + (j + 1 === nb - 1 ? 0 : this.serviceAt(b1, a)) > B.latestDeparture[j + 1]! - EPS) continue;
        const arrivalA1 = B.departure[j]! + m.travel[bLoc * side + a1Loc]!;
        const startA1 = arrivalA1 > m.ready[a1]! ? arrivalA1 : m.ready[a1]!;
        if (startA1 > m.due[a1]! || startA1 + (i + 1 === na - 1 ? 0 : this.serviceAt(a1, b)) > A.latestDeparture[i + 1]! - EPS) continue;
        const oldA = A.nodes;
        const oldB = B.nodes;
        A.nodes = [...oldA.slice(0, i + 1), ...oldB.slice(j + 1, nb - 1), oldA[na - 1]!];
        B.nodes = [...oldB.slice(0, j + 1), ...oldA.slice(i + 1, na - 1), oldB[nb - 1]!];
        this.refresh(A);
        this.refresh(B);
        if (this.routeFeasible(A) && this.routeFeasible(B)) return true;
        // The O(1) judgement and the forward timing disagree (rounding at a tight window): keep the routes as they were.
        A.nodes = oldA;
        B.nodes = oldB;
        this.refresh(A);
        this.refresh(B);
        return false;
      }
    }
    return false;
  }

  /** Applies an insertion found by bestInsertion (positions refer to the route before it). */
  insert(task: number, at: Insertion): void {
    const route = this.routes[at.route]!;
    const pickup = this.model.pickupOf[task]!;
    if (pickup >= 0) {
      route.nodes.splice(at.deliveryAfter + 1, 0, task);
      route.nodes.splice(at.pickupAfter + 1, 0, pickup);
    } else {
      route.nodes.splice(at.deliveryAfter + 1, 0, task);
    }
    this.refresh(route);
  }

  /** Takes tasks off their routes (without refreshing: call refresh on the routes returned). */
  detach(tasks: Iterable<number>): Set<number> {
    const m = this.model;
    const touched = new Set<number>();
    const removing = new Set<number>();
    for (const task of tasks) {
      removing.add(task);
      const r = this.nodeRoute[task]!;
      if (r >= 0) touched.add(r);
    }
    for (const r of touched) {
      const route = this.routes[r]!;
      route.nodes = route.nodes.filter((node) => {
        const t = m.task[node]!;
        return t < 0 || !removing.has(t);
      });
    }
    for (const task of removing) {
      this.nodeRoute[task] = -1;
      this.nodePosition[task] = -1;
      const pickup = m.pickupOf[task]!;
      if (pickup >= 0) {
        this.nodeRoute[pickup] = -1;
        this.nodePosition[pickup] = -1;
      }
    }
    return touched;
  }

  /** The routes' node lists and the unassigned tasks: enough to restore the solution. */
  snapshot(): { routes: number[][]; unassigned: number[] } {
    return { routes: this.routes.map((route) => route.nodes.slice()), unassigned: this.unassigned.slice() };
  }

  restore(saved: { routes: number[][]; unassigned: number[] }, only?: Iterable<number>): void {
    this.unassigned = saved.unassigned.slice();
    const indices = only ? [...only] : saved.routes.map((_, i) => i);
    if (!only) {
      this.nodeRoute.fill(-1);
      this.nodePosition.fill(-1);
    }
    for (const task of this.unassigned) {
      this.nodeRoute[task] = -1;
      const pickup = this.model.pickupOf[task]!;
      if (pickup >= 0) this.nodeRoute[pickup] = -1;
    }
    for (const r of indices) {
      const route = this.routes[r]!;
      route.nodes = saved.routes[r]!.slice();
      this.refresh(route);
    }
  }
}
