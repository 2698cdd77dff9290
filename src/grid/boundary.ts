/**
 * Step 3g, solid velocities (Cline §4): faces touching a solid hold the solid's velocity, so no
 * liquid flows into it. At a box wall the face on the wall holds 0 (walls move only tangentially)
 * and the tangential samples inside the wall cells are mirror ghosts of the liquid next to them:
 * −u for no-slip, +u for slip, 2U − u for a moving wall, which puts the wall exactly on the face for
 * interpolation, advection and explicit viscosity. Inside an object the samples hold the object's
 * velocity (set by solids.ts); a face between liquid and object holds the object's normal velocity.
 * Where the store has a runner with a team and its dense table, the loop runs as three passes of a
 * job on the grid's thread team (solidJob) that give every face the serial loop's value.
 */
import { MOVING as MOVING_, NOSLIP as NOSLIP_, SLIP as SLIP_, type GridDomain } from './domain.ts';
import type { JobArgs } from '../parallel/job.ts';
import { allocInt32, isShared } from '../parallel/memory.ts';
import { runJob } from '../parallel/run-job.ts';
import { definePhasedJob, gridWork } from './phases.ts';
import { FACE_FIXED as FACE_FIXED_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const MOVING = MOVING_, NOSLIP = NOSLIP_, SLIP = SLIP_, FACE_FIXED = FACE_FIXED_, SOLID = SOLID_;

/** The first pass's deferred ghosts (solidJob), 3 per cell; its contents live for one call. */
let lateMirror = new Int32Array(0);

export function applySolidVelocities(s: GridStore, d: GridDomain): void {
  const job = s.runner !== null && s.dense !== null ? s.runner.bind(solidJob) : null;
  if (job !== null && (gridWork.teamPathOnOneThread || job.threads(s.count) > 1)) {
    // Three passes on the team (see solidJob), the serial loop's values; on one thread the loop
    // below costs less (the passes took 1.2–1.3 times its time inline).
    const a = job.a, x = job.s;
    if (lateMirror.length < 3 * s.count || isShared(lateMirror) !== s.shared) lateMirror = allocInt32(3 * s.capacity, s.shared);
    a.late = lateMirror;
    a.u0 = s.u[0]; a.u1 = s.u[1]; a.u2 = s.u[2];
    a.nb = s.nb; a.face = s.face; a.type = s.type; a.wall = s.wall; a.sv0 = s.solidVel[0]; a.sv1 = s.solidVel[1]; a.sv2 = s.solidVel[2];
    a.ci = s.ci; a.cj = s.cj; a.ck = s.ck; a.dense = s.dense!; a.kind = d.kind; a.wallVelocity = d.wallVelocity;
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
  { u0: 'f64'; u1: 'f64'; u2: 'f64'; late: 'i32' },
  { nb: 'i32'; face: 'u8'; type: 'u8'; wall: 'u8'; sv0: 'f64'; sv1: 'f64'; sv2: 'f64'; ci: 'i32'; cj: 'i32'; ck: 'i32'; dense: 'i32'; kind: 'i32'; wallVelocity: 'f64' },
  'count' | 'n0' | 'n1' | 'n2' | 'dOff' | 'dW' | 'dH' | 'dD', Record<never, never>, undefined
>;

/**
 * The ghosts of the fixed faces of wall cells [from, to) (wallGhost's values, the mirror found in
 * the store's dense table) whose mirror the serial loop had not written yet. The others (the mirror
 * below c, a liquid or air cell whose face on the same axis is fixed) are left to lateGhostRange,
 * their mirror + 1 in `late` (0 for every other fixed face of a wall cell).
 */
function ghostRange(x: SolidX, from: number, to: number): void {
  const { face, type, wall, ci, cj, ck, dense, kind, wallVelocity, u0, u1, u2, late } = x.a;
  const { n0, n1, n2, dOff, dW, dH, dD } = x.s;
  for (let c = from; c < to; c++) {
    const w = wall[c];
    if (w === 0 || type[c] !== SOLID) continue;
    for (let a = 0; a < 3; a++) {
      if (face[3 * c + a] !== FACE_FIXED) continue;
      const u = a === 0 ? u0 : a === 1 ? u1 : u2;
      const f = w - 1, b = f >> 1;
      late[3 * c + a] = 0;
      if (w === 7 || a === b) {
        u[c] = 0;
        continue;
      }
      let i = ci[c], j = cj[c], k = ck[c];
      if (b === 0) i = f & 1 ? 2 * n0 - 1 - i : -1 - i;
      else if (b === 1) j = f & 1 ? 2 * n1 - 1 - j : -1 - j;
      else k = f & 1 ? 2 * n2 - 1 - k : -1 - k;
      const X = i + dOff, Y = j + dOff, Z = k + dOff;
      const m = X < 0 || Y < 0 || Z < 0 || X >= dW || Y >= dH || Z >= dD ? -1 : dense[X + dW * (Y + dH * Z)];
      const fluid = m >= 0 && type[m] !== SOLID;
      if (fluid && m < c && face[3 * m + a] === FACE_FIXED) {
        late[3 * c + a] = m + 1;
        continue;
      }
      u[c] = ghost(kind[f], wallVelocity[3 * f + a], fluid ? u[m] : 0);
    }
  }
}

/** The ghosts ghostRange left over wall cells [from, to), from their mirrors' new values. */
function lateGhostRange(x: SolidX, from: number, to: number): void {
  const { face, type, wall, kind, wallVelocity, u0, u1, u2, late } = x.a;
  for (let c = from; c < to; c++) {
    const w = wall[c];
    if (w === 0 || type[c] !== SOLID) continue;
    for (let a = 0; a < 3; a++) {
      if (face[3 * c + a] !== FACE_FIXED) continue;
      const m = late[3 * c + a] - 1;
      if (m < 0) continue;
      const u = a === 0 ? u0 : a === 1 ? u1 : u2, f = w - 1;
      u[c] = ghost(kind[f], wallVelocity[3 * f + a], u[m]);
    }
  }
}

/** A wall ghost's value from its mirror's velocity `inner` (wallGhost's). */
function ghost(kd: number, wallU: number, inner: number): number {
  return kd === SLIP ? inner : kd === MOVING ? 2 * wallU - inner : kd === NOSLIP ? -inner : 0;
}

/** The fixed faces over cells [from, to) that are not a wall cell's ghosts: 0 beside a wall, else the object's velocity. */
function faceRange(x: SolidX, from: number, to: number): void {
  const { nb, face, type, wall, u0, u1, u2, sv0, sv1, sv2 } = x.a;
  for (let c = from; c < to; c++) {
    const cSolid = type[c] === SOLID;
    if (cSolid && wall[c] !== 0) continue;
    for (let a = 0; a < 3; a++) {
      if (face[3 * c + a] !== FACE_FIXED) continue;
      const m = nb[6 * c + 2 * a];
      const mSolid = m >= 0 && type[m] === SOLID;
      const u = a === 0 ? u0 : a === 1 ? u1 : u2;
      if (mSolid && wall[m] !== 0) { u[c] = 0; continue; }
      const sv = a === 0 ? sv0 : a === 1 ? sv1 : sv2;
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
 * an old value are taken first (the others' mirrors noted), then every other fixed face (none of
 * which reads a velocity), then the ghosts that read a new one: each face gets the serial loop's
 * value, on any number of threads.
 * (A ghost is written in a solid cell, which no ghost reads.)
 */
export const solidJob = definePhasedJob({
  name: 'grid-solid-velocities',
  arrays: { u0: 'f64', u1: 'f64', u2: 'f64', late: 'i32' },
  inputs: { nb: 'i32', face: 'u8', type: 'u8', wall: 'u8', sv0: 'f64', sv1: 'f64', sv2: 'f64', ci: 'i32', cj: 'i32', ck: 'i32', dense: 'i32', kind: 'i32', wallVelocity: 'f64' },
  scalars: ['count', 'n0', 'n1', 'n2', 'dOff', 'dW', 'dH', 'dD'],
  minItems: () => gridWork.minCells,
  phases: [
    { items: solidCells, run: ghostRange },
    { items: solidCells, run: faceRange },
    { items: solidCells, run: lateGhostRange },
  ],
});
