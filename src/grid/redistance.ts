/**
 * Redistancing of the level set (Cline et al. §10.5) by the fast marching method. Cells beside the
 * zero crossing start from |φ| / |∇φ| (minmod differences), which restores a unit gradient without
 * moving the zero set (exact for a plane, so a resting surface does not move); then distances march
 * outwards on both sides with the upwind Eikonal update, second order where two accepted cells line
 * up (Sethian 1999), up to the band width. (Starting them at the distance to the plane through the
 * linear axis crossings pulled every convex surface inwards by O(h²κ) per step; the first-order
 * march underestimated distances inside a convex surface, which |∇φ| then read.)
 *
 * Solid cells take no part; afterwards they get the mean φ of their non-solid neighbours so that
 * interpolation near walls stays smooth.
 *
 * The march runs on each side of the surface on its own, in a heap of its own ordered by distance
 * and then by cell index: a cell that is not a seed has no non-solid neighbour across the surface,
 * so the inside's and the outside's distances never read each other's, and the two sides give the
 * one-heap march's distances (with the same order between equal distances) whether they run one
 * after the other or at once. The seeds (each from its own cell's neighbourhood), the first trial
 * cells, the two marches, the write-back of the distances and the solid cells' φ are the passes of
 * one job on the grid's thread team (phases.ts): the same bits on any number of threads, the march
 * on two of them.
 */
import type { JobArgs } from '../parallel/job.ts';
import { allocFloat64, allocInt32, allocUint8, isShared } from '../parallel/memory.ts';
import { runJob } from '../parallel/run-job.ts';
import { definePhasedJob, gridWork } from './phases.ts';
import { SOLID as SOLID_, type GridStore } from './store.ts';
import { seedRange, type RedistanceCells } from './redistance-seed.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const SOLID = SOLID_;

const coefA = new Float64Array(3), coefB = new Float64Array(3);

export class FastMarching {
  /**
   * The seeds beside the zero crossing keep their |φ| where |∇φ| is near 1 (redistance-seed.ts
   * `keep`): the zero set is left where it is; 2: only the seeds beside a solid; 6: only the seeds
   * at a film at most two cells thick across any axis; KEEP_ON_SOLID + d: only those at such a film
   * lying on a solid along direction d (gravity's); KEEP_TOP + d: those, the seeds where the surface
   * faces up and those beside an object's cell (grid.redistanceSeeds "keep-top", the scene's default).
   * 0: each seed at |φ| / |∇φ|.
   */
  keepSeeds = 0;
  private dist = new Float64Array(0);
  private state = new Uint8Array(0);
  /** Each trial cell's place in its side's heap (valid while its state is 1). */
  private heapPos = new Int32Array(0);
  /** The heap of the passes run here (a store without a runner). */
  private readonly heap = new MarchHeap();

  private ensure(n: number, shared: boolean): void {
    if (this.dist.length >= n && isShared(this.dist) === shared) return;
    const m = Math.ceil(n * 1.3);
    this.dist = allocFloat64(m, shared);
    this.state = allocUint8(m, shared);
    this.heapPos = allocInt32(m, shared);
  }

  /**
   * Rebuilds φ as a signed distance up to `band` (m) by fast marching. Cells flagged in `exact`
   * keep their |φ| as the initial distances instead of the linear crossing estimate. `trail`: the
   * solid cells' fill after it (fillSolidPhi).
   */
  redistance(s: GridStore, h: number, band: number, exact?: Uint8Array, trail = 0): void {
    const n = s.count;
    this.ensure(n, s.shared);
    if (s.runner) {
      const job = s.runner.bind(redistanceJob);
      job.a.phi = s.phi; job.a.dist = this.dist; job.a.state = this.state; job.a.heapPos = this.heapPos;
      job.a.nb = s.nb; job.a.type = s.type; job.a.exact = exact ?? NO_EXACT;
      job.a.wall = s.wall; job.a.v0 = s.solidVel[0]; job.a.v1 = s.solidVel[1]; job.a.v2 = s.solidVel[2];
      job.s.count = n; job.s.h = h; job.s.band = band; job.s.trail = trail; job.s.keep = this.keepSeeds;
      runJob(job, n);
      return;
    }
    const e = this.cells(s, h, band, exact);
    seedRange(e, 0, n);
    trialRange(e, 0, n);
    marchSide(e, this.heap, true);
    marchSide(e, this.heap, false);
    writeRange(e, 0, n);
    fillSolidRange(s.phi, s.nb, s.type, band, 0, n, trail, s.wall, s.solidVel[0], s.solidVel[1], s.solidVel[2]);
  }

  private readonly arrays: RedistanceCells = emptyCells();
  /** The arrays and numbers of one call, for the passes run on this thread. */
  private cells(s: GridStore, h: number, band: number, exact?: Uint8Array): RedistanceCells {
    const e = this.arrays;
    e.phi = s.phi; e.nb = s.nb; e.type = s.type; e.wall = s.wall; e.exact = exact ?? NO_EXACT;
    e.dist = this.dist; e.state = this.state; e.heapPos = this.heapPos;
    e.count = s.count; e.h = h; e.band = band; e.keep = this.keepSeeds;
    return e;
  }
}

/**
 * The trial cells of one side in a binary heap ordered by distance, then by cell index (the order in
 * which a tie's cells leave it; marchSide accepts them together), each cell once: a cell whose distance falls moves up in place
 * (its position kept in the shared heapPos, where the other side has no cells) instead of entering
 * again.
 */
class MarchHeap {
  cells = new Int32Array(0);
  keys = new Float64Array(0);
  size = 0;
  /** The cells accepted together (a tie at the least distance; at most the heap's size). */
  group = new Int32Array(0);

  push(pos: Int32Array, c: number, key: number): void {
    if (this.size === this.cells.length) {
      const cells = new Int32Array(Math.max(64, 2 * this.size));
      const keys = new Float64Array(cells.length);
      cells.set(this.cells);
      keys.set(this.keys);
      this.cells = cells;
      this.keys = keys;
      this.group = new Int32Array(cells.length);
    }
    this.siftUp(pos, this.size++, c, key);
  }

  /** Places cell c with `key` at heap position i or above it. */
  siftUp(pos: Int32Array, i: number, c: number, key: number): void {
    const hc = this.cells, hk = this.keys;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (hk[p] < key || (hk[p] === key && hc[p] < c)) break;
      hc[i] = hc[p];
      hk[i] = hk[p];
      pos[hc[i]] = i;
      i = p;
    }
    hc[i] = c;
    hk[i] = key;
    pos[c] = i;
  }

  pop(pos: Int32Array): number {
    const hc = this.cells, hk = this.keys;
    const top = hc[0];
    const n = --this.size;
    const lc = hc[n], lk = hk[n];
    let i = 0;
    for (;;) {
      let ch = 2 * i + 1;
      if (ch >= n) break;
      if (ch + 1 < n && (hk[ch + 1] < hk[ch] || (hk[ch + 1] === hk[ch] && hc[ch + 1] < hc[ch]))) ch++;
      if (hk[ch] > lk || (hk[ch] === lk && hc[ch] > lc)) break;
      hc[i] = hc[ch];
      hk[i] = hk[ch];
      pos[hc[i]] = i;
      i = ch;
    }
    hc[i] = lc;
    hk[i] = lk;
    pos[lc] = i;
    return top;
  }
}

/**
 * The march of one side of the surface (`inside`: φ < 0) from the seeds and first trial cells the
 * passes before it fixed, in its own heap, up to the band. The two sides never meet: a cell that
 * is neither a seed nor solid has every non-solid neighbour on its own side (a neighbour across
 * the surface would have made it a seed), so a side's updates read only its own cells, the seeds
 * and the solid cells, which no march writes; the two marches run on two threads at once, or one
 * after the other, with the same bits. Each side's first trial cells enter its heap in the order
 * the seeds meet them.
 */
function marchSide(w: RedistanceCells, heap: MarchHeap, inside: boolean): void {
  const { phi, nb, dist, state, heapPos: pos, h, band } = w;
  const count = w.count;
  heap.size = 0;
  for (let c = 0; c < count; c++) {
    if (state[c] !== 2) continue;
    for (let d = 0; d < 6; d++) {
      const m = nb[6 * c + d];
      if (m >= 0 && (phi[m] < 0) === inside && state[m] === TRIAL_NEW) {
        state[m] = 1;
        heap.push(pos, m, dist[m]);
      }
    }
  }
  while (heap.size > 0) {
    // Every trial cell at the least distance (within TIE cells: the rounding of the advection's
    // traces) is accepted before any of them updates its neighbours: a tie's cells (a cell and its
    // mirror image) then update theirs from the same accepted cells, whichever the heap gives first,
    // so the march keeps the liquid's mirror symmetry (accepted one after the other, the first's
    // neighbours read the second as far and the second's read the first as accepted: the distances
    // drifted by up to a tenth of a cell towards the grid's lower corner).
    const key = heap.keys[0];
    if (key >= band) break;
    let n = 0;
    const group = heap.group, upto = key + TIE * h;
    while (heap.size > 0 && heap.keys[0] <= upto) {
      const c = heap.pop(pos);
      if (state[c] === 2) continue;
      state[c] = 2;
      group[n++] = c;
    }
    for (let g = 0; g < n; g++) {
      const c = group[g];
      for (let d = 0; d < 6; d++) {
        const m = nb[6 * c + d];
        if (m < 0 || state[m] >= 2) continue;
        // The upwind update of m (see eikonal): lower its distance, or enter it as a trial cell.
        const dm = eikonal(nb, phi, dist, state, m, h);
        if (dm === Infinity) continue;
        if (state[m] === 1) {
          if (dm >= dist[m]) continue;
          dist[m] = dm;
          heap.siftUp(pos, pos[m], m, dm);
          continue;
        }
        dist[m] = dm;
        state[m] = 1;
        heap.push(pos, m, dm);
      }
    }
  }
}

/**
 * φ of each solid cell: the mean of its non-solid neighbours (band where it has none), so that
 * interpolation beside walls and objects reads the current surface. Called after every change of φ.
 *
 * `trail` (m, 0: off; h where the liquid separates from objects, pressure.ts
 * separatesUnderObjects, Ga > 1: step.ts trailingFill): a moving object's cell takes a neighbour
 * it moves away from (its velocity along that axis pointing from the neighbour into it) as
 * max(φ + h, −φ): φ carried on one cell with |∇φ| = 1 where the liquid's surface lies within the
 * neighbour's cell (the level set's constant-gradient extrapolation into a solid), and the
 * surface on the face between them (φ mirrored) where the liquid reaches it. The liquid under a
 * plate has no surface the level set sees (solid cells are not seeds): its φ is the distance to
 * air round the plate's edge, down to −band, and the cells the plate vacated took that (the plain
 * mean), so each filled with liquid as the plate left it, and the volume counted the half cell
 * under the plate as liquid. Now a vacated cell starts as air behind a body leaving the liquid
 * (solids.ts separateLeaving keeps the liquid from following it), and the level set's surface
 * lies on the face it left.
 */
export function fillSolidPhi(s: GridStore, band: number, trail = 0): void {
  if (s.runner) {
    // A pass over the cells on the grid's team (each solid cell writes only its own φ).
    const job = s.runner.bind(solidPhiJob);
    job.a.phi = s.phi; job.a.nb = s.nb; job.a.type = s.type;
    job.a.wall = s.wall; job.a.v0 = s.solidVel[0]; job.a.v1 = s.solidVel[1]; job.a.v2 = s.solidVel[2];
    job.s.count = s.count; job.s.band = band; job.s.trail = trail;
    runJob(job, s.count);
    return;
  }
  fillSolidRange(s.phi, s.nb, s.type, band, 0, s.count, trail, s.wall, s.solidVel[0], s.solidVel[1], s.solidVel[2]);
}

/** fillSolidPhi over cells [from, to) (a solid cell reads only non-solid cells' φ). */
export function fillSolidRange(
  phi: Float64Array, nb: Int32Array, type: Uint8Array, band: number, from: number, to: number,
  trail = 0, wall?: Uint8Array, v0?: Float64Array, v1?: Float64Array, v2?: Float64Array,
): void {
  const moving = trail > 0 && wall !== undefined && v0 !== undefined && v1 !== undefined && v2 !== undefined;
  for (let c = from; c < to; c++) {
    if (type[c] !== SOLID) continue;
    let sum = 0, cnt = 0;
    for (let d = 0; d < 6; d++) {
      const m = nb[6 * c + d];
      if (m < 0 || type[m] === SOLID) continue;
      let f = phi[m];
      if (moving && wall[c] === 0) {
        const a = d >> 1, v = a === 0 ? v0[c] : a === 1 ? v1[c] : v2[c];
        // m on c's −a side: the body leaves it moving along +a; on the +a side, along −a.
        if ((d & 1) === 0 ? v > 0 : v < 0) f = Math.max(f + trail, -f);
      }
      sum += f;
      cnt++;
    }
    phi[c] = cnt > 0 ? sum / cnt : band;
  }
}

/**
 * The upwind Eikonal update of cell c from its accepted neighbours (state 2); Infinity where it has
 * none. Along an axis whose next cell beyond the neighbour is accepted too (and not larger), the
 * second-order one-sided difference (3d − 4d₁ + d₂) / 2h is used (Sethian 1999, §8.3): first-order
 * marching underestimates the distance inside a convex surface by up to a quarter cell, which the
 * seeds' |∇φ| then reads.
 */
function eikonal(nb: Int32Array, phi: Float64Array, dist: Float64Array, state: Uint8Array, c: number, h: number): number {
  const inside = phi[c] < 0;
  const A = coefA, B = coefB;
  for (let a = 0; a < 3; a++) {
    // The upwind neighbour along a: the accepted one of smaller distance; where both are accepted
    // at the same distance (within TIE), the one that gives the second-order difference, and of two
    // that do, the smaller (not the −a one by default: the mirror image of the cells gives the
    // mirrored distances).
    let w = 0, b = Infinity, raw = Infinity;
    const tie = TIE * h;
    for (let side = 0; side < 2; side++) {
      const m = nb[6 * c + 2 * a + side];
      if (m < 0 || state[m] !== 2) continue;
      const dm = dist[m];
      if (dm > raw + tie) continue;
      let ws = 1, bs = dm;
      const m2 = nb[6 * m + 2 * a + side];
      // (Only from the same side of the surface: |φ| has a kink across it.)
      // (The side is tested first: the other side's cells may be marching on another thread.)
      if (m2 >= 0 && (phi[m2] < 0) === inside && state[m2] === 2 && dist[m2] <= dm + tie) {
        ws = 2.25;
        bs = (4 * dm - dist[m2]) / 3;
      }
      if (dm >= raw - tie && !(ws > w || (ws === w && bs < b))) continue;
      w = ws; b = bs; raw = dm;
    }
    A[a] = w;
    B[a] = b;
  }
  // Sort the axes by B (insertion sort of three).
  for (let p = 1; p < 3; p++) {
    for (let q = p; q > 0 && B[q] < B[q - 1]; q--) {
      let t = B[q]; B[q] = B[q - 1]; B[q - 1] = t;
      t = A[q]; A[q] = A[q - 1]; A[q - 1] = t;
    }
  }
  // Solve Σ A_k (d − B_k)² = h² over the axes with B_k < d, adding them in increasing order.
  let d = Infinity, s0 = 0, s1 = 0, s2 = 0;
  for (let k = 0; k < 3; k++) {
    if (!(B[k] < d)) break;
    s0 += A[k]; s1 += A[k] * B[k]; s2 += A[k] * B[k] * B[k];
    const disc = s1 * s1 - s0 * (s2 - h * h);
    if (disc < 0) break;
    d = (s1 + Math.sqrt(disc)) / s0;
  }
  return d;
}

const NO_EXACT = new Uint8Array(0);
/** Distances within TIE h of each other are a tie in the march (accepted together; either upwind neighbour). */
const TIE = 1e-6;
/** A first trial cell computed by trialRange, not yet in the heap. */
const TRIAL_NEW = 4;
const emptyCells = (): RedistanceCells => ({
  phi: new Float64Array(0), nb: new Int32Array(0), type: new Uint8Array(0), wall: new Uint8Array(0), exact: NO_EXACT,
  dist: new Float64Array(0), state: new Uint8Array(0), heapPos: new Int32Array(0), count: 0, h: 1, band: 1, keep: 0,
});

/**
 * The march's first trial cells over cells [from, to): each cell still far with an accepted
 * neighbour takes its Eikonal update from the accepted cells (the seeds, fixed by the pass before)
 * and is marked TRIAL_NEW; its side's march (marchSide) then enters it in its heap in the order the
 * seeds meet it. (Each is what the march's first update of it would give: later ones before the
 * first acceptance see the same accepted cells and change nothing.)
 */
function trialRange(w: RedistanceCells, from: number, to: number): void {
  const { phi, nb, dist, state, h } = w;
  for (let c = from; c < to; c++) {
    if (state[c] !== 0) continue;
    let seeded = false;
    for (let e = 6 * c, end = e + 6; e < end; e++) {
      const m = nb[e];
      if (m >= 0 && state[m] === 2) { seeded = true; break; }
    }
    if (!seeded) continue;
    dist[c] = eikonal(nb, phi, dist, state, c, h);
    state[c] = TRIAL_NEW;
  }
}

/** φ of the non-solid cells [from, to) from the marched distances, with φ's sign. */
function writeRange(e: RedistanceCells, from: number, to: number): void {
  const { phi, type, dist, state, band } = e;
  for (let c = from; c < to; c++) {
    if (type[c] === SOLID) continue;
    const dc = state[c] === 2 ? Math.min(dist[c], band) : band;
    phi[c] = phi[c] < 0 ? -dc : dc;
  }
}

/** A thread's scratch: the arrays and numbers of the call, and the heap of the side it marches. */
interface RedistanceScratch {
  cells: RedistanceCells;
  heap: MarchHeap;
}

type RedistanceX = JobArgs<
  { phi: 'f64'; dist: 'f64'; state: 'u8'; heapPos: 'i32' }, { nb: 'i32'; type: 'u8'; exact: 'u8'; wall: 'u8'; v0: 'f64'; v1: 'f64'; v2: 'f64' },
  'count' | 'h' | 'band' | 'trail' | 'keep', Record<never, never>, RedistanceScratch
>;
const allCells = (x: RedistanceX) => x.s.count;

/**
 * Redistancing as one job: the seeds, the first trial cells, the two sides' marches (items 0, the
 * inside, and 1, the outside: one each on two threads, both in turn on one), the signed write-back
 * and the solid cells' φ, a barrier between passes.
 */
export const redistanceJob = definePhasedJob({
  name: 'grid-redistance',
  arrays: { phi: 'f64', dist: 'f64', state: 'u8', heapPos: 'i32' },
  inputs: { nb: 'i32', type: 'u8', exact: 'u8', wall: 'u8', v0: 'f64', v1: 'f64', v2: 'f64' },
  scalars: ['count', 'h', 'band', 'trail', 'keep'],
  minItems: () => gridWork.minCells,
  scratch: (): RedistanceScratch => ({ cells: emptyCells(), heap: new MarchHeap() }),
  prepare(x) {
    const e = x.scratch.cells, a = x.a;
    e.phi = a.phi; e.nb = a.nb; e.type = a.type; e.wall = a.wall; e.exact = a.exact; e.dist = a.dist; e.state = a.state;
    e.heapPos = a.heapPos; e.count = x.s.count; e.h = x.s.h; e.band = x.s.band; e.keep = x.s.keep;
  },
  phases: [
    { items: allCells, run: (x, from, to) => seedRange(x.scratch.cells, from, to) },
    { items: allCells, run: (x, from, to) => trialRange(x.scratch.cells, from, to) },
    { items: () => 2, run: (x, from, to) => { for (let side = from; side < to; side++) marchSide(x.scratch.cells, x.scratch.heap, side === 0); } },
    { items: allCells, run: (x, from, to) => writeRange(x.scratch.cells, from, to) },
    { items: allCells, run: (x, from, to) => fillSolidRange(x.a.phi, x.a.nb, x.a.type, x.s.band, from, to, x.s.trail, x.a.wall, x.a.v0, x.a.v1, x.a.v2) },
  ],
});

type SolidPhiX = JobArgs<{ phi: 'f64' }, { nb: 'i32'; type: 'u8'; wall: 'u8'; v0: 'f64'; v1: 'f64'; v2: 'f64' }, 'count' | 'band' | 'trail', Record<never, never>, undefined>;

/** fillSolidPhi as a job. */
export const solidPhiJob = definePhasedJob({
  name: 'grid-solid-phi',
  arrays: { phi: 'f64' },
  inputs: { nb: 'i32', type: 'u8', wall: 'u8', v0: 'f64', v1: 'f64', v2: 'f64' },
  scalars: ['count', 'band', 'trail'],
  minItems: () => gridWork.minCells,
  phases: [{
    items: (x: SolidPhiX) => x.s.count,
    run: (x: SolidPhiX, from, to) => fillSolidRange(x.a.phi, x.a.nb, x.a.type, x.s.band, from, to, x.s.trail, x.a.wall, x.a.v0, x.a.v1, x.a.v2),
  }],
});
