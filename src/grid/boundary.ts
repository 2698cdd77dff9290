/**
 * Step 3g, solid velocities (Cline §4): faces touching a solid hold the solid's velocity, so no
 * liquid flows into it. At a box wall the face on the wall holds 0 (walls move only tangentially)
 * and the tangential samples inside the wall cells are mirror ghosts of the liquid next to them:
 * −u for no-slip, +u for slip, 2U − u for a moving wall, which puts the wall exactly on the face for
 * interpolation, advection and explicit viscosity. Inside an object the samples hold the object's
 * velocity (set by solids.ts); a face between liquid and object holds the object's normal velocity.
 * Where the store has a runner and its dense table, the loop runs as three passes of a job on the
 * grid's thread team (solidJob) that give every face the serial loop's value.
 */
import { MOVING as MOVING_, NOSLIP as NOSLIP_, SLIP as SLIP_, type GridDomain } from './domain.ts';
import type { JobArgs } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { definePhasedJob, gridWork } from './phases.ts';
import { FACE_FIXED as FACE_FIXED_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const MOVING = MOVING_, NOSLIP = NOSLIP_, SLIP = SLIP_, FACE_FIXED = FACE_FIXED_, SOLID = SOLID_;

export function applySolidVelocities(s: GridStore, d: GridDomain): void {
  if (s.runner && s.dense !== null) {
    // Three passes on the team (see solidJob), the serial loop's values.
    const job = s.runner.bind(solidJob), a = job.a, x = job.s;
    a.u0 = s.u[0]; a.u1 = s.u[1]; a.u2 = s.u[2];
    a.nb = s.nb; a.face = s.face; a.type = s.type; a.wall = s.wall; a.sv0 = s.solidVel[0]; a.sv1 = s.solidVel[1]; a.sv2 = s.solidVel[2];
    a.ci = s.ci; a.cj = s.cj; a.ck = s.ck; a.dense = s.dense; a.kind = d.kind; a.wallVelocity = d.wallVelocity;
    x.count = s.count; x.n0 = d.n[0]; x.n1 = d.n[1]; x.n2 = d.n[2]; x.dOff = s.dOff; x.dW = s.dW; x.dH = s.dH; x.dD = s.dD;
    runJob(job, s.count);
    return;
  }
  const { nb, face, type, wall, u, solidVel } = s;
  const n = d.n;
  for (let c = 0; c < s.count; c++) {
    for (let a = 0; a < 3; a++) {
      if (face[3 * c + a] !== FACE_FIXED) continue;
      const m = nb[6 * c + 2 * a];
      const cSolid = type[c] === SOLID, mSolid = m >= 0 && type[m] === SOLID;
      if ((cSolid && wall[c] !== 0) || (mSolid && wall[m] !== 0)) {
        u[a][c] = cSolid && wall[c] !== 0 ? wallGhost(s, d, n, c, a) : 0;
        continue;
      }
      // Object: a face between two solid cells holds their mean velocity, a border face the solid's.
      if (cSolid && mSolid) u[a][c] = 0.5 * (solidVel[a][c] + solidVel[a][m]);
      else u[a][c] = cSolid ? solidVel[a][c] : solidVel[a][m];
    }
  }
}

function wallGhost(s: GridStore, d: GridDomain, n: [number, number, number], c: number, a: number): number {
  const w = s.wall[c];
  if (w === 7) return 0;
  const f = w - 1, b = f >> 1;
  if (a === b) return 0;
  // The mirror image of cell c across the wall (no array: this runs for every fixed face of a wall cell).
  let i = s.ci[c], j = s.cj[c], k = s.ck[c];
  if (b === 0) i = f & 1 ? 2 * n[0] - 1 - i : -1 - i;
  else if (b === 1) j = f & 1 ? 2 * n[1] - 1 - j : -1 - j;
  else k = f & 1 ? 2 * n[2] - 1 - k : -1 - k;
  const m = s.find(i, j, k);
  const kind = d.kind[f];
  const inner = m >= 0 && s.type[m] !== SOLID ? s.u[a][m] : 0;
  if (kind === SLIP) return inner;
  if (kind === MOVING) return 2 * d.wallVelocity[3 * f + a] - inner;
  if (kind === NOSLIP) return -inner;
  return 0;
}

type SolidX = JobArgs<
  { u0: 'f64'; u1: 'f64'; u2: 'f64' },
  { nb: 'i32'; face: 'u8'; type: 'u8'; wall: 'u8'; sv0: 'f64'; sv1: 'f64'; sv2: 'f64'; ci: 'i32'; cj: 'i32'; ck: 'i32'; dense: 'i32'; kind: 'i32'; wallVelocity: 'f64' },
  'count' | 'n0' | 'n1' | 'n2' | 'dOff' | 'dW' | 'dH' | 'dD', Record<never, never>, undefined
>;

/**
 * The mirror cell of wall cell c for face axis a (wallGhost's, from the store's dense table), or −1
 * where the ghost reads none (an edge or corner, the wall's normal axis, no cell there).
 */
function mirrorOf(x: SolidX, c: number, a: number): number {
  const w = x.a.wall[c];
  if (w === 7) return -1;
  const f = w - 1, b = f >> 1;
  if (a === b) return -1;
  let i = x.a.ci[c], j = x.a.cj[c], k = x.a.ck[c];
  if (b === 0) i = f & 1 ? 2 * x.s.n0 - 1 - i : -1 - i;
  else if (b === 1) j = f & 1 ? 2 * x.s.n1 - 1 - j : -1 - j;
  else k = f & 1 ? 2 * x.s.n2 - 1 - k : -1 - k;
  const X = i + x.s.dOff, Y = j + x.s.dOff, Z = k + x.s.dOff;
  if (X < 0 || Y < 0 || Z < 0 || X >= x.s.dW || Y >= x.s.dH || Z >= x.s.dD) return -1;
  return x.a.dense[X + x.s.dW * (Y + x.s.dH * Z)];
}

/** wallGhost's value for wall cell c, face axis a, mirror m (from mirrorOf). */
function ghostValue(x: SolidX, u: Float64Array, c: number, a: number, m: number): number {
  const w = x.a.wall[c];
  if (w === 7) return 0;
  const f = w - 1;
  if (a === f >> 1) return 0;
  const kind = x.a.kind[f];
  const inner = m >= 0 && x.a.type[m] !== SOLID ? u[m] : 0;
  if (kind === SLIP) return inner;
  if (kind === MOVING) return 2 * x.a.wallVelocity[3 * f + a] - inner;
  if (kind === NOSLIP) return -inner;
  return 0;
}

/**
 * Whether the serial loop would have written the face that wall cell c's ghost on axis a reads
 * before it (mirror m below c, a liquid or air cell whose face on a is fixed): then the ghost is
 * taken in the last pass, after the faces are written; otherwise in the first, before they are.
 */
function readsWritten(x: SolidX, c: number, a: number, m: number): boolean {
  return m >= 0 && m < c && x.a.type[m] !== SOLID && x.a.face[3 * m + a] === FACE_FIXED;
}

/** The ghosts of fixed faces of wall cells [from, to) on the first (late false) or last pass. */
function ghostRange(x: SolidX, from: number, to: number, late: boolean): void {
  const { face, type, wall } = x.a;
  for (let c = from; c < to; c++) {
    if (type[c] !== SOLID || wall[c] === 0) continue;
    for (let a = 0; a < 3; a++) {
      if (face[3 * c + a] !== FACE_FIXED) continue;
      const m = mirrorOf(x, c, a);
      if (readsWritten(x, c, a, m) !== late) continue;
      const u = a === 0 ? x.a.u0 : a === 1 ? x.a.u1 : x.a.u2;
      u[c] = ghostValue(x, u, c, a, m);
    }
  }
}

/** The fixed faces over cells [from, to) that are not a wall cell's ghosts: 0 beside a wall, else the object's velocity. */
function faceRange(x: SolidX, from: number, to: number): void {
  const { nb, face, type, wall } = x.a;
  for (let c = from; c < to; c++) {
    const cSolid = type[c] === SOLID;
    if (cSolid && wall[c] !== 0) continue;
    for (let a = 0; a < 3; a++) {
      if (face[3 * c + a] !== FACE_FIXED) continue;
      const m = nb[6 * c + 2 * a];
      const mSolid = m >= 0 && type[m] === SOLID;
      const u = a === 0 ? x.a.u0 : a === 1 ? x.a.u1 : x.a.u2;
      if (mSolid && wall[m] !== 0) { u[c] = 0; continue; }
      const sv = a === 0 ? x.a.sv0 : a === 1 ? x.a.sv1 : x.a.sv2;
      if (cSolid && mSolid) u[c] = 0.5 * (sv[c] + sv[m]);
      else u[c] = cSolid ? sv[c] : sv[m];
    }
  }
}

const solidCells = (x: SolidX) => x.s.count;

/**
 * applySolidVelocities on the team. A wall cell's ghost reads its mirror's velocity, a liquid or air
 * cell whose own fixed face the same loop may write: the serial loop, in cell order, read the new
 * value where the mirror comes first and the old one where it comes after. So the ghosts that read
 * an old value are taken first, then every other fixed face (none of which reads a velocity), then
 * the ghosts that read a new one: each face gets the serial loop's value, on any number of threads.
 * (A ghost is written in a solid cell, which no ghost reads.)
 */
export const solidJob = definePhasedJob({
  name: 'grid-solid-velocities',
  arrays: { u0: 'f64', u1: 'f64', u2: 'f64' },
  inputs: { nb: 'i32', face: 'u8', type: 'u8', wall: 'u8', sv0: 'f64', sv1: 'f64', sv2: 'f64', ci: 'i32', cj: 'i32', ck: 'i32', dense: 'i32', kind: 'i32', wallVelocity: 'f64' },
  scalars: ['count', 'n0', 'n1', 'n2', 'dOff', 'dW', 'dH', 'dD'],
  minItems: () => gridWork.minCells,
  phases: [
    { items: solidCells, run: (x, from, to) => ghostRange(x, from, to, false) },
    { items: solidCells, run: faceRange },
    { items: solidCells, run: (x, from, to) => ghostRange(x, from, to, true) },
  ],
});
