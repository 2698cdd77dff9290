/**
 * Step 3f, extrapolating liquid velocities into the buffer zone (Cline §4, Figure 7): layer by
 * layer outwards from the liquid, each sample that does not border liquid takes the average of the
 * same component in the neighbours of the previous layer, the layers counted over the faces
 * themselves (so that the mirror image of a flow extrapolates to the mirror image of its
 * extrapolation; see extrapolationCells). `extrapolateCentre` does the same for a
 * centre field (temperature, log viscosity, §7.2).
 *
 * Given the level set, the average is weighted towards the neighbours that lie back along the
 * surface normal (weight max(0, −n·e) for the neighbour in direction e, n = ∇φ/|∇φ|): the
 * extrapolated velocity is then constant along normals, the extension Enright, Marschner & Fedkiw
 * (2002) use, so the air beside a curved surface moves with the surface instead of with an average
 * of differently oriented liquid, and particles of the particle level set stay on their side.
 *
 * Each layer is two passes over the cells, the cells' layers and then the faces' round (a cell or
 * face of round l reads only round l − 1 and writes only its own entries), so the passes split over the grid's thread team as one
 * phased job (phases.ts) with the same bits on any number of threads; the normals are taken for
 * every cell first, in a pass of their own, from φ, which the layers do not change.
 */
import type { JobArgs } from '../parallel/job.ts';
import { allocFloat64, allocInt32 } from '../parallel/memory.ts';
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
  /** Per face (3 per cell): the round in which it took its value, −1 not yet (see extrapolationBegin). */
  rounds: Int32Array;
}

/**
 * Cells [from, to): layer 0 for liquid, −1 for the rest; with normals, ∇φ of each by central
 * differences (one-sided at the band's edge).
 */
export function extrapolationBegin(e: ExtrapolationArrays, from: number, to: number): void {
  const { nb, phi, type, face, layer, normals, rounds } = e;
  const withNormals = normals.length > 0;
  for (let c = from; c < to; c++) {
    layer[c] = type[c] === FLUID ? 0 : -1;
    // A face beside liquid (solved for, or held by a solid) is round 0; the rest wait for a round.
    for (let a = 0; a < 3; a++) {
      const back = nb[6 * c + 2 * a];
      rounds[3 * c + a] = face[3 * c + a] !== FACE_FREE && (type[c] === FLUID || (back >= 0 && type[back] === FLUID)) ? 0 : -1;
    }
    if (!withNormals) continue;
    for (let a = 0; a < 3; a++) {
      const lo = nb[6 * c + 2 * a], hi = nb[6 * c + 2 * a + 1];
      const okLo = lo >= 0 && type[lo] !== SOLID, okHi = hi >= 0 && type[hi] !== SOLID;
      normals[3 * c + a] = okLo && okHi ? phi[hi] - phi[lo] : okHi ? phi[hi] - phi[c] : okLo ? phi[c] - phi[lo] : 0;
    }
  }
}

/**
 * Round l ≥ 1 over cells [from, to): each cell not yet in a layer, not solid, with a neighbour in
 * layer l − 1 joins layer l (the cells' layers, which the advection reads). Each face not yet
 * reached with a face of the same component beside it (the six faces of the cells beside its own,
 * at ±h along each axis) reached in round l − 1 is reached in round l, and if it is free takes the
 * average of those faces (in direction order), weighted by the normals where there are any; a face
 * held by a solid keeps its velocity and passes it on. The faces' rounds are the faces' own, not
 * their cells': a face stored in the cell on its +a side was extrapolated in that cell's layer, so
 * its value came from a different set of faces than its mirror image across the liquid (stored
 * in the cell on the mirror image's −a side), and the air beside the liquid moved towards the
 * grid's lower corner. A face reads only rounds before l and writes only its own entries.
 */
export function extrapolationCells(e: ExtrapolationArrays, l: number, from: number, to: number): void {
  const { nb, type, layer } = e;
  for (let c = from; c < to; c++) {
    if (layer[c] !== -1 || type[c] === SOLID) continue;
    for (let d = 0; d < 6; d++) {
      const m = nb[6 * c + d];
      if (m >= 0 && layer[m] === l - 1) { layer[c] = l; break; }
    }
  }
}

/** Round l's faces over cells [from, to) (see above), after the cells' layers of round l are set. */
export function extrapolationLayer(e: ExtrapolationArrays, l: number, from: number, to: number): void {
  const { nb, type, face, layer, normals, rounds } = e;
  const withNormals = normals.length > 0;
  for (let c = from; c < to; c++) {
    // A solid cell's faces held by the solid are reached and pass their velocity on as any other's
    // (a wall's faces lie in the wall's cells on the box's +a sides, in the liquid's on its −a sides).
    const solid = type[c] === SOLID;
    // A face reached in round l lies between two cells of which one is within l layers of the liquid.
    const lc = layer[c];
    if (lc < 0 || lc > l) {
      let near = false;
      for (let a = 0; a < 3 && !near; a++) {
        const back = nb[6 * c + 2 * a];
        if (back >= 0 && layer[back] >= 0 && layer[back] <= l) near = true;
      }
      if (!near) continue;
    }
    for (let a = 0; a < 3; a++) {
      const f = 3 * c + a;
      if (rounds[f] !== -1 || (solid && face[f] === FACE_FREE)) continue;
      const ua = a === 0 ? e.u0 : a === 1 ? e.u1 : e.u2;
      let n0 = 0, n1 = 0, n2 = 0;
      if (withNormals) {
        // The face's normal: the sum of the two cells' it separates.
        const back = nb[6 * c + 2 * a];
        const o = 3 * (back >= 0 ? back : c);
        n0 = normals[3 * c] + normals[o]; n1 = normals[3 * c + 1] + normals[o + 1]; n2 = normals[3 * c + 2] + normals[o + 2];
      }
      let k = 0, sum = 0, wsum = 0, wu = 0;
      for (let d = 0; d < 6; d++) {
        const m = nb[6 * c + d];
        if (m < 0 || rounds[3 * m + a] !== l - 1) continue;
        const v = ua[m];
        sum += v;
        k++;
        if (withNormals) {
          const ax = d >> 1, na = ax === 0 ? n0 : ax === 1 ? n1 : n2;
          const w = d & 1 ? -na : na;
          if (w > 0) { wsum += w; wu += w * v; }
        }
      }
      if (k === 0) continue;
      rounds[f] = l;
      if (face[f] === FACE_FREE) ua[c] = wsum > 0 ? wu / wsum : sum / k;
    }
  }
}

/** Cells [from, to) beyond the extrapolated layers hold nothing meaningful: their free faces are zeroed. */
export function extrapolationEnd(e: ExtrapolationArrays, from: number, to: number): void {
  const { type, face, rounds } = e;
  for (let c = from; c < to; c++) {
    if (type[c] === SOLID) continue;
    if (face[3 * c] === FACE_FREE && rounds[3 * c] === -1) e.u0[c] = 0;
    if (face[3 * c + 1] === FACE_FREE && rounds[3 * c + 1] === -1) e.u1[c] = 0;
    if (face[3 * c + 2] === FACE_FREE && rounds[3 * c + 2] === -1) e.u2[c] = 0;
  }
}

const WRITTEN = { layer: 'i32', u0: 'f64', u1: 'f64', u2: 'f64', normals: 'f64', rounds: 'i32' } as const;
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
    u0: new Float64Array(0), u1: new Float64Array(0), u2: new Float64Array(0), normals: new Float64Array(0), rounds: new Int32Array(0),
  }),
  prepare(x) {
    const e = x.scratch, a = x.a;
    e.nb = a.nb; e.type = a.type; e.face = a.face; e.phi = a.phi; e.layer = a.layer;
    e.u0 = a.u0; e.u1 = a.u1; e.u2 = a.u2; e.normals = a.normals; e.rounds = a.rounds;
  },
  first: [{ items: cells, run: (x, from, to) => extrapolationBegin(x.scratch, from, to) }],
  rounds: (x) => x.s.layers,
  phases: [
    { items: cells, run: (x, from, to, round) => extrapolationCells(x.scratch, round + 1, from, to) } satisfies Phase<X>,
    { items: cells, run: (x, from, to, round) => extrapolationLayer(x.scratch, round + 1, from, to) } satisfies Phase<X>,
  ],
  last: [{ items: cells, run: (x, from, to) => extrapolationEnd(x.scratch, from, to) }],
});

/** The normals' scratch, in ordinary and in shared memory (see grow-job.ts's scratch). */
const normalsBufs = [new Float64Array(0), new Float64Array(0)];
const NO_NORMALS = new Float64Array(0);
/** The faces' rounds' scratch, likewise. */
const roundsBufs = [new Int32Array(0), new Int32Array(0)];
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
  const k = s.shared ? 1 : 0;
  if (roundsBufs[k].length < 3 * n) roundsBufs[k] = allocInt32(3 * Math.ceil(n * 1.3), s.shared);
  const rounds = roundsBufs[k];
  if (s.runner) {
    const job = s.runner.bind(extrapolateJob), a = job.a;
    a.layer = s.layer; a.u0 = s.u[0]; a.u1 = s.u[1]; a.u2 = s.u[2]; a.normals = normals; a.rounds = rounds;
    a.nb = s.nb; a.type = s.type; a.face = s.face; a.phi = s.phi;
    job.s.count = n; job.s.layers = layers;
    runJob(job, n);
    return;
  }
  const e = serial;
  e.nb = s.nb; e.type = s.type; e.face = s.face; e.phi = s.phi; e.layer = s.layer;
  e.u0 = s.u[0]; e.u1 = s.u[1]; e.u2 = s.u[2]; e.normals = normals; e.rounds = rounds;
  extrapolationBegin(e, 0, n);
  for (let l = 1; l <= layers; l++) { extrapolationCells(e, l, 0, n); extrapolationLayer(e, l, 0, n); }
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
