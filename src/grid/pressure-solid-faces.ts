/**
 * The pressure solve's faces cut by the objects' exact surface (Batty, Bertails & Bridson 2007, "A
 * fast variational framework for accurate solid-fluid coupling", §3–4): every face of a liquid row
 * between two cells that are not the object's (liquid or air) is weighed by its open area fraction
 * w_f, from the objects' signed distance on 2 × 2 samples of the face (viscosity-fractions.ts
 * openFraction, the variational viscosity's own measure of the open part). Minimising the kinetic
 * energy Σ_f w_f (u_f − u*_f)² over velocities whose flux through each cell's open faces balances the
 * object's through its closed parts gives
 *
 *   Σ_f w_f (q_c − q_n) = growth − Σ_f ± (w_f u*_f + (1 − w_f) U_f),   u_f −= q_c − q_n,
 *
 * U_f the object's velocity along the face's axis at its centre: the couplings are −w_f (not unit:
 * the solve takes them in MIC(0), or, where the liquid is deep (`multigrid`), in the multigrid V-cycle
 * built on the uncut rows (multigrid.ts) and applied as S M⁻¹ S, S = (D_uncut / D_cut)^½ per row, as
 * variable-density.ts takes its weighted rows), the update the plain one. A face wholly shut keeps a least weight
 * (OPEN_LEAST), so a row never loses its diagonal. The cells themselves stay voxelized (solids.ts:
 * a cell whose centre lies inside an object is the object's, its faces Neumann faces at the object's
 * velocity); Batty's cells whose centre lies in the object but with open faces, as pressure cells,
 * are not built (docs/decisions.md, "The grid pressure's faces cut by the objects' exact surface").
 * Off by default (`on`): the voxelized faces.
 */
import type { Preconditioner, SparseSystem } from './pcg.ts';
import type { PressureCells } from './pressure-job.ts';
import { openFraction as openFraction_ } from './viscosity-fractions.ts';
import { allocFloat64, isShared } from '../parallel/memory.ts';
import { FLUID as FLUID_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (see store.ts users).
const FLUID = FLUID_, SOLID = SOLID_, openFraction = openFraction_;

/** The least weight of a face between two cells that are not an object's, however much of it is shut. */
export const OPEN_LEAST = 0.01;
/**
 * A face whose centre lies this many cells out of the objects is wholly open: its samples lie
 * √2 h/4 from its centre and a sample is wholly open h/4 out (|∇d| ≤ 1).
 */
const FACE_SETTLED = 0.61;
/** A liquid cell whose centre lies this many cells out of the objects has all six faces open (√3 h/2 + h/4). */
const CELL_SETTLED = 1.12;

const point = new Float64Array(3);
const vel = new Float64Array(3);

/** The solver's cut faces (PressureSolver.solidFaces). */
export class SolidFaces {
  /** Cut the faces (where `distance` is given: step.ts gives it where the scene has objects); false, the default: off. */
  on = false;
  /** The objects' exact signed distance (m, negative inside) at a world point; null: no objects. */
  distance: ((x: number, y: number, z: number) => number) | null = null;
  /** The objects' velocity at a world point into `out` (m/s); null: still objects. */
  velocity: ((x: number, y: number, z: number, out: Float64Array) => void) | null = null;
  /** The grid's origin and cell size (m). */
  origin: ArrayLike<number> = [0, 0, 0];
  cell = 0;
  /** Per cell, 3 per cell: the open area fraction of the min face along a (1 where not cut). */
  open = new Float64Array(0);
  /** Per cell, 3 per cell: (1 − w) U_a on the min face along a, m/s (the object's share of its flux). */
  held = new Float64Array(0);
  /** Faces cut (w < 1) in the last `compute`. */
  cut = 0;
  /** Precondition a deep liquid's cut rows with the uncut rows' multigrid V-cycle, scaled (else MIC(0)). */
  multigrid = true;
  private unitDiag = new Float64Array(0);
  private scale = new Float64Array(0);
  private tmp = new Float64Array(0);
  private inner: Preconditioner | null = null;
  private n = 0;
  private readonly scaled: Preconditioner = { apply: (r, z, nbs) => this.applyScaled(r, z, nbs) };

  /**
   * The rows uncut (each liquid row's diagonal its count of neighbours that are not an object's or a
   * wall's, couplings −1: the multigrid's), and the scale S from them to the cut rows' diagonals.
   */
  unitRows(s: GridStore, sys: SparseSystem, cellOf: Int32Array): SparseSystem {
    const m = sys.n, nb = s.nb, type = s.type;
    if (this.unitDiag.length < m || isShared(this.unitDiag) !== s.shared) {
      this.unitDiag = allocFloat64(Math.ceil(m * 1.3) + 16, s.shared);
      this.scale = new Float64Array(this.unitDiag.length);
      this.tmp = new Float64Array(this.unitDiag.length + 1);
    }
    const unit = this.unitDiag, scale = this.scale, diag = sys.diag;
    for (let r = 0; r < m; r++) {
      const c = cellOf[r];
      let k = 0;
      for (let d = 0; d < 6; d++) {
        const o = nb[6 * c + d];
        if (o >= 0 && type[o] !== SOLID) k++;
      }
      unit[r] = k;
      scale[r] = Math.sqrt(k / diag[r]);
    }
    return { ...sys, diag: unit, unit: true };
  }

  /** The multigrid V-cycle `mg` built on `unitRows`, applied to the cut rows as S M⁻¹ S. */
  precondition(mg: Preconditioner, n: number): Preconditioner {
    this.inner = mg;
    this.n = n;
    return this.scaled;
  }

  private applyScaled(r: Float64Array, z: Float64Array, nbs: Int32Array): void {
    const n = this.n, s = this.scale, t = this.tmp;
    for (let i = 0; i < n; i++) t[i] = r[i] * s[i];
    t[n] = 0;
    this.inner!.apply(t, z, nbs);
    for (let i = 0; i < n; i++) z[i] *= s[i];
  }

  /**
   * The open fractions of the faces of the liquid cells that lie between two cells that are not an
   * object's; every other face 1. Returns whether any face is cut (false where off).
   */
  compute(s: GridStore): boolean {
    this.cut = 0;
    const dist = this.distance;
    if (!this.on || dist === null || !(this.cell > 0)) return false;
    const n = s.count, shared = s.shared;
    if (this.open.length < 3 * n || isShared(this.open) !== shared) {
      const cap = 3 * (Math.ceil(n * 1.3) + 16);
      this.open = allocFloat64(cap, shared);
      this.held = allocFloat64(cap, shared);
    }
    const { open, held } = this, { nb, type, ci, cj, ck } = s, h = this.cell, o = this.origin;
    open.fill(1, 0, 3 * n);
    held.fill(0, 0, 3 * n);
    for (let c = 0; c < n; c++) {
      if (type[c] !== FLUID) continue;
      if (dist(o[0] + h * (ci[c] + 0.5), o[1] + h * (cj[c] + 0.5), o[2] + h * (ck[c] + 0.5)) >= CELL_SETTLED * h) continue;
      for (let d = 0; d < 6; d++) {
        const m = nb[6 * c + d];
        if (m < 0 || type[m] === SOLID) continue;
        // The face's owner: the cell on its + side (its min face).
        const f = (d & 1) === 0 ? c : m, a = d >> 1;
        if (open[3 * f + a] !== 1) continue;
        this.weighFace(f, a, s, dist);
      }
    }
    return this.cut > 0;
  }

  /** Cell f's min face along a: its open fraction and the object's share of its flux. */
  private weighFace(f: number, a: number, s: GridStore, dist: (x: number, y: number, z: number) => number): void {
    const h = this.cell, o = this.origin, q = h / 4;
    point[0] = o[0] + h * (s.ci[f] + 0.5); point[1] = o[1] + h * (s.cj[f] + 0.5); point[2] = o[2] + h * (s.ck[f] + 0.5);
    point[a] -= 0.5 * h;
    if (dist(point[0], point[1], point[2]) >= FACE_SETTLED * h) return;
    const b = a === 0 ? 1 : 0, e = a === 2 ? 1 : 2;
    let sum = 0;
    const pb = point[b], pe = point[e];
    for (let t = 0; t < 4; t++) {
      point[b] = pb + (t & 1 ? q : -q);
      point[e] = pe + (t & 2 ? q : -q);
      sum += openFraction(dist(point[0], point[1], point[2]), h);
    }
    point[b] = pb; point[e] = pe;
    const w = 0.25 * sum;
    if (w >= 1) return;
    this.cut++;
    this.open[3 * f + a] = w > OPEN_LEAST ? w : OPEN_LEAST;
    if (this.velocity === null) return;
    this.velocity(point[0], point[1], point[2], vel);
    this.held[3 * f + a] = (1 - w) * vel[a];
  }
}

/**
 * Liquid cell c's row r with its faces cut by the objects (`open`, `held` from SolidFaces): −w_f to a
 * liquid neighbour, w_f on the diagonal for a liquid or air one, nothing to an object's cell (its face
 * at the object's velocity, whole); `airRow`. Returns the open divergence Σ ± (w_f u_f + (1 − w_f) U_f).
 */
export function openRow(e: PressureCells, c: number, r: number): number {
  const { nb, type, off, nbRow, row, u0, u1, u2, open, held } = e;
  let dg = 0, air = 0, div = 0;
  for (let d = 0; d < 6; d++) {
    const nc = nb[6 * c + d], a = d >> 1;
    off[6 * r + d] = 0;
    nbRow[6 * r + d] = -1;
    const f = (d & 1) === 0 ? c : nc;
    const uf = (a === 0 ? u0 : a === 1 ? u1 : u2)[f];
    const solid = nc < 0 || type[nc] === SOLID;
    const w = solid ? 1 : open[3 * f + a], flux = solid ? uf : w * uf + held[3 * f + a];
    div += (d & 1) === 0 ? -flux : flux;
    if (solid) continue;
    dg += w;
    if (type[nc] === FLUID) {
      off[6 * r + d] = -w;
      nbRow[6 * r + d] = row[nc];
    } else air++;
  }
  e.diag[r] = dg;
  e.airRow[r] = air > 0 ? 1 : 0;
  return div;
}

/** Liquid cell c's open divergence after the update (openRow's, from the updated u). */
export function openDivergence(e: PressureCells, c: number): number {
  const { nb, type, u0, u1, u2, open, held } = e;
  let div = 0;
  for (let d = 0; d < 6; d++) {
    const nc = nb[6 * c + d], a = d >> 1, f = (d & 1) === 0 ? c : nc;
    const uf = (a === 0 ? u0 : a === 1 ? u1 : u2)[f];
    const flux = nc < 0 || type[nc] === SOLID ? uf : open[3 * f + a] * uf + held[3 * f + a];
    div += (d & 1) === 0 ? -flux : flux;
  }
  return div;
}
