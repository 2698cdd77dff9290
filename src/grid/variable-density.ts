/**
 * Liquids of different densities on one grid: the projection with ρ per face (Kang, Fedkiw & Liu
 * 2000, "A boundary condition capturing method for multiphase incompressible flow"; Bridson,
 * "Fluid Simulation for Computer Graphics", 2nd ed., §5.4 and ch. 8), on Cline et al. §4's
 * pressure (pressure.ts). The solve's unknown stays q = p Δt / (ρ₀ h), ρ₀ the first liquid's
 * density (liquid.ts gridLiquid), so that a scene whose liquids share one ρ takes the plain path
 * and a free body's force (buoyancy.ts) reads p as before. With β_f = ρ₀ / ρ_f on each face the
 * system is ∇·((Δt/ρ) ∇p) = ∇·u*:
 *
 *   Σ_{non-solid n} β_f (q_c − q_n) = h ∇·u_c,   u_f −= β_f (q_c − q_(c−a)),
 *
 * still symmetric positive definite. ρ per cell is the tracers' (liquid-tracers.ts cellMean)
 * arithmetic mean of ρ: a mixture's mass per volume is its volume fractions' mean of ρ (the
 * tracers stand for volume), so a cell half of each liquid holds the mean of their masses;
 * a cell no tracer reaches takes ρ₀. A face between two liquid cells takes the mean of their ρ
 * (the mass of the face's control volume, half in each cell; Bridson §5.4's ρ at the face); a face
 * between a liquid and an air cell the liquid's ρ (the air weighs nothing: the free surface's
 * condition, ghost fluid's θ included, is scaled as it stands).
 *
 * The rows are assembled as for one density (pressure-job.ts) and weighed here: each coupling −w
 * to a liquid neighbour becomes −w β_f, the air part of the diagonal (the diagonal less the
 * couplings' sum) is multiplied by β of the row's own cell. The multigrid preconditioner
 * (multigrid.ts) is built on the unweighted rows, the Laplacian of one density, and applied as
 * S M⁻¹ S with S = (D₁ / D_β)^½ per row (D the diagonals): where the density is uniform the
 * weighted rows are the unweighted ones times β and S M⁻¹ S is exactly their V-cycle; only the
 * rows at an interface between liquids differ, so that the preconditioned system stays within
 * ρ_max / ρ_min of the one-density one's condition number (the V-cycle stays symmetric positive
 * definite). The velocity update runs as for one density and is weighed face by face afterwards:
 * u = u_before + β_f (u_after − u_before).
 *
 * The viscous solves take μ = ρ ν per cell (viscosity.ts, viscosity-variational.ts): each face's
 * mass ρ_f / ρ₀ (the two cells' mean) multiplies its unit term, and the cells' ν are replaced by
 * ρ ν / ρ₀, so that the step is ρ_f (u − u*) = Δt ∇·(μ (∇u + ∇uᵀ)) divided by ρ₀: still symmetric.
 * Gravity stays g (a body force per mass).
 */
import { allocFloat64, isShared } from '../parallel/memory.ts';
import type { Scene } from '../scene/scene.ts';
import type { LiquidTracers } from './liquid-tracers.ts';
import { liquidsPutIn } from './liquid.ts';
import type { Preconditioner, SparseSystem } from './pcg.ts';
import type { PressureCells } from './pressure-job.ts';
import { FACE_ACTIVE as FACE_ACTIVE_, FLUID as FLUID_, type GridStore } from './store.ts';
import type { GridSimulation } from './step.ts';
// Imported bindings are getters under tsx's module transform (see store.ts users).
const FACE_ACTIVE = FACE_ACTIVE_, FLUID = FLUID_;

export class VariableDensity {
  /** ρ / ρ₀ − 1 of each material index (0 for the first liquid and for solids). */
  private readonly excess: Float64Array;
  /** ρ / ρ₀ per cell of the store, after `update`. */
  ratio = new Float64Array(0);
  /** The step and store `ratio` was computed for. */
  private stampStep = -1;
  private stampStore: GridStore | null = null;
  /** The unweighted diagonal of the last assembly, and S = (D₁ / D_β)^½ per row. */
  private unitDiag: Float64Array = new Float64Array(0);
  private scale: Float64Array = new Float64Array(0);
  /** β per face (3c + a) as the last solve saw the cells, and the velocity before the update. */
  private beta = new Float64Array(0);
  private kept: Float64Array[] = [new Float64Array(0), new Float64Array(0), new Float64Array(0)];
  /** ρ_f / ρ₀ per face (3c + a), for the viscous solves. */
  private mass = new Float64Array(0);
  private logMu = new Float64Array(0);
  private readonly scaled = new ScaledPreconditioner();

  private constructor(scene: Scene, private readonly tracers: LiquidTracers, first: number) {
    const rho0 = liquidRho(scene, scene.materialNames[first]);
    this.excess = new Float64Array(scene.materialNames.map((name) => {
      const rho = liquidRho(scene, name);
      return rho > 0 ? rho / rho0 - 1 : 0;
    }));
  }

  /** Where the liquids put in differ in density (and carry tracers), else null: the one-density path. */
  static create(scene: Scene, tracers: LiquidTracers | null, first: number): VariableDensity | null {
    if (!tracers || scene.grid.smoke) return null;
    const rhos = [...liquidsPutIn(scene)].map((name) => liquidRho(scene, name));
    return rhos.some((r) => r !== rhos[0]) ? new VariableDensity(scene, tracers, first) : null;
  }

  /** ρ / ρ₀ per cell from the tracers, once a step (the pressure and viscosity stages call it). */
  update(sim: GridSimulation): void {
    const s = sim.store, n = s.count;
    if (this.stampStep === sim.steps && this.stampStore === s) return;
    this.stampStep = sim.steps;
    this.stampStore = s;
    if (this.ratio.length < n) this.ratio = new Float64Array(Math.ceil(n * 1.3));
    const r = this.tracers.cellMean(sim, this.excess, 0, this.ratio);
    for (let c = 0; c < n; c++) r[c] += 1;
  }

  /**
   * Weighs the assembled rows of `sys` (row r is cell cellOf[r]): couplings by β of their faces,
   * the air part of each diagonal by β of the row's cell (see the header); keeps the unweighted
   * diagonal for the preconditioner.
   */
  weighRows(s: GridStore, sys: SparseSystem, cellOf: Int32Array): void {
    const m = sys.n, { diag, off, nbRow } = sys, nb = s.nb, ratio = this.ratio;
    // (On shared memory where the store's team lists the multigrid's rows from it: multigrid.ts finish.)
    if (this.unitDiag.length < m || isShared(this.unitDiag) !== s.shared) {
      this.unitDiag = allocFloat64(Math.ceil(m * 1.3) + 16, s.shared);
      this.scale = new Float64Array(this.unitDiag.length);
    }
    const unit = this.unitDiag, scale = this.scale;
    for (let r = 0; r < m; r++) {
      const c = cellOf[r], rc = ratio[c], d0 = diag[r];
      let wet = 0, dg = 0;
      for (let d = 0; d < 6; d++) {
        const o = 6 * r + d;
        if (nbRow[o] < 0) continue;
        const w = -off[o], b = 2 / (rc + ratio[nb[6 * c + d]]);
        wet += w;
        dg += w * b;
        off[o] = -w * b;
      }
      diag[r] = dg + (d0 - wet) / rc;
      unit[r] = d0;
      scale[r] = Math.sqrt(d0 / diag[r]);
    }
    sys.unit = false;
  }

  /** `sys` with the unweighted diagonal, for the multigrid levels (multigrid.ts reads n and diag). */
  unitRows(sys: SparseSystem): SparseSystem {
    return { ...sys, diag: this.unitDiag, unit: true };
  }

  /** The multigrid preconditioner `mg`, built on the unweighted rows, applied as S M⁻¹ S. */
  precondition(mg: Preconditioner, n: number): Preconditioner {
    this.scaled.set(mg, this.scale, n);
    return this.scaled;
  }

  /**
   * Before the velocity update, with the cells typed as the last solve saw them (rows released at a
   * solid still air): β of every solved face, and the velocity.
   */
  keep(s: GridStore): void {
    const n = s.count, { nb, type, face } = s, ratio = this.ratio;
    if (this.beta.length < 3 * n) {
      this.beta = new Float64Array(3 * Math.ceil(n * 1.3));
      const m = Math.ceil(n * 1.3);
      this.kept = [new Float64Array(m), new Float64Array(m), new Float64Array(m)];
    }
    const beta = this.beta;
    for (let c = 0; c < n; c++) {
      const tc = type[c];
      for (let a = 0; a < 3; a++) {
        let b = 1;
        if (face[3 * c + a] === FACE_ACTIVE) {
          const o = nb[6 * c + 2 * a], to = type[o];
          b = tc === FLUID ? (to === FLUID ? 2 / (ratio[c] + ratio[o]) : 1 / ratio[c]) : to === FLUID ? 1 / ratio[o] : 1;
        }
        beta[3 * c + a] = b;
      }
    }
    for (let a = 0; a < 3; a++) this.kept[a].set(s.u[a].subarray(0, n));
  }

  /**
   * After the update: each solved face's change weighed by its β; returns max |h ∇·u − target|
   * over the rows (the update's own measure of it, pressure-job.ts divergenceRange, is of the
   * unweighed change).
   */
  weighUpdate(s: GridStore, e: PressureCells, rows: number): number {
    const n = s.count, beta = this.beta, face = s.face;
    for (let a = 0; a < 3; a++) {
      const u = s.u[a], k = this.kept[a];
      for (let c = 0; c < n; c++) if (face[3 * c + a] === FACE_ACTIVE) u[c] = k[c] + beta[3 * c + a] * (u[c] - k[c]);
    }
    const { cellOf, nb } = e, [u0, u1, u2] = s.u, share = e.share.length > 0 ? e.share : null, growth = e.growth;
    let after = 0;
    for (let r = 0; r < rows; r++) {
      const c = cellOf[r];
      const div = u0[nb[6 * c + 1]] - u0[c] + u1[nb[6 * c + 3]] - u1[c] + u2[nb[6 * c + 5]] - u2[c] - (share ? share[r] * growth : growth);
      if (Math.abs(div) > after) after = Math.abs(div);
    }
    return after;
  }

  /** ρ_f / ρ₀ per face (3c + a): the mean of the two cells' ratios (the cell's own at the store's edge). */
  faceMass(sim: GridSimulation): Float64Array {
    this.update(sim);
    const s = sim.store, n = s.count, nb = s.nb, ratio = this.ratio;
    if (this.mass.length < 3 * n) this.mass = new Float64Array(3 * Math.ceil(n * 1.3));
    const mass = this.mass;
    for (let c = 0; c < n; c++) {
      for (let a = 0; a < 3; a++) {
        const o = nb[6 * c + 2 * a];
        mass[3 * c + a] = o >= 0 ? 0.5 * (ratio[c] + ratio[o]) : ratio[c];
      }
    }
    return mass;
  }

  /** log(μ / ρ₀) = log ν + log(ρ / ρ₀) per cell, from `logNu` per cell or the constant ν `nu`. */
  viscousLogNu(sim: GridSimulation, logNu: Float64Array | null, nu: number): Float64Array {
    this.update(sim);
    const n = sim.store.count, ratio = this.ratio, base = Math.log(Math.max(nu, 1e-30));
    if (this.logMu.length < n) this.logMu = new Float64Array(Math.ceil(n * 1.3));
    const out = this.logMu;
    for (let c = 0; c < n; c++) out[c] = (logNu ? logNu[c] : base) + Math.log(ratio[c]);
    return out;
  }
}

/** A liquid material's density, kg/m³; 0 for another kind. */
function liquidRho(scene: Scene, name: string): number {
  const m = scene.materials[name];
  return m.kind === 'liquid' ? m.density : 0;
}

/** z = S M⁻¹ (S r) for a preconditioner M of the unweighted rows (see the header). */
class ScaledPreconditioner implements Preconditioner {
  private inner: Preconditioner | null = null;
  private scale: Float64Array = new Float64Array(0);
  private n = 0;
  private tmp = new Float64Array(0);

  set(inner: Preconditioner, scale: Float64Array, n: number): void {
    this.inner = inner;
    this.scale = scale;
    this.n = n;
    if (this.tmp.length < n + 1) this.tmp = new Float64Array(Math.ceil(n * 1.3) + 16);
  }

  apply(r: Float64Array, z: Float64Array, nbs: Int32Array): void {
    const n = this.n, s = this.scale, t = this.tmp;
    for (let i = 0; i < n; i++) t[i] = r[i] * s[i];
    t[n] = 0;
    this.inner!.apply(t, z, nbs);
    for (let i = 0; i < n; i++) z[i] *= s[i];
  }
}
