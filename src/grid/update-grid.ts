/**
 * Step 2, updating the dynamic grid (Cline §4, Figure 4): the cells holding liquid become fluid
 * (layer 0), then `layers` rings of buffer cells are grown around them, air inside the box and solid
 * beyond a closed wall or inside an object; every other cell is dropped. Values (velocity, level
 * set, temperature) carry over from the previous grid; new cells start at rest with φ = +band.
 * The new cells are stored in lexicographic order (see store.ts). The growth and the listing in
 * order run on the calling thread; each cell's values, links and faces are split over the grid's
 * thread team (rebuild-job.ts).
 */
import { allocInt32, isShared } from '../parallel/memory.ts';
import { runJob, type JobRunner } from '../parallel/run-job.ts';
import { growOnTeam } from './grow-job.ts';
import { faceRange, facesJob, finishRebuild } from './rebuild-job.ts';
import { AIR as AIR_, FLUID as FLUID_, GridStore, SOLID as SOLID_ } from './store.ts';
import { MARGIN as MARGIN_, cellKey as cellKey_, inBox as inBox_, inMargin as inMargin_, isWallSolid as isWallSolid_, keyToCell as keyToCell_, wallOf as wallOf_, type GridDomain } from './domain.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const MARGIN = MARGIN_, AIR = AIR_, FLUID = FLUID_, SOLID = SOLID_, cellKey = cellKey_, inBox = inBox_, inMargin = inMargin_, isWallSolid = isWallSolid_, keyToCell = keyToCell_, wallOf = wallOf_;

/** Decides whether the centre of a box cell lies inside a solid object (index ≥ 0) or not (−1). */
export type SolidQuery = (i: number, j: number, k: number) => number;

const cell = new Int32Array(3);

export interface RebuildInput {
  /** Keys (cellKey) of cells holding liquid; duplicates allowed. */
  liquid: Int32Array;
  liquidCount: number;
  layers: number;
  solidAt: SolidQuery;
  /** True where `solidAt` is −1 everywhere (no object is solid in the grid): the growth may split (grow-job.ts). */
  solidFree?: boolean;
  /** φ given to cells that did not exist before, m. */
  outsidePhi: number;
  /** Temperature of new cells, °C. */
  ambientTemperature: number;
  /** The simulation's job runner, which a new store keeps (GridStore: on a team its arrays are shared). */
  runner?: JobRunner | null;
}

const PACK = 2 ** 24;
/** Keys of an old store built elsewhere (a restored checkpoint). */
let oldKeys = new Int32Array(0);
let denseSlot = new Int32Array(0);
let packedKeys = new Float64Array(0);
let frontierA = new Int32Array(0);
let frontierB = new Int32Array(0);

/** The scratch table of cells being grown (reused between calls; rebuildGrid is not reentrant). */
let build: GridStore | null = null;

export function rebuildGrid(old: GridStore | null, d: GridDomain, input: RebuildInput, into?: GridStore): GridStore {
  const W0 = d.n[0] + 2 * MARGIN, H0 = d.n[1] + 2 * MARGIN, total = W0 * H0 * (d.n[2] + 2 * MARGIN);
  if (input.runner && input.solidFree && total <= 1 << 24 && (old === null || old.keysValid)) {
    // Walls alone are solid: the growth and listing split over the runner's team (grow-job.ts).
    const s = into && into !== old ? into : new GridStore(64, input.runner);
    if (growOnTeam(s, d, input.liquid, input.liquidCount, input.layers)) {
      s.keysValid = true;
      finishRebuild(s, old, old ? old.keys : s.keys, input.outsidePhi, input.ambientTemperature);
      return s;
    }
  }
  const want = Math.max(64, 4 * input.liquidCount);
  if (!build) build = new GridStore(want);
  else build.reset(want);
  // Which build slot holds a cell, by its key in a dense table over the box and margin (reset after
  // use), so the ~6 probes per cell of the buffer growth skip the hash; boxes too large for a dense
  // table (> 2^24 cells) use the hash alone.
  const useDense = total <= 1 << 24;
  if (useDense && denseSlot.length < total) denseSlot = new Int32Array(total).fill(-1);
  const dense = denseSlot, b0 = build;
  const insertB = (i: number, j: number, k: number): number => {
    if (!useDense) return b0.insert(i, j, k);
    const key = cellKey(d, i, j, k);
    let c = dense[key];
    if (c < 0) dense[key] = c = b0.insert(i, j, k);
    return c;
  };
  const solidOf = (i: number, j: number, k: number): boolean => {
    const w = wallOf(d, i, j, k);
    if (w !== 0) return isWallSolid(d, w);
    return input.solidAt(i, j, k) >= 0;
  };
  let frontier = frontierA.length >= input.liquidCount ? frontierA : (frontierA = new Int32Array(Math.ceil(1.3 * input.liquidCount) + 64));
  let fn = 0;
  for (let p = 0; p < input.liquidCount; p++) {
    keyToCell(d, input.liquid[p], cell);
    const i = cell[0], j = cell[1], k = cell[2];
    if (!inBox(d, i, j, k)) continue;
    const before = build.count;
    const c = insertB(i, j, k);
    if (c < before) continue;
    if (solidOf(i, j, k)) {
      build.type[c] = SOLID;
      build.layer[c] = -2; // decided later by the buffer pass
      continue;
    }
    build.type[c] = FLUID;
    build.layer[c] = 0;
    if (fn === frontier.length) frontier = frontierA = growInt(frontier);
    frontier[fn++] = c;
  }
  for (let layer = 1; layer <= input.layers; layer++) {
    // The two frontier lists swap roles each layer (module scratch, kept between calls).
    let next = frontier === frontierA ? frontierB : frontierA;
    if (next.length < 2 * fn) next = new Int32Array(Math.ceil(2.6 * fn) + 64);
    let nn = 0;
    for (let f = 0; f < fn; f++) {
      const c = frontier[f];
      const i = build.ci[c], j = build.cj[c], k = build.ck[c];
      for (let dd = 0; dd < 6; dd++) {
        const ni = i + (dd === 0 ? -1 : dd === 1 ? 1 : 0);
        const nj = j + (dd === 2 ? -1 : dd === 3 ? 1 : 0);
        const nk = k + (dd === 4 ? -1 : dd === 5 ? 1 : 0);
        if (!inMargin(d, ni, nj, nk)) continue;
        const before = build.count;
        const m = insertB(ni, nj, nk);
        if (m < before && build.layer[m] !== -1 && build.layer[m] !== -2) continue;
        const solid = solidOf(ni, nj, nk);
        build.type[m] = solid ? SOLID : AIR;
        build.layer[m] = layer;
        if (!solid) {
          if (nn === next.length) next = growInt(next);
          next[nn++] = m;
        }
      }
    }
    if (frontier === frontierA) frontierB = next;
    else frontierA = next;
    frontier = next;
    fn = nn;
  }
  // Sort cells lexicographically and build the final store.
  // Sort key and build slot packed in one float (key < 2^29, slot < 2^24: exact in a double).
  if (packedKeys.length < build.count) packedKeys = new Float64Array(Math.ceil(build.count * 1.3));
  const keys = packedKeys;
  let nk = 0;
  for (let c = 0; c < build.count; c++) {
    if (build.layer[c] === -2) build.type[c] = SOLID; // a liquid-holding cell inside a solid keeps existing
  }
  if (useDense) {
    // The dense table is already in key order: one scan (which also clears it) replaces the sort.
    for (let key = 0; key < total; key++) {
      const c = dense[key];
      if (c < 0) continue;
      dense[key] = -1;
      keys[nk++] = key * PACK + c;
    }
  } else {
    for (let c = 0; c < build.count; c++) keys[nk++] = cellKey(d, build.ci[c], build.cj[c], build.ck[c]) * PACK + c;
    keys.subarray(0, nk).sort();
  }
  let s: GridStore;
  if (into && into !== old) {
    into.reset(nk);
    s = into;
  } else s = new GridStore(nk, input.runner ?? null);
  // Interpolation finds cells by (i, j, k) many times per step: a dense table beside the hash.
  s.enableDense(MARGIN, W0, H0, d.n[2] + 2 * MARGIN);
  // Old cells are in key order too (every store comes from here or from a checkpoint of one), so
  // values carry over by a merge walk; a store out of order falls back to hash lookups.
  if (s.keys.length < nk || isShared(s.keys) !== s.shared) s.keys = allocInt32(Math.ceil(nk * 1.3), s.shared);
  const newKeys = s.keys;
  let merge = old !== null;
  // The keys of a store built here are at hand (and in order); others are computed and checked.
  let prevKeys = old && old.keysValid ? old.keys : oldKeys;
  if (old && !old.keysValid) {
    if (oldKeys.length < old.count) prevKeys = oldKeys = new Int32Array(Math.ceil(old.count * 1.3));
    let prev = -1;
    for (let o = 0; o < old.count; o++) {
      const key = cellKey(d, old.ci[o], old.cj[o], old.ck[o]);
      prevKeys[o] = key;
      if (key <= prev) { merge = false; break; }
      prev = key;
    }
  }
  for (let q = 0; q < nk; q++) {
    // (Division by a power of two and floor are exact here, and much cheaper than a double %.)
    const key = Math.floor(keys[q] / PACK);
    const b = keys[q] - key * PACK;
    newKeys[q] = key;
    const i = build.ci[b], j = build.cj[b], k = build.ck[b];
    const c = s.append(i, j, k);
    s.type[c] = build.type[b];
    s.layer[c] = build.layer[b];
    s.wall[c] = wallOf(d, i, j, k);
  }
  s.keysValid = true;
  // The values, neighbours and faces of each cell: split over the runner's team (rebuild-job.ts)
  // where the dense table holds every cell and the old keys are sorted.
  if (s.runner && s.dense !== null && (old === null || merge)) {
    finishRebuild(s, old, prevKeys, input.outsidePhi, input.ambientTemperature);
    return s;
  }
  let op = 0;
  for (let c = 0; c < nk; c++) {
    const key = newKeys[c], i = s.ci[c], j = s.cj[c], k = s.ck[c];
    let o = -1;
    if (merge) {
      while (op < old!.count && prevKeys[op] < key) op++;
      if (op < old!.count && old!.ci[op] === i && old!.cj[op] === j && old!.ck[op] === k) o = op;
    } else if (old) o = old.find(i, j, k);
    s.u[0][c] = s.u[1][c] = s.u[2][c] = 0;
    s.pressure[c] = 0;
    if (o >= 0) {
      s.u[0][c] = old!.u[0][o];
      s.u[1][c] = old!.u[1][o];
      s.u[2][c] = old!.u[2][o];
      s.phi[c] = old!.phi[o];
      s.pressure[c] = old!.pressure[o];
      s.temperature[c] = old!.temperature[o];
    } else {
      s.phi[c] = input.outsidePhi;
      s.temperature[c] = input.ambientTemperature;
    }
  }
  const W = d.n[0] + 2 * MARGIN, WH = W * (d.n[1] + 2 * MARGIN);
  if (!s.linkDense()) s.linkSorted(newKeys, W, WH);
  classifyFaces(s);
  return s;
}

/**
 * Face states: held if a solid touches the face, solved for if liquid does, free otherwise; with
 * `fromPhi`, after every liquid cell whose centre φ is not negative has become air (the level set's
 * cell types, §10). On the store's runner where it has one (rebuild-job.ts facesJob).
 */
export function classifyFaces(s: GridStore, fromPhi = false): void {
  if (s.runner) {
    const job = s.runner.bind(facesJob);
    job.a.type = s.type; job.a.face = s.face; job.a.nb = s.nb; job.a.phi = s.phi;
    job.s.count = s.count; job.s.fromPhi = fromPhi ? 1 : 0;
    runJob(job, s.count);
    return;
  }
  if (fromPhi) for (let c = 0; c < s.count; c++) if (s.type[c] === FLUID && s.phi[c] >= 0) s.type[c] = AIR;
  faceRange(s.nb, s.type, s.face, 0, s.count);
}

function growInt(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(2 * a.length);
  b.set(a);
  return b;
}
