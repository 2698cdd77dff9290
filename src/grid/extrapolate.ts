/**
 * Step 3f, extrapolating liquid velocities into the buffer zone (Cline §4, Figure 7): layer by
 * layer outwards from the liquid, each sample that does not border liquid takes the average of the
 * same component in the neighbours of the previous layer. `extrapolateCentre` does the same for a
 * centre field (temperature, log viscosity, §7.2).
 *
 * Given the level set, the average is weighted towards the neighbours that lie back along the
 * surface normal (weight max(0, −n·e) for the neighbour in direction e, n = ∇φ/|∇φ|): the
 * extrapolated velocity is then constant along normals, the extension Enright, Marschner & Fedkiw
 * (2002) use, so the air beside a curved surface moves with the surface instead of with an average
 * of differently oriented liquid, and particles of the particle level set stay on their side.
 *
 * Each layer is one pass over the cells (a cell of layer l reads only its neighbours of layer
 * l − 1 and writes only its own faces), so the passes split over the grid's thread team as one
 * phased job (phases.ts) with the same bits on any number of threads; the normals are taken for
 * every cell first, in a pass of their own, from φ, which the layers do not change.
 */
import type { JobArgs } from '../parallel/job.ts';
import { allocFloat64 } from '../parallel/memory.ts';
import { runJob } from '../parallel/run-job.ts';
import { definePhasedJob, gridWork, type Phase } from './phases.ts';
import { FACE_FREE as FACE_FREE_, FLUID as FLUID_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const FACE_FREE = FACE_FREE_, FLUID = FLUID_, SOLID = SOLID_;

/** What the passes read and write (the store's arrays; `normals` empty: plain averages). */
export interface ExtrapolationArrays {
  nb: Int32Array;
  type: Uint8Array;
  face: Uint8Array;
  phi: Float64Array;
  layer: Int32Array;
  u0: Float64Array;
  u1: Float64Array;
  u2: Float64Array;
  /** ∇φ of every cell, unnormalised (xyz interleaved); length 0 without normals. */
  normals: Float64Array;
}

/**
 * Cells [from, to): layer 0 for liquid, −1 for the rest; with normals, ∇φ of each by central
 * differences (one-sided at the band's edge).
 */
export function extrapolationBegin(e: ExtrapolationArrays, from: number, to: number): void {
  const { nb, phi, type, layer, normals } = e;
  const withNormals = normals.length > 0;
  for (let c = from; c < to; c++) {
    layer[c] = type[c] === FLUID ? 0 : -1;
    if (!withNormals) continue;
    for (let a = 0; a < 3; a++) {
      const lo = nb[6 * c + 2 * a], hi = nb[6 * c + 2 * a + 1];
      const okLo = lo >= 0 && type[lo] !== SOLID, okHi = hi >= 0 && type[hi] !== SOLID;
      normals[3 * c + a] = okLo && okHi ? phi[hi] - phi[lo] : okHi ? phi[hi] - phi[c] : okLo ? phi[c] - phi[lo] : 0;
    }
  }
}

const prevCell = new Int32Array(6), prevDir = new Int32Array(6);

/**
 * Layer l ≥ 1 over cells [from, to): each cell not yet in a layer, not solid, with a neighbour in
 * layer l − 1 joins layer l, and each of its free faces takes the average of the same component
 * in those neighbours (in direction order), weighted by the normals where there are any. A cell
 * reads only layer l − 1 (fixed by the pass before) and writes only its own entries.
 */
export function extrapolationLayer(e: ExtrapolationArrays, l: number, from: number, to: number): void {
  const { nb, type, face, layer, normals } = e;
  const withNormals = normals.length > 0;
  for (let c = from; c < to; c++) {
    if (layer[c] !== -1 || type[c] === SOLID) continue;
    let k = 0;
    for (let d = 0; d < 6; d++) {
      const m = nb[6 * c + d];
      if (m >= 0 && layer[m] === l - 1) { prevCell[k] = m; prevDir[k++] = d; }
    }
    if (k === 0) continue;
    layer[c] = l;
    for (let a = 0; a < 3; a++) {
      if (face[3 * c + a] !== FACE_FREE) continue;
      const ua = a === 0 ? e.u0 : a === 1 ? e.u1 : e.u2;
      let sum = 0, wsum = 0, wu = 0;
      if (!withNormals) {
        for (let q = 0; q < k; q++) sum += ua[prevCell[q]];
      } else {
        // The face's normal: the sum of the two cells' it separates.
        const back = nb[6 * c + 2 * a];
        const o = 3 * (back >= 0 ? back : c);
        const n0 = normals[3 * c] + normals[o], n1 = normals[3 * c + 1] + normals[o + 1], n2 = normals[3 * c + 2] + normals[o + 2];
        for (let q = 0; q < k; q++) {
          const v = ua[prevCell[q]], d = prevDir[q], ax = d >> 1, na = ax === 0 ? n0 : ax === 1 ? n1 : n2;
          sum += v;
          const w = d & 1 ? -na : na;
          if (w > 0) { wsum += w; wu += w * v; }
        }
      }
      ua[c] = wsum > 0 ? wu / wsum : sum / k;
    }
  }
}

/** Cells [from, to) beyond the extrapolated layers hold nothing meaningful: their free faces are zeroed. */
export function extrapolationEnd(e: ExtrapolationArrays, from: number, to: number): void {
  const { type, face, layer } = e;
  for (let c = from; c < to; c++) {
    if (layer[c] !== -1 || type[c] === SOLID) continue;
    if (face[3 * c] === FACE_FREE) e.u0[c] = 0;
    if (face[3 * c + 1] === FACE_FREE) e.u1[c] = 0;
    if (face[3 * c + 2] === FACE_FREE) e.u2[c] = 0;
  }
}

const WRITTEN = { layer: 'i32', u0: 'f64', u1: 'f64', u2: 'f64', normals: 'f64' } as const;
const READ = { nb: 'i32', type: 'u8', face: 'u8', phi: 'f64' } as const;
type X = JobArgs<typeof WRITTEN, typeof READ, 'count' | 'layers', Record<never, never>, ExtrapolationArrays>;
const cells = (x: X) => x.s.count;

export const extrapolateJob = definePhasedJob({
  name: 'grid-extrapolate',
  arrays: WRITTEN,
  inputs: READ,
  scalars: ['count', 'layers'],
  minItems: () => gridWork.minCells,
  scratch: (): ExtrapolationArrays => ({
    nb: new Int32Array(0), type: new Uint8Array(0), face: new Uint8Array(0), phi: new Float64Array(0), layer: new Int32Array(0),
    u0: new Float64Array(0), u1: new Float64Array(0), u2: new Float64Array(0), normals: new Float64Array(0),
  }),
  prepare(x) {
    const e = x.scratch, a = x.a;
    e.nb = a.nb; e.type = a.type; e.face = a.face; e.phi = a.phi; e.layer = a.layer;
    e.u0 = a.u0; e.u1 = a.u1; e.u2 = a.u2; e.normals = a.normals;
  },
  first: [{ items: cells, run: (x, from, to) => extrapolationBegin(x.scratch, from, to) }],
  rounds: (x) => x.s.layers,
  phases: [{ items: cells, run: (x, from, to, round) => extrapolationLayer(x.scratch, round + 1, from, to) } satisfies Phase<X>],
  last: [{ items: cells, run: (x, from, to) => extrapolationEnd(x.scratch, from, to) }],
});

/** The normals' scratch, in ordinary and in shared memory (see grow-job.ts's scratch). */
const normalsBufs = [new Float64Array(0), new Float64Array(0)];
const NO_NORMALS = new Float64Array(0);
const serial: ExtrapolationArrays = { ...extrapolateJob.scratch!() };

/**
 * Extrapolates the face velocities `layers` layers out from the liquid (with the normals of φ
 * where `alongNormals`), on the store's job runner where it has one (its team, or inline).
 */
export function extrapolateVelocity(s: GridStore, layers: number, alongNormals = false): void {
  const n = s.count;
  let normals = NO_NORMALS;
  if (alongNormals) {
    const k = s.shared ? 1 : 0;
    if (normalsBufs[k].length < 3 * n) normalsBufs[k] = allocFloat64(3 * Math.ceil(n * 1.3), s.shared);
    normals = normalsBufs[k];
  }
  if (s.runner) {
    const job = s.runner.bind(extrapolateJob), a = job.a;
    a.layer = s.layer; a.u0 = s.u[0]; a.u1 = s.u[1]; a.u2 = s.u[2]; a.normals = normals;
    a.nb = s.nb; a.type = s.type; a.face = s.face; a.phi = s.phi;
    job.s.count = n; job.s.layers = layers;
    runJob(job, n);
    return;
  }
  const e = serial;
  e.nb = s.nb; e.type = s.type; e.face = s.face; e.phi = s.phi; e.layer = s.layer;
  e.u0 = s.u[0]; e.u1 = s.u[1]; e.u2 = s.u[2]; e.normals = normals;
  extrapolationBegin(e, 0, n);
  for (let l = 1; l <= layers; l++) extrapolationLayer(e, l, 0, n);
  extrapolationEnd(e, 0, n);
}

export function extrapolateCentre(s: GridStore, field: Float64Array, layers: number): void {
  const { nb, type, layer } = s;
  for (let c = 0; c < s.count; c++) layer[c] = type[c] === FLUID ? 0 : -1;
  for (let l = 1; l <= layers; l++) {
    for (let c = 0; c < s.count; c++) {
      if (layer[c] !== -1) continue;
      let sum = 0, cnt = 0;
      for (let d = 0; d < 6; d++) {
        const m = nb[6 * c + d];
        if (m >= 0 && layer[m] === l - 1) { sum += field[m]; cnt++; }
      }
      if (cnt === 0) continue;
      field[c] = sum / cnt;
      layer[c] = l;
    }
  }
}
