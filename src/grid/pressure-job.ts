/**
 * The pressure stage's passes over the cells outside the solve (pressure.ts; Cline §4 steps 3d and
 * 3e, Foster & Fedkiw 2001) on the grid's thread team, as phased jobs (phases.ts): the assembly of
 * the rows (each liquid cell writes its own row: diagonal, neighbours, right-hand side, the start
 * of x), and, after the solve, the velocity update u −= ∇q with the pressure's update and the
 * divergence left. Each row and face is computed by the same code from the same values on any
 * number of threads; the two maxima and the count of deep rows are taken per thread and combined
 * by the calling thread (exact in any order), so the bits are one thread's.
 */
import type { JobArgs } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { definePhasedJob, gridWork } from './phases.ts';
import { MG_DIRICHLET as MG_DIRICHLET_, MG_INTERIOR as MG_INTERIOR_, MG_NEUMANN as MG_NEUMANN_ } from './multigrid.ts';
import { faceArea, faceFraction } from './pressure-faces.ts';
import { openDivergence, openRow } from './pressure-solid-faces.ts';
import { AIR as AIR_, FACE_ACTIVE as FACE_ACTIVE_, FLUID as FLUID_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const AIR = AIR_, FACE_ACTIVE = FACE_ACTIVE_, FLUID = FLUID_, SOLID = SOLID_;
const MG_DIRICHLET = MG_DIRICHLET_, MG_INTERIOR = MG_INTERIOR_, MG_NEUMANN = MG_NEUMANN_;

/**
 * Entries per thread in `red`: max |h ∇·u|, the deep rows and the liquid's box (x0, x1, y0, y1,
 * z0, z1) from the assembly; max |h ∇·u − growth| from the update.
 */
export const RED_STRIDE = 8;
/** Beyond any cell index: the box's start before a thread has seen a cell. */
const FAR = 2 ** 30;
/** The most threads whose partial results `red` holds. */
export const RED_THREADS = 64;

/** The arrays and numbers of the passes (the store's, the system's and the solver's). */
export interface PressureCells {
  ci: Int32Array;
  cj: Int32Array;
  ck: Int32Array;
  row: Int32Array;
  cellOf: Int32Array;
  nb: Int32Array;
  type: Uint8Array;
  face: Uint8Array;
  u0: Float64Array;
  u1: Float64Array;
  u2: Float64Array;
  pressure: Float64Array;
  /** φ at the cells (read where `ghost` > 0). */
  phi: Float64Array;
  diag: Float64Array;
  off: Float64Array;
  nbRow: Int32Array;
  rhs: Float64Array;
  airRow: Uint8Array;
  x: Float64Array;
  q: Float64Array;
  /** Each row's share of a negative growth; length 0: uniform. */
  share: Float64Array;
  /** Per thread (RED_STRIDE entries each): the partial maxima and counts. */
  red: Float64Array;
  growth: number;
  warm: boolean;
  /**
   * The ghost fluid's least θ (the free surface's place between a liquid and an air centre,
   * `ghostTheta`); 0: the surface on the air cell's centre (q = 0 there), Cline's and Foster &
   * Fedkiw's condition.
   */
  ghost: number;
  /** The axes (bit a for axis a) whose faces take the ghost fluid's θ where `ghost` > 0. */
  ghostAxes: number;
  /**
   * On the other axes' faces, the ghost fluid's θ from a liquid centre with φ ≥ −ghostAcross (m)
   * alone (where `ghost` > 0; 0: none, those faces keep the plain condition).
   */
  ghostAcross: number;
  /**
   * The least liquid fraction of a free-surface face's control volume (`faceFraction`) on the
   * `fractionAxes` faces; 0: off (those faces take the ghost fluid's θ or the plain condition).
   */
  fractions: number;
  /** The axes (bit a for axis a) whose liquid–air faces take `faceFraction` where `fractions` > 0. */
  fractionAxes: number;
  /**
   * The least liquid area fraction of a face (`faceArea`), the weight of every face of a liquid
   * row in the matrix and the divergence; 0: off (every face weighs 1).
   */
  areas: number;
  /** 1: `areas` weighs the free-surface faces (a liquid and an air cell) alone, the rest 1. */
  areasSurface: number;
  /** The cell size (m), the scale of `faceFraction`'s and `faceArea`'s samples. */
  cell: number;
  /** The faces' open fractions and the objects' share of their flux (pressure-solid-faces.ts); length 0: off. */
  open: Float64Array;
  held: Float64Array;
}

export const emptyPressureCells = (): PressureCells => ({
  ci: new Int32Array(0), cj: new Int32Array(0), ck: new Int32Array(0), row: new Int32Array(0), cellOf: new Int32Array(0), nb: new Int32Array(0), type: new Uint8Array(0), face: new Uint8Array(0),
  u0: new Float64Array(0), u1: new Float64Array(0), u2: new Float64Array(0), pressure: new Float64Array(0), phi: new Float64Array(0),
  diag: new Float64Array(0), off: new Float64Array(0), nbRow: new Int32Array(0), rhs: new Float64Array(0), airRow: new Uint8Array(0),
  x: new Float64Array(0), q: new Float64Array(0), share: new Float64Array(0), red: new Float64Array(0), growth: 0, warm: false, ghost: 0, ghostAxes: 0, ghostAcross: 0,
  fractions: 0, fractionAxes: 0, areas: 0, areasSurface: 0, cell: 0, open: new Float64Array(0), held: new Float64Array(0),
});

/**
 * The share θ of the way from a liquid centre (φ_l < 0) to an air centre (φ_a > 0) at which φ
 * crosses zero, at least `least`: the ghost fluid's free surface (Gibou, Fedkiw, Cheng & Kang 2002;
 * Enright, Nguyen, Gibou & Fedkiw 2003 §4), where p = 0 is put at the surface, not on the air
 * centre, so that q_air = −q_l (1 − θ) / θ: the liquid row's diagonal takes 1/θ for that neighbour
 * and the face's update (q_l − 0) / θ. 1 (the plain condition) where the two φ do not straddle zero
 * (a row released at a solid, a sheet the tracker keeps liquid with φ ≥ 0).
 */
export function ghostTheta(phiLiquid: number, phiAir: number, least: number): number {
  if (!(phiLiquid < 0 && phiAir > 0)) return 1;
  const t = phiLiquid / (phiLiquid - phiAir);
  return t > least ? t : least;
}

/**
 * Cells [from, to): each liquid cell's row (couplings −1 to liquid neighbours, the diagonal its
 * non-solid neighbours, rhs = target − h ∇·u) and x's start (the last pressure where `warm`); into
 * red[RED_STRIDE · rank]: max |h ∇·u| and the rows without an air neighbour.
 */
export function assembleRange(e: PressureCells, rank: number, from: number, to: number): void {
  const { row, cellOf, nb, type, u0, u1, u2, diag, off, nbRow, rhs, airRow, x, pressure } = e;
  const share = e.share.length > 0 ? e.share : null, growth = e.growth, warm = e.warm;
  const { ci, cj, ck, phi } = e, ghost = e.ghost, axes = e.ghostAxes, across = -e.ghostAcross;
  const fractions = e.fractions, fAxes = fractions > 0 ? e.fractionAxes : 0, cell = e.cell, areas = e.areas, cutFaces = e.open.length > 0;
  let divMax = 0, deep = 0, x0 = FAR, x1 = -FAR, y0 = FAR, y1 = -FAR, z0 = FAR, z1 = -FAR;
  for (let c = from; c < to; c++) {
    const r = row[c];
    if (r < 0) continue;
    cellOf[r] = c;
    const i = ci[c], j = cj[c], k = ck[c];
    if (i < x0) x0 = i;
    if (i > x1) x1 = i;
    if (j < y0) y0 = j;
    if (j > y1) y1 = j;
    if (k < z0) z0 = k;
    if (k > z1) z1 = k;
    if (areas > 0 || cutFaces) {
      // Every face weighed by its liquid area (faceArea), or by its open area (pressure-solid-faces.ts).
      const div = cutFaces ? openRow(e, c, r) : areaRow(e, c, r, areas, fAxes, fractions, ghost, axes, across, cell);
      if (airRow[r] === 0) deep++;
      rhs[r] = (share ? share[r] * growth : growth) - div;
      if (Math.abs(div) > divMax) divMax = Math.abs(div);
      x[r] = warm ? pressure[c] : 0;
      continue;
    }
    let dg = 0, wet = 0;
    for (let d = 0; d < 6; d++) {
      const nc = nb[6 * c + d];
      off[6 * r + d] = 0;
      nbRow[6 * r + d] = -1;
      if (nc < 0 || type[nc] === SOLID) continue;
      if (type[nc] === FLUID) {
        dg++;
        off[6 * r + d] = -1;
        nbRow[6 * r + d] = row[nc];
        wet++;
      } else if (((fAxes >> (d >> 1)) & 1) !== 0) dg += 1 / faceFraction(phi, nb, c, nc, d, cell, fractions);
      else dg += ghost > 0 && (((axes >> (d >> 1)) & 1) !== 0 || phi[c] >= across) ? 1 / ghostTheta(phi[c], phi[nc], ghost) : 1;
    }
    diag[r] = dg;
    const dry = dg !== wet;
    if (!dry) deep++;
    airRow[r] = dry ? 1 : 0;
    const div = u0[nb[6 * c + 1]] - u0[c] + u1[nb[6 * c + 3]] - u1[c] + u2[nb[6 * c + 5]] - u2[c];
    rhs[r] = (share ? share[r] * growth : growth) - div;
    if (Math.abs(div) > divMax) divMax = Math.abs(div);
    x[r] = warm ? pressure[c] : 0;
  }
  // (Added to, not set: bench/grid-team-balance.ts runs a pass's halves as rank 0 in turn.)
  const red = e.red, o = RED_STRIDE * rank;
  red[o] = Math.max(red[o], divMax);
  red[o + 1] += deep;
  red[o + 2] = Math.min(red[o + 2], x0); red[o + 3] = Math.max(red[o + 3], x1);
  red[o + 4] = Math.min(red[o + 4], y0); red[o + 5] = Math.max(red[o + 5], y1);
  red[o + 6] = Math.min(red[o + 6], z0); red[o + 7] = Math.max(red[o + 7], z1);
}

/**
 * Liquid cell c's row r with every face (the free-surface faces alone where `areasSurface`) weighed
 * by its liquid area a_f (faceArea, at least `least`): −a_f to a liquid neighbour, a_f / θ to an air one (θ: faceFraction on the `fAxes`
 * faces, the ghost fluid's on its faces, else 1), nothing to a solid; `airRow`. Returns the
 * weighted divergence Σ ± a_f u_f over the six faces.
 */
function areaRow(e: PressureCells, c: number, r: number, least: number, fAxes: number, fractions: number, ghost: number, axes: number, across: number, cell: number): number {
  const { nb, type, phi, off, nbRow, row, u0, u1, u2 } = e;
  let dg = 0, air = 0, div = 0;
  for (let d = 0; d < 6; d++) {
    const nc = nb[6 * c + d], a = d >> 1;
    off[6 * r + d] = 0;
    nbRow[6 * r + d] = -1;
    const w = nc < 0 || (e.areasSurface !== 0 && type[nc] !== AIR) ? 1 : faceArea(phi, nb, c, nc, d, cell, least);
    // The face's velocity: c's own on the − side, the neighbour's on the + side.
    const uf = (a === 0 ? u0 : a === 1 ? u1 : u2)[(d & 1) === 0 ? c : nb[6 * c + d]];
    div += (d & 1) === 0 ? -w * uf : w * uf;
    if (nc < 0 || type[nc] === SOLID) continue;
    if (type[nc] === FLUID) {
      dg += w;
      off[6 * r + d] = -w;
      nbRow[6 * r + d] = row[nc];
    } else {
      air++;
      const t = ((fAxes >> a) & 1) !== 0 ? faceFraction(phi, nb, c, nc, d, cell, fractions)
        : ghost > 0 && (((axes >> a) & 1) !== 0 || phi[c] >= across) ? ghostTheta(phi[c], phi[nc], ghost) : 1;
      // The energy's weight t on a face whose constraint weight is w: w² / t in the matrix, the
      // update (w / t) Δq (areaUpdateRange); t = w where neither θ is on (the plain update).
      dg += t === 1 ? w : w * w / t;
    }
  }
  e.diag[r] = dg;
  e.airRow[r] = air > 0 ? 1 : 0;
  return div;
}

/** Cells [from, to): q per cell from the solution (0 outside the liquid). */
export function cellPressureRange(e: PressureCells, from: number, to: number): void {
  const { row, x, q } = e;
  for (let c = from; c < to; c++) q[c] = row[c] >= 0 ? x[row[c]] : 0;
}

/** Cells [from, to), step 3e: u −= q_c − q_(c−a) on the solved faces; the pressure's update. */
export function updateRange(e: PressureCells, from: number, to: number): void {
  const { nb, face, u0, u1, u2, q, pressure } = e, warm = e.warm;
  if (e.areas > 0 && e.open.length === 0) {
    areaUpdateRange(e, from, to);
    return;
  }
  if (e.ghost > 0 || e.fractions > 0) {
    ghostUpdateRange(e, from, to);
    return;
  }
  for (let c = from; c < to; c++) {
    const qc = q[c];
    if (face[3 * c] === FACE_ACTIVE) u0[c] -= qc - q[nb[6 * c]];
    if (face[3 * c + 1] === FACE_ACTIVE) u1[c] -= qc - q[nb[6 * c + 2]];
    if (face[3 * c + 2] === FACE_ACTIVE) u2[c] -= qc - q[nb[6 * c + 4]];
    pressure[c] = warm ? qc : pressure[c] + qc;
  }
}

/**
 * updateRange with the ghost fluid's θ, or the liquid fraction of the face's control volume
 * (`faceFraction`), on the faces between a liquid and an air cell.
 */
function ghostUpdateRange(e: PressureCells, from: number, to: number): void {
  const { nb, face, type, phi, u0, u1, u2, q, pressure } = e, warm = e.warm, least = e.ghost, axes = e.ghostAxes, across = -e.ghostAcross;
  const fractions = e.fractions, fAxes = fractions > 0 ? e.fractionAxes : 0, cell = e.cell;
  for (let c = from; c < to; c++) {
    const qc = q[c], tc = type[c], pc = phi[c];
    for (let a = 0; a < 3; a++) {
      if (face[3 * c + a] !== FACE_ACTIVE) continue;
      const n = nb[6 * c + 2 * a], tn = type[n];
      let g = qc - q[n];
      if (((fAxes >> a) & 1) !== 0) {
        // n lies on c's −a side (direction 2a from c, 2a + 1 from n).
        if (tc === FLUID && tn === AIR) g /= faceFraction(phi, nb, c, n, 2 * a, cell, fractions);
        else if (tc === AIR && tn === FLUID) g /= faceFraction(phi, nb, n, c, 2 * a + 1, cell, fractions);
        (a === 0 ? u0 : a === 1 ? u1 : u2)[c] -= g;
        continue;
      }
      // On the other axes only from a liquid centre within ghostAcross of the surface.
      const all = ((axes >> a) & 1) !== 0;
      if (tc === FLUID && tn === AIR) { if (all || pc >= across) g /= ghostTheta(pc, phi[n], least); }
      else if (tc === AIR && tn === FLUID && (all || phi[n] >= across)) g /= ghostTheta(phi[n], pc, least);
      (a === 0 ? u0 : a === 1 ? u1 : u2)[c] -= g;
    }
    pressure[c] = warm ? qc : pressure[c] + qc;
  }
}

/**
 * updateRange with every face weighed by its liquid area a (`areas`): a face between a liquid and an
 * air cell takes (a / t) Δq, t its energy weight (faceFraction on the fraction axes, the ghost
 * fluid's θ on its axes), or Δq where neither is on; faces between liquid cells Δq.
 */
function areaUpdateRange(e: PressureCells, from: number, to: number): void {
  const { nb, face, type, phi, u0, u1, u2, q, pressure } = e, warm = e.warm, least = e.ghost, axes = e.ghostAxes, across = -e.ghostAcross;
  const fractions = e.fractions, fAxes = fractions > 0 ? e.fractionAxes : 0, cell = e.cell, areas = e.areas;
  for (let c = from; c < to; c++) {
    const qc = q[c], tc = type[c];
    for (let a = 0; a < 3; a++) {
      if (face[3 * c + a] !== FACE_ACTIVE) continue;
      const n = nb[6 * c + 2 * a], tn = type[n];
      let g = qc - q[n];
      // The liquid cell l and the direction d from it to the air cell.
      const l = tc === FLUID && tn === AIR ? c : tc === AIR && tn === FLUID ? n : -1;
      if (l >= 0) {
        const o = l === c ? n : c, d = l === c ? 2 * a : 2 * a + 1;
        const t = ((fAxes >> a) & 1) !== 0 ? faceFraction(phi, nb, l, o, d, cell, fractions)
          : least > 0 && (((axes >> a) & 1) !== 0 || phi[l] >= across) ? ghostTheta(phi[l], phi[o], least) : 1;
        if (t !== 1) g *= faceArea(phi, nb, l, o, d, cell, areas) / t;
      }
      (a === 0 ? u0 : a === 1 ? u1 : u2)[c] -= g;
    }
    pressure[c] = warm ? qc : pressure[c] + qc;
  }
}

/** Rows [from, to): max |h ∇·u − target| after the update, into red[RED_STRIDE · rank]. */
export function divergenceRange(e: PressureCells, rank: number, from: number, to: number): void {
  const { cellOf, nb, u0, u1, u2 } = e;
  const share = e.share.length > 0 ? e.share : null, growth = e.growth;
  let after = 0;
  for (let r = from; r < to; r++) {
    const c = cellOf[r];
    const div = (e.open.length > 0 ? openDivergence(e, c) : u0[nb[6 * c + 1]] - u0[c] + u1[nb[6 * c + 3]] - u1[c] + u2[nb[6 * c + 5]] - u2[c]) - (share ? share[r] * growth : growth);
    if (Math.abs(div) > after) after = Math.abs(div);
  }
  e.red[RED_STRIDE * rank] = Math.max(e.red[RED_STRIDE * rank], after);
}

const ARRAYS = {
  cellOf: 'i32', diag: 'f64', off: 'f64', nbRow: 'i32', rhs: 'f64', airRow: 'u8', x: 'f64', q: 'f64',
  u0: 'f64', u1: 'f64', u2: 'f64', pressure: 'f64', red: 'f64',
} as const;
const INPUTS = { ci: 'i32', cj: 'i32', ck: 'i32', row: 'i32', nb: 'i32', type: 'u8', face: 'u8', share: 'f64', phi: 'f64', open: 'f64', held: 'f64' } as const;
type X = JobArgs<typeof ARRAYS, typeof INPUTS, 'count' | 'rows' | 'growth' | 'warm' | 'ghost' | 'ghostAxes' | 'ghostAcross' | 'fractions' | 'fractionAxes' | 'areas' | 'areasSurface' | 'cell', Record<never, never>, PressureCells>;

function prepare(x: X): void {
  const e = x.scratch, a = x.a;
  e.ci = a.ci; e.cj = a.cj; e.ck = a.ck; e.row = a.row; e.cellOf = a.cellOf; e.nb = a.nb; e.type = a.type; e.face = a.face;
  e.u0 = a.u0; e.u1 = a.u1; e.u2 = a.u2; e.pressure = a.pressure;
  e.diag = a.diag; e.off = a.off; e.nbRow = a.nbRow; e.rhs = a.rhs; e.airRow = a.airRow;
  e.x = a.x; e.q = a.q; e.share = a.share; e.red = a.red; e.phi = a.phi; e.open = a.open; e.held = a.held;
  e.growth = x.s.growth; e.warm = x.s.warm !== 0; e.ghost = x.s.ghost; e.ghostAxes = x.s.ghostAxes; e.ghostAcross = x.s.ghostAcross;
  e.fractions = x.s.fractions; e.fractionAxes = x.s.fractionAxes; e.areas = x.s.areas; e.areasSurface = x.s.areasSurface; e.cell = x.s.cell;
}
const cells = (x: X) => x.s.count;

export const assembleJob = definePhasedJob({
  name: 'grid-pressure-assemble',
  arrays: ARRAYS,
  inputs: INPUTS,
  scalars: ['count', 'rows', 'growth', 'warm', 'ghost', 'ghostAxes', 'ghostAcross', 'fractions', 'fractionAxes', 'areas', 'areasSurface', 'cell'],
  minItems: () => gridWork.minCells,
  scratch: emptyPressureCells,
  prepare,
  phases: [{ items: cells, run: (x, from, to) => assembleRange(x.scratch, x.rank, from, to) }],
});

export const updateJob = definePhasedJob({
  name: 'grid-pressure-update',
  arrays: ARRAYS,
  inputs: INPUTS,
  scalars: ['count', 'rows', 'growth', 'warm', 'ghost', 'ghostAxes', 'ghostAcross', 'fractions', 'fractionAxes', 'areas', 'areasSurface', 'cell'],
  minItems: () => gridWork.minCells,
  scratch: emptyPressureCells,
  prepare,
  first: [{ items: cells, run: (x, from, to) => cellPressureRange(x.scratch, from, to) }],
  phases: [{ items: cells, run: (x, from, to) => updateRange(x.scratch, from, to) }],
  last: [{ items: (x) => x.s.rows, run: (x, from, to) => divergenceRange(x.scratch, x.rank, from, to) }],
});

/**
 * Runs the assembly (`update` false) or the update (true) over the store's `count` cells and `e`'s
 * rows: on the store's runner where it has one, else here. `red` is zeroed first, so the partial
 * results of threads that took no part read as nothing.
 */
export function runPressurePasses(s: GridStore, e: PressureCells, rows: number, update: boolean): void {
  const n = s.count;
  for (let t = 0; t < RED_THREADS; t++) {
    const o = RED_STRIDE * t;
    e.red[o] = e.red[o + 1] = 0;
    e.red[o + 2] = e.red[o + 4] = e.red[o + 6] = FAR;
    e.red[o + 3] = e.red[o + 5] = e.red[o + 7] = -FAR;
  }
  if (!s.runner) {
    if (!update) assembleRange(e, 0, 0, n);
    else {
      cellPressureRange(e, 0, n);
      updateRange(e, 0, n);
      divergenceRange(e, 0, 0, rows);
    }
    return;
  }
  const job = s.runner.bind(update ? updateJob : assembleJob), a = job.a;
  a.cellOf = e.cellOf; a.diag = e.diag; a.off = e.off; a.nbRow = e.nbRow; a.rhs = e.rhs; a.airRow = e.airRow;
  a.x = e.x; a.q = e.q; a.u0 = e.u0; a.u1 = e.u1; a.u2 = e.u2; a.pressure = e.pressure; a.red = e.red;
  a.ci = e.ci; a.cj = e.cj; a.ck = e.ck; a.row = e.row; a.nb = e.nb; a.type = e.type; a.face = e.face; a.share = e.share; a.phi = e.phi; a.open = e.open; a.held = e.held;
  job.s.count = n; job.s.rows = rows; job.s.growth = e.growth; job.s.warm = e.warm ? 1 : 0; job.s.ghost = e.ghost; job.s.ghostAxes = e.ghostAxes; job.s.ghostAcross = e.ghostAcross;
  job.s.fractions = e.fractions; job.s.fractionAxes = e.fractionAxes; job.s.areas = e.areas; job.s.areasSurface = e.areasSurface; job.s.cell = e.cell;
  runJob(job, n);
}

/** The multigrid's labels (multigrid.ts): the liquid's box, from x0, y0, z0, nx, ny, nz cells. */
type FlagX = JobArgs<{ flag: 'u8'; ri: 'i32'; rj: 'i32'; rk: 'i32' }, { ci: 'i32'; cj: 'i32'; ck: 'i32'; type: 'u8'; cellOf: 'i32' }, 'count' | 'rows' | 'x0' | 'y0' | 'z0' | 'nx' | 'ny' | 'nz', Record<never, never>, undefined>;

/** Cells [from, to) in the box or its ring: interior (liquid), Dirichlet (air) or Neumann (solid). */
function flagRange(x: FlagX, from: number, to: number): void {
  const { flag, ci, cj, ck, type } = x.a, { x0, y0, z0, nx, ny, nz } = x.s, sx = nx + 2, sy = ny + 2;
  for (let c = from; c < to; c++) {
    const i = ci[c] - x0, j = cj[c] - y0, k = ck[c] - z0;
    if (i < -1 || j < -1 || k < -1 || i > nx || j > ny || k > nz) continue;
    const t = type[c];
    flag[i + 1 + sx * (j + 1 + sy * (k + 1))] = t === FLUID ? MG_INTERIOR : t === AIR ? MG_DIRICHLET : MG_NEUMANN;
  }
}

/** Rows [from, to): each row's cell in the box's indices. */
function rowBoxRange(x: FlagX, from: number, to: number): void {
  const { ri, rj, rk, ci, cj, ck, cellOf } = x.a, { x0, y0, z0 } = x.s;
  for (let r = from; r < to; r++) {
    const c = cellOf[r];
    ri[r] = ci[c] - x0; rj[r] = cj[c] - y0; rk[r] = ck[c] - z0;
  }
}

export const flagJob = definePhasedJob({
  name: 'grid-multigrid-flags',
  arrays: { flag: 'u8', ri: 'i32', rj: 'i32', rk: 'i32' },
  inputs: { ci: 'i32', cj: 'i32', ck: 'i32', type: 'u8', cellOf: 'i32' },
  scalars: ['count', 'rows', 'x0', 'y0', 'z0', 'nx', 'ny', 'nz'],
  minItems: () => gridWork.minCells,
  phases: [
    { items: (x: FlagX) => x.s.count, run: flagRange },
    { items: (x: FlagX) => x.s.rows, run: rowBoxRange },
  ],
});

/**
 * The liquid cells' labels in `flag` (its ring already Dirichlet or Neumann) and the rows' box
 * indices, on the store's runner where it has one.
 */
export function labelBox(s: GridStore, cellOf: Int32Array, rows: number, box: readonly number[], flag: Uint8Array, ri: Int32Array, rj: Int32Array, rk: Int32Array): void {
  const [x0, y0, z0, nx, ny, nz] = box;
  const runner = s.runner;
  const job = runner ? runner.bind(flagJob) : null;
  if (!job) {
    // No runner (a store of its own): the same passes here.
    const x = { a: { flag, ri, rj, rk, ci: s.ci, cj: s.cj, ck: s.ck, type: s.type, cellOf }, s: { count: s.count, rows, x0, y0, z0, nx, ny, nz } } as unknown as FlagX;
    flagRange(x, 0, s.count);
    rowBoxRange(x, 0, rows);
    return;
  }
  const a = job.a;
  a.flag = flag; a.ri = ri; a.rj = rj; a.rk = rk; a.ci = s.ci; a.cj = s.cj; a.ck = s.ck; a.type = s.type; a.cellOf = cellOf;
  const x = job.s;
  x.count = s.count; x.rows = rows; x.x0 = x0; x.y0 = y0; x.z0 = z0; x.nx = nx; x.ny = ny; x.nz = nz;
  runJob(job, Math.max(s.count, rows));
}
