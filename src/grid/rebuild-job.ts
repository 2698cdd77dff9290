/**
 * The grid rebuild's per-cell finish (update-grid.ts; Cline §4, Figure 4) on the grid's thread
 * team, as one phased job (phases.ts): once the new cells are listed in key order and entered in
 * the hash and the dense table (on the calling thread), each cell takes its values from the old
 * store (found by a merge of the two sorted key lists: each thread starts its walk at the lower
 * bound of its first key, which is where the one-thread walk stands there), its six neighbours from
 * the dense table and its three face states. Each cell writes only its own entries from the same
 * values on any number of threads, so the store is one thread's bit for bit.
 */
import type { JobArgs } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { definePhasedJob, gridWork } from './phases.ts';
import { AIR as AIR_, FACE_ACTIVE as FACE_ACTIVE_, FACE_FIXED as FACE_FIXED_, FACE_FREE as FACE_FREE_, FLUID as FLUID_, SOLID as SOLID_, type GridStore, linkFromDense } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const AIR = AIR_, FACE_ACTIVE = FACE_ACTIVE_, FACE_FIXED = FACE_FIXED_, FACE_FREE = FACE_FREE_, FLUID = FLUID_, SOLID = SOLID_;

/** Face states of cells [from, to): held if a solid touches the face, solved for if liquid does, free otherwise. */
export function faceRange(nb: Int32Array, type: Uint8Array, face: Uint8Array, from: number, to: number): void {
  for (let c = from; c < to; c++) {
    for (let a = 0; a < 3; a++) {
      const m = nb[6 * c + 2 * a];
      let st = FACE_FREE;
      if (type[c] === SOLID || (m >= 0 && type[m] === SOLID)) st = FACE_FIXED;
      else if (m >= 0 && (type[c] === FLUID || type[m] === FLUID)) st = FACE_ACTIVE;
      face[3 * c + a] = st;
    }
  }
}

type FacesX = JobArgs<{ type: 'u8'; face: 'u8' }, { nb: 'i32'; phi: 'f64' }, 'count' | 'fromPhi', Record<never, never>, undefined>;

/** Liquid cells [from, to) whose centre φ is not negative become air (the level set's cell types, §10). */
function airFromPhi(x: FacesX, from: number, to: number): void {
  const { type, phi } = x.a;
  for (let c = from; c < to; c++) if (type[c] === FLUID && phi[c] >= 0) type[c] = AIR;
}

/**
 * The face states (faceRange) on the grid's team, after the level set's cell types where `fromPhi`
 * is 1 (each cell writes only its own type, then its own faces from the types a barrier fixed).
 */
export const facesJob = definePhasedJob({
  name: 'grid-faces',
  arrays: { type: 'u8', face: 'u8' },
  inputs: { nb: 'i32', phi: 'f64' },
  scalars: ['count', 'fromPhi'],
  minItems: () => gridWork.minCells,
  phases: [
    { items: (x: FacesX) => (x.s.fromPhi === 1 ? x.s.count : 0), run: airFromPhi },
    { items: (x: FacesX) => x.s.count, run: (x: FacesX, from, to) => faceRange(x.a.nb, x.a.type, x.a.face, from, to) },
  ],
});

const ARRAYS = { u0: 'f64', u1: 'f64', u2: 'f64', phi: 'f64', pressure: 'f64', temperature: 'f64', nb: 'i32', face: 'u8' } as const;
const INPUTS = {
  keys: 'i32', ci: 'i32', cj: 'i32', ck: 'i32', type: 'u8', dense: 'i32',
  oldKeys: 'i32', oci: 'i32', ocj: 'i32', ock: 'i32', ou0: 'f64', ou1: 'f64', ou2: 'f64', ophi: 'f64', opressure: 'f64', otemperature: 'f64',
} as const;
type X = JobArgs<typeof ARRAYS, typeof INPUTS, 'count' | 'oldCount' | 'outsidePhi' | 'ambient' | 'dOff' | 'dW' | 'dH' | 'dD', Record<never, never>, undefined>;

/** Cells [from, to): values carried over (or new), neighbours and faces. */
function finishRange(x: X, from: number, to: number): void {
  const { u0, u1, u2, phi, pressure, temperature, nb, face, keys, ci, cj, ck, type, dense, oldKeys, oci, ocj, ock } = x.a;
  const { ou0, ou1, ou2, ophi, opressure, otemperature } = x.a;
  const oldCount = x.s.oldCount, outsidePhi = x.s.outsidePhi, ambient = x.s.ambient;
  const dOff = x.s.dOff, dW = x.s.dW, dH = x.s.dH, dD = x.s.dD;
  // The merge walk's position at `from`: the first old key not below this cell's.
  let op = 0;
  if (from < to) {
    let lo = 0, hi = oldCount;
    const k0 = keys[from];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (oldKeys[mid] < k0) lo = mid + 1;
      else hi = mid;
    }
    op = lo;
  }
  for (let c = from; c < to; c++) {
    const key = keys[c], i = ci[c], j = cj[c], k = ck[c];
    while (op < oldCount && oldKeys[op] < key) op++;
    if (op < oldCount && oci[op] === i && ocj[op] === j && ock[op] === k) {
      u0[c] = ou0[op]; u1[c] = ou1[op]; u2[c] = ou2[op];
      phi[c] = ophi[op]; pressure[c] = opressure[op]; temperature[c] = otemperature[op];
    } else {
      u0[c] = u1[c] = u2[c] = 0;
      pressure[c] = 0;
      phi[c] = outsidePhi;
      temperature[c] = ambient;
    }
    linkFromDense(nb, dense, c, i + dOff, j + dOff, k + dOff, dW, dH, dD);
  }
}

export const rebuildJob = definePhasedJob({
  name: 'grid-rebuild-finish',
  arrays: ARRAYS,
  inputs: INPUTS,
  scalars: ['count', 'oldCount', 'outsidePhi', 'ambient', 'dOff', 'dW', 'dH', 'dD'],
  minItems: () => gridWork.minCells,
  phases: [{ items: (x) => x.s.count, run: finishRange }],
  // The faces read the neighbours' links, which the pass before wrote.
  last: [{ items: (x) => x.s.count, run: (x, from, to) => faceRange(x.a.nb, x.a.type, x.a.face, from, to) }],
});

const NONE_I = new Int32Array(0), NONE_F = new Float64Array(0);

/**
 * The finish of store `s` (its cells, types, keys and dense table in place) from `old` (null: every
 * cell new), whose keys `oldKeys` are sorted, on the store's runner (its team, or inline).
 */
export function finishRebuild(s: GridStore, old: GridStore | null, oldKeys: Int32Array, outsidePhi: number, ambient: number): void {
  const job = s.runner!.bind(rebuildJob), a = job.a;
  a.u0 = s.u[0]; a.u1 = s.u[1]; a.u2 = s.u[2]; a.phi = s.phi; a.pressure = s.pressure; a.temperature = s.temperature;
  a.nb = s.nb; a.face = s.face;
  a.keys = s.keys; a.ci = s.ci; a.cj = s.cj; a.ck = s.ck; a.type = s.type; a.dense = s.dense!;
  a.oldKeys = old ? oldKeys : NONE_I;
  a.oci = old ? old.ci : NONE_I; a.ocj = old ? old.cj : NONE_I; a.ock = old ? old.ck : NONE_I;
  a.ou0 = old ? old.u[0] : NONE_F; a.ou1 = old ? old.u[1] : NONE_F; a.ou2 = old ? old.u[2] : NONE_F;
  a.ophi = old ? old.phi : NONE_F; a.opressure = old ? old.pressure : NONE_F; a.otemperature = old ? old.temperature : NONE_F;
  const x = job.s;
  x.count = s.count; x.oldCount = old ? old.count : 0; x.outsidePhi = outsidePhi; x.ambient = ambient;
  x.dOff = s.dOff; x.dW = s.dW; x.dH = s.dH; x.dD = s.dD;
  runJob(job, s.count);
}
