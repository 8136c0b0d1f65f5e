import { type DistanceMatrix } from "./distance.ts";
import { randomInt, type Random } from "./prng.ts";

/** How many nearest nodes each node considers as new neighbours in a move. */
const DEFAULT_NEIGHBOURS = 10;
/** Or-opt moves segments of up to this many consecutive nodes. */
const MAX_SEGMENT = 3;
/**
 * Longest segment a double-bridge kick moves (or half the tour when that is
 * shorter). Measured on 150-stop rounds: 50 beat 15, 30 and 75; shorter kicks
 * are undone by the repair, longer ones cost more to repair than they find.
 */
const MAX_KICK_SEGMENT = 50;

/**
 * A closed tour under 2-opt and Or-opt local search, with neighbour lists
 * (only moves that add an edge to one of a node's nearest nodes are tried)
 * and a work queue of nodes whose surroundings changed ("don't-look bits"),
 * so repairing a small perturbation costs time proportional to the damage,
 * not to the tour's size.
 *
 * The tour is an array of nodes plus each node's position in it.
 */
export class TourImprover {
  readonly size: number;
  readonly tour: Int32Array;
  private readonly pos: Int32Array;
  private readonly d: Float64Array;
  private readonly neighbours: Int32Array;
  private readonly k: number;
  /** Smallest gain worth a move: keeps rounding noise from cycling forever. */
  readonly tolerance: number;
  private readonly queue: Int32Array;
  private readonly queued: Uint8Array;
  private head = 0;
  private count = 0;
  /** Length change since the last kick, kept move by move so a round costs no O(n) re-measure. */
  private gain = 0;

  constructor(matrix: DistanceMatrix, neighbourCount = DEFAULT_NEIGHBOURS) {
    const n = matrix.size;
    this.size = n;
    this.d = matrix.data;
    this.tour = new Int32Array(n);
    this.pos = new Int32Array(n);
    this.queue = new Int32Array(n);
    this.queued = new Uint8Array(n);
    this.k = Math.max(0, Math.min(neighbourCount, n - 1));
    this.neighbours = nearestNeighbours(matrix, this.k);
    let largest = 0;
    for (const value of this.d) if (value > largest) largest = value;
    this.tolerance = 1e-9 * Math.max(1, largest);
  }

  /** Starts from the given order of all nodes. */
  load(order: ArrayLike<number>): void {
    if (order.length !== this.size) throw new RangeError(`A tour of ${this.size} nodes was given ${order.length}.`);
    this.pos.fill(-1);
    for (let i = 0; i < this.size; i++) {
      const node = order[i]!;
      if (!(node >= 0 && node < this.size) || this.pos[node] !== -1) throw new RangeError(`The tour must visit each of the ${this.size} nodes once.`);
      this.pos[node] = i;
    }
    this.tour.set(order);
  }

  /** Goes back to a tour this improver produced earlier (no validation: it is known to be a tour). */
  restore(tour: Int32Array): void {
    copyInto(this.tour, tour);
    this.reindex();
  }

  length(): number {
    const { tour, d, size: n } = this;
    let total = 0;
    for (let i = 0; i < n; i++) total += d[tour[i]! * n + tour[i + 1 === n ? 0 : i + 1]!]!;
    return total;
  }

  /** Local search from scratch: every node is looked at. */
  improveAll(): void {
    for (let i = 0; i < this.size; i++) this.push(this.tour[i]!);
    this.run();
  }

  /**
   * Swaps two adjacent segments of random length (the double bridge
   * A B C D → A C B D, a 3-edge change that 2-opt and Or-opt cannot undo in
   * one step), then repairs the tour locally around the six changed edge
   * ends. Returns how much longer the tour became (negative: shorter).
   */
  kickAndRepair(random: Random): number {
    const n = this.size;
    if (n < 4) return 0;
    const longest = Math.max(1, Math.min(MAX_KICK_SEGMENT, Math.floor((n - 2) / 2)));
    const lenB = 1 + randomInt(random, longest);
    const lenC = 1 + randomInt(random, longest);
    const start = randomInt(random, n); // the position of A's last node
    const { tour } = this;
    const a = tour[start]!;
    const b1 = tour[(start + 1) % n]!;
    const b2 = tour[(start + lenB) % n]!;
    const c1 = tour[(start + lenB + 1) % n]!;
    const c2 = tour[(start + lenB + lenC) % n]!;
    const d = tour[(start + lenB + lenC + 1) % n]!;
    this.gain =
      this.dist(a, c1) + this.dist(c2, b1) + this.dist(b2, d) - this.dist(a, b1) - this.dist(b2, c1) - this.dist(c2, d);
    // Three reversals: B C → C' B', then each block back to its own direction.
    this.reverse(this.pos[b1]!, this.pos[c2]!);
    this.reverseBlock(c2, c1, lenC);
    this.reverseBlock(b2, b1, lenB);
    this.push(a);
    this.push(b1);
    this.push(b2);
    this.push(c1);
    this.push(c2);
    this.push(d);
    this.run();
    return this.gain;
  }

  private run(): void {
    while (this.count > 0) {
      const a = this.queue[this.head]!;
      this.head = this.head + 1 === this.size ? 0 : this.head + 1;
      this.count--;
      this.queued[a] = 0;
      if (this.twoOpt(a) || this.orOpt(a)) this.push(a);
    }
  }

  private push(node: number): void {
    if (this.queued[node]) return;
    this.queued[node] = 1;
    const tail = (this.head + this.count) % this.size;
    this.queue[tail] = node;
    this.count++;
  }

  private reindex(): void {
    for (let i = 0; i < this.size; i++) this.pos[this.tour[i]!] = i;
  }

  private succ(node: number): number {
    const i = this.pos[node]! + 1;
    return this.tour[i === this.size ? 0 : i]!;
  }

  private pred(node: number): number {
    const i = this.pos[node]!;
    return this.tour[i === 0 ? this.size - 1 : i - 1]!;
  }

  private dist(a: number, b: number): number {
    return this.d[a * this.size + b]!;
  }

  /**
   * 2-opt: replace edges (a, b) and (c, e) by (a, c) and (b, e), where b is
   * a's successor (then e is c's successor) or a's predecessor (then e is
   * c's predecessor). Only c among a's nearest nodes closer than b can gain.
   */
  private twoOpt(a: number): boolean {
    const n = this.size;
    if (n < 4) return false;
    const row = a * this.k;
    for (let direction = 0; direction < 2; direction++) {
      const forward = direction === 0;
      const b = forward ? this.succ(a) : this.pred(a);
      const dab = this.dist(a, b);
      for (let i = 0; i < this.k; i++) {
        const c = this.neighbours[row + i]!;
        const dac = this.dist(a, c);
        if (dac >= dab - this.tolerance) break;
        const e = forward ? this.succ(c) : this.pred(c);
        if (c === b || e === a) continue;
        const delta = dac + this.dist(b, e) - dab - this.dist(c, e);
        if (delta < -this.tolerance) {
          this.gain += delta;
          if (forward) this.reverse(this.pos[b]!, this.pos[c]!);
          else this.reverse(this.pos[a]!, this.pos[e]!);
          this.push(b);
          this.push(c);
          this.push(e);
          return true;
        }
      }
    }
    return false;
  }

  /** Reverses the tour between two positions (inclusive, going forward), flipping whichever side is shorter. */
  private reverse(from: number, to: number): void {
    const n = this.size;
    let len = ((to - from + n) % n) + 1;
    if (2 * len > n) {
      const nextFrom = to + 1 === n ? 0 : to + 1;
      to = from === 0 ? n - 1 : from - 1;
      from = nextFrom;
      len = n - len;
    }
    const { tour, pos } = this;
    for (let s = 0; s < len >> 1; s++) {
      const x = tour[from]!;
      const y = tour[to]!;
      tour[from] = y;
      pos[y] = from;
      tour[to] = x;
      pos[x] = to;
      from = from + 1 === n ? 0 : from + 1;
      to = to === 0 ? n - 1 : to - 1;
    }
  }

  /**
   * Or-opt: move a segment of 1–3 consecutive nodes with a at one end to
   * another edge of the tour, in either orientation. The new edges must
   * touch one of the segment ends' nearest nodes.
   */
  private orOpt(a: number): boolean {
    const n = this.size;
    for (let len = 1; len <= MAX_SEGMENT && len <= n - 3; len++) {
      for (let side = 0; side < (len === 1 ? 1 : 2); side++) {
        // side 0: a starts the segment; side 1: a ends it.
        const first = side === 0 ? a : this.tour[(this.pos[a]! - len + 1 + n) % n]!;
        if (this.orOptSegment(this.pos[first]!, len)) return true;
      }
    }
    return false;
  }

  private orOptSegment(firstPos: number, len: number): boolean {
    const n = this.size;
    const f = this.tour[firstPos]!;
    const l = this.tour[(firstPos + len - 1) % n]!;
    const p = this.pred(f);
    const x0 = this.succ(l);
    const removeGain = this.dist(p, f) + this.dist(l, x0) - this.dist(p, x0);
    if (removeGain <= this.tolerance) return false;

    let bestDelta = -this.tolerance;
    let bestX = -1;
    let bestY = -1;
    let bestReversed = false;
    for (let end = 0; end < 2; end++) {
      const anchor = end === 0 ? f : l;
      const row = anchor * this.k;
      for (let i = 0; i < this.k; i++) {
        const c = this.neighbours[row + i]!;
        if (this.dist(anchor, c) >= removeGain) break;
        if (this.inSegment(c, firstPos, len)) continue;
        // The two tour edges at c: (pred c, c) and (c, succ c).
        for (let which = 0; which < 2; which++) {
          const x = which === 0 ? c : this.pred(c);
          const y = this.succ(x);
          if (this.inSegment(x, firstPos, len) || this.inSegment(y, firstPos, len)) continue;
          const dxy = this.dist(x, y);
          const keep = this.dist(x, f) + this.dist(l, y) - dxy - removeGain;
          const flip = this.dist(x, l) + this.dist(f, y) - dxy - removeGain;
          if (keep < bestDelta || flip < bestDelta) {
            bestReversed = flip < keep;
            bestDelta = bestReversed ? flip : keep;
            bestX = x;
            bestY = y;
          }
        }
      }
    }
    if (bestX === -1) return false;
    this.gain += bestDelta;
    this.moveSegment(f, l, p, x0, bestX, bestY, bestReversed);
    this.push(p);
    this.push(x0);
    this.push(f);
    this.push(l);
    this.push(bestX);
    this.push(bestY);
    return true;
  }

  private inSegment(node: number, firstPos: number, len: number): boolean {
    return (this.pos[node]! - firstPos + this.size) % this.size < len;
  }

  /**
   * Moves the segment f..l (between p and nx) between x and y = succ(x),
   * as two or three 2-opt exchanges: each reverses only the stretch between
   * the old and the new place (or the rest of the tour, if shorter).
   */
  private moveSegment(f: number, l: number, p: number, nx: number, x: number, y: number, reversed: boolean): void {
    if (y === p) {
      this.exchange(x, p, l, nx); // x l..f p nx
    } else {
      this.exchange(p, f, x, y); // p x..nx l..f y
      if (x !== nx) this.exchange(p, x, nx, l); // p nx..x l..f y
    }
    if (!reversed && f !== l) this.exchange(x, l, f, y); // x f..l y
  }

  /**
   * The 2-opt exchange of edges {a,b} and {c,d}, met as a→b and c→d going
   * one way round the tour, for {a,c} and {b,d}. Which way round the array
   * currently runs does not matter.
   */
  private exchange(a: number, b: number, c: number, _d: number): void {
    if (this.succ(a) === b) this.reverse(this.pos[b]!, this.pos[c]!);
    else this.reverse(this.pos[c]!, this.pos[b]!);
  }

  /** Reverses the run of `len` nodes between u and v, whichever way round the array holds it. */
  private reverseBlock(u: number, v: number, len: number): void {
    if (len < 2) return;
    const n = this.size;
    if ((this.pos[v]! - this.pos[u]! + n) % n === len - 1) this.reverse(this.pos[u]!, this.pos[v]!);
    else this.reverse(this.pos[v]!, this.pos[u]!);
  }
}

/** A plain loop: at a delivery round's size it beats TypedArray.prototype.set's call overhead. */
function copyInto(target: Int32Array, source: Int32Array): void {
  for (let i = 0; i < target.length; i++) target[i] = source[i]!;
}

/** Each node's k nearest other nodes, nearest first (ties by index, so the search stays deterministic). */
function nearestNeighbours(matrix: DistanceMatrix, k: number): Int32Array {
  const n = matrix.size;
  const result = new Int32Array(n * k);
  const others: number[] = [];
  for (let a = 0; a < n; a++) {
    others.length = 0;
    for (let b = 0; b < n; b++) if (b !== a) others.push(b);
    const row = a * n;
    others.sort((x, y) => matrix.data[row + x]! - matrix.data[row + y]! || x - y);
    for (let i = 0; i < k; i++) result[a * k + i] = others[i]!;
  }
  return result;
}
