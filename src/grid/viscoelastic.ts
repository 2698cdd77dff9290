/**
 * Viscoelastic fluids (Cline et al. §8, after Goktekin, Bargteil & O'Brien 2004).
 *
 * Each MAC cell holds an elastic strain tensor E, stored as in Figure 11: E11, E22, E33 at the
 * cell centre, E12 on the cell's minimal edge along z (x = i h, y = j h), E13 on the minimal edge
 * along y, E23 on the minimal edge along x. Before convection (Figure 12):
 *   - the strain rate T (equation 21; forward differences for the diagonal, backward for the
 *     off-diagonal terms, which is why the elements live where they do) is accumulated, E += Δt T;
 *   - plastic yield: where ‖E‖ (all nine elements) exceeds the elastic limit γ, the excess relaxes
 *     at the yield rate k_yr (equation 22's second term, 1/s), integrated exactly over the step:
 *     ‖E‖ → γ + (‖E‖ − γ) exp(−k_yr Δt) along E/‖E‖; and E decays as exp(−decay Δt);
 *   - E is advected by backward particle traces from its four storage locations and extrapolated
 *     from the liquid into the buffer.
 * Before viscosity, the elastic force F = μ_E ∇·E (equation 23, backward differences for the
 * diagonal, forward for the off-diagonal terms) accelerates the liquid faces by F / ρ.
 * The force is explicit: the step is limited to 0.5 h / √(μ_E / ρ) (see `elasticDtLimit`).
 * At the free surface (grid.elasticSurface) the force sees E zeroed in the air cells and on every edge
 * touching one ("cells", the default), or every strain sample weighted by its control volume's liquid
 * fraction as the variational viscosity weights its stress ("fractions", viscoelastic-fractions.ts).
 * With μ_E = 0 the added force is exactly zero and the solver is the plain one.
 */
import { CellFields, extrapolateMasked } from './cell-fields.ts';
import { sampleAt, tracePoint } from './interpolate.ts';
import { applyWeightedElasticForce, yieldEdgesInAir } from './viscoelastic-fractions.ts';
import { ViscosityFractions } from './viscosity-fractions.ts';
import { AIR, FACE_ACTIVE, FLUID, SOLID, type GridStore } from './store.ts';
import type { GridSimulation } from './step.ts';
import type { CheckpointReader, CheckpointWriter } from '../io/checkpoint.ts';

const pos = new Float64Array(3);

/** Component order in `E.data`. */
export const E11 = 0, E22 = 1, E33 = 2, E12 = 3, E13 = 4, E23 = 5;

/** Grid-coordinate offsets of each component's sample in its cell (centre: ½ ½ ½). */
const OFFSET: readonly (readonly [number, number, number])[] = [
  [0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5],
  [0, 0, 0.5], [0, 0.5, 0], [0.5, 0, 0],
];

export interface ViscoelasticParams {
  elasticModulus: number;
  elasticLimit: number;
  yieldRate: number;
  decay: number;
}

export class Viscoelastic {
  readonly E = new CellFields(6);
  private scratch = new Float64Array(0);
  private valid = new Uint8Array(0);
  /** E as the force sees it: zero in air cells and on edges that do not border liquid. */
  private forceE: Float64Array[] = [];
  /** Largest ‖E‖ after the last update, for statistics and tests. */
  maxStrain = 0;
  /** Cells that yielded in the last update. */
  yielded = 0;
  /**
   * The force's free surface: "cells" (E zeroed on every edge touching air and in air cells: the
   * traction on the cells' staircase) or "fractions" (every strain sample weighted by the liquid
   * fraction of its control volume, as the variational viscosity's terms: viscoelastic-fractions.ts).
   */
  surface: 'cells' | 'fractions' = 'cells';
  /** Least face fraction the "fractions" form divides by. */
  fractionFloor = 0.05;
  private fractions: ViscosityFractions | null = null;
  private cellScale = new Float64Array(0);

  constructor(readonly params: ViscoelasticParams, readonly density: number) {}

  save(w: CheckpointWriter, s: GridStore): void {
    this.E.sync(s);
    for (let q = 0; q < 6; q++) w.array(`ext.strain${q}`, this.E.data[q].slice(0, s.count));
  }

  restore(r: CheckpointReader, s: GridStore): void {
    for (let q = 0; q < 6; q++) this.E.data[q] = r.array(`ext.strain${q}`, Float64Array).slice();
    this.E.store = s;
  }

  /** Figure 12, before step 3a: accumulate T, yield, decay, advect, extrapolate. */
  updateStrain(sim: GridSimulation, dt: number): void {
    const s = sim.store, n = s.count;
    this.E.sync(s);
    if (this.scratch.length < n) {
      const m = Math.ceil(n * 1.3);
      this.scratch = new Float64Array(m);
      this.valid = new Uint8Array(m);
      this.forceE = Array.from({ length: 6 }, () => new Float64Array(m));
    }
    this.accumulate(s, dt, sim.d.h);
    this.yieldAndDecay(s, dt);
    this.advect(sim, dt);
    for (let q = 0; q < 6; q++) {
      this.markValid(s, q);
      extrapolateMasked(s, this.E.data[q], this.valid, sim.layers);
    }
    // The force sees no strain in the air nor on edges of the free surface: the jump of E at the
    // surface is the elastic traction that pulls a deformed gel back (with the extrapolated E it
    // would vanish there), and with E = 0 on the whole boundary the differences of equation 23
    // telescope, so the elastic forces on the liquid sum to zero (momentum is conserved).
    const D = this.E.data;
    for (let q = 0; q < 6; q++) {
      const f = this.forceE[q], src = D[q];
      if (q < 3) for (let c = 0; c < n; c++) f[c] = s.type[c] === AIR ? 0 : src[c];
      else {
        const a = q === E23 ? 1 : 0, b = q === E12 ? 1 : 2;
        for (let c = 0; c < n; c++) f[c] = edgeInside(s, c, a, b) ? src[c] : 0;
      }
    }
  }

  /** E += Δt T (equation 21) at every stored element that borders liquid. */
  private accumulate(s: GridStore, dt: number, h: number): void {
    const { nb, type } = s;
    const [ux, uy, uz] = s.u;
    const [e11, e22, e33, e12, e13, e23] = this.E.data;
    const k = dt / h;
    for (let c = 0; c < s.count; c++) {
      const mx = nb[6 * c], px = nb[6 * c + 1], my = nb[6 * c + 2], py = nb[6 * c + 3], mz = nb[6 * c + 4], pz = nb[6 * c + 5];
      if (type[c] === FLUID) {
        if (px >= 0) e11[c] += k * (ux[px] - ux[c]);
        if (py >= 0) e22[c] += k * (uy[py] - uy[c]);
        if (pz >= 0) e33[c] += k * (uz[pz] - uz[c]);
      }
      if (mx >= 0 && my >= 0 && edgeBordersLiquid(s, c, 0, 1)) e12[c] += 0.5 * k * (uy[c] - uy[mx] + ux[c] - ux[my]);
      if (mx >= 0 && mz >= 0 && edgeBordersLiquid(s, c, 0, 2)) e13[c] += 0.5 * k * (uz[c] - uz[mx] + ux[c] - ux[mz]);
      if (my >= 0 && mz >= 0 && edgeBordersLiquid(s, c, 1, 2)) e23[c] += 0.5 * k * (uz[c] - uz[my] + uy[c] - uy[mz]);
    }
  }

  /** Plastic yield per cell, the tensor of the cell taken as a unit (Cline §8), then decay. */
  private yieldAndDecay(s: GridStore, dt: number): void {
    const { elasticLimit, yieldRate, decay } = this.params;
    const D = this.E.data;
    const fade = decay > 0 ? Math.exp(-decay * dt) : 1;
    const yieldFraction = -Math.expm1(-yieldRate * dt);
    let maxStrain = 0, yielded = 0;
    const fractions = this.surface === 'fractions';
    if (fractions && this.cellScale.length < s.count) this.cellScale = new Float64Array(this.scratch.length);
    for (let c = 0; c < s.count; c++) {
      if (fractions) this.cellScale[c] = 1;
      if (s.type[c] !== FLUID) continue;
      const a = D[0][c], b = D[1][c], cc = D[2][c], d = D[3][c], e = D[4][c], f = D[5][c];
      const norm = Math.sqrt(a * a + b * b + cc * cc + 2 * (d * d + e * e + f * f));
      let scale = fade;
      if (norm > elasticLimit && norm > 0) {
        scale *= 1 - (yieldFraction * (norm - elasticLimit)) / norm;
        yielded++;
      }
      if (scale !== 1) for (let q = 0; q < 6; q++) D[q][c] *= scale;
      if (fractions) this.cellScale[c] = scale;
      if (norm * scale > maxStrain) maxStrain = norm * scale;
    }
    // The fractions form reads the edges on the liquid's max sides, stored in air cells, which the
    // per-cell rule never reaches: they yield and decay with the liquid cells beside them.
    if (fractions) yieldEdgesInAir(s, D, this.cellScale);
    this.maxStrain = maxStrain;
    this.yielded = yielded;
  }

  /** −(∇E)·u by backward particle traces from each storage location (four traces per cell). */
  private advect(sim: GridSimulation, dt: number): void {
    const s = sim.store, d = sim.d, h = d.h, inv = 1 / h;
    const [ox, oy, oz] = d.origin;
    const tmp = this.scratch;
    for (let q = 0; q < 6; q++) {
      const field = this.E.data[q];
      const [sx, sy, sz] = OFFSET[q];
      this.markValid(s, q);
      for (let c = 0; c < s.count; c++) {
        tmp[c] = field[c];
        if (this.valid[c] !== 1) continue;
        tracePoint(s, d, ox + h * (s.ci[c] + sx), oy + h * (s.cj[c] + sy), oz + h * (s.ck[c] + sz), -dt, pos);
        tmp[c] = sampleAt(s, field, (pos[0] - ox) * inv - sx, (pos[1] - oy) * inv - sy, (pos[2] - oz) * inv - sz, field[c]);
      }
      field.set(tmp.subarray(0, s.count));
    }
  }

  /** valid[c] = 1 where component q of cell c borders liquid (centre: the cell is liquid). */
  private markValid(s: GridStore, q: number): void {
    const { type } = s, valid = this.valid;
    const a = q === E23 ? 1 : 0, b = q === E12 ? 1 : 2;
    for (let c = 0; c < s.count; c++) valid[c] = (q < 3 ? type[c] === FLUID : edgeBordersLiquid(s, c, a, b)) ? 1 : 0;
  }

  /** The elastic force in the `surface` form chosen (φ from the tracker, for the fractions). */
  applyElasticForce(sim: GridSimulation, dt: number): void {
    const s = sim.store, h = sim.d.h;
    // Liquids of different densities: each face's ρ_f / ρ₀ divides its force (variable-density.ts).
    this.mass = sim.ext.density ? sim.ext.density.faceMass(sim) : null;
    if (this.surface === 'cells') { this.applyForce(s, dt, h); return; }
    if (this.E.store !== s) return;
    const fr = (this.fractions ??= new ViscosityFractions());
    fr.compute(s, sim.variationalPhi(), h);
    applyWeightedElasticForce(s, this.E.data, fr, (dt * this.params.elasticModulus) / (this.density * h), this.fractionFloor, this.mass);
  }

  /**
   * Each face's mass ρ_f / ρ₀ (3c + a) where the liquids differ in density (variable-density.ts), by
   * which the force on the face is divided (ρ₀ the `density` given); null: 1.
   */
  mass: Float64Array | null = null;

  /** Figure 12, before step 3c: u += Δt μ_E ∇·E / ρ on every solved face (equation 23). */
  applyForce(s: GridStore, dt: number, h: number): void {
    const k = (dt * this.params.elasticModulus) / (this.density * h), mass = this.mass;
    if (this.E.store !== s) return;
    const { nb, face } = s;
    const [e11, e22, e33, e12, e13, e23] = this.forceE;
    const [ux, uy, uz] = s.u;
    for (let c = 0; c < s.count; c++) {
      const mx = nb[6 * c], px = nb[6 * c + 1], my = nb[6 * c + 2], py = nb[6 * c + 3], mz = nb[6 * c + 4], pz = nb[6 * c + 5];
      if (face[3 * c] === FACE_ACTIVE && mx >= 0) {
        let div = e11[c] - e11[mx];
        if (py >= 0) div += e12[py] - e12[c];
        if (pz >= 0) div += e13[pz] - e13[c];
        ux[c] += mass ? (k * div) / mass[3 * c] : k * div;
      }
      if (face[3 * c + 1] === FACE_ACTIVE && my >= 0) {
        let div = e22[c] - e22[my];
        if (px >= 0) div += e12[px] - e12[c];
        if (pz >= 0) div += e23[pz] - e23[c];
        uy[c] += mass ? (k * div) / mass[3 * c + 1] : k * div;
      }
      if (face[3 * c + 2] === FACE_ACTIVE && mz >= 0) {
        let div = e33[c] - e33[mz];
        if (px >= 0) div += e13[px] - e13[c];
        if (py >= 0) div += e23[py] - e23[c];
        uz[c] += mass ? (k * div) / mass[3 * c + 2] : k * div;
      }
    }
  }
}

/**
 * Whether the minimal edge of cell c along the third axis (between axes a and b) touches a liquid
 * cell: c, c − a, c − b or c − a − b (all four, so the max side of the liquid is treated like the
 * min side).
 */
function edgeBordersLiquid(s: GridStore, c: number, a: number, b: number): boolean {
  const { nb, type } = s;
  if (type[c] === FLUID) return true;
  const ma = nb[6 * c + 2 * a], mb = nb[6 * c + 2 * b];
  if (ma >= 0 && type[ma] === FLUID) return true;
  if (mb >= 0 && type[mb] === FLUID) return true;
  const mab = ma >= 0 ? nb[6 * ma + 2 * b] : mb >= 0 ? nb[6 * mb + 2 * a] : -1;
  return mab >= 0 && type[mab] === FLUID;
}

/** Whether none of the four cells around the minimal edge of c between axes a and b is air. */
function edgeInside(s: GridStore, c: number, a: number, b: number): boolean {
  const { nb, type } = s;
  const ma = nb[6 * c + 2 * a], mb = nb[6 * c + 2 * b];
  if (type[c] === AIR || ma < 0 || mb < 0 || type[ma] === AIR || type[mb] === AIR) return false;
  const mab = nb[6 * ma + 2 * b];
  return mab >= 0 && type[mab] !== AIR;
}

/** Largest stable step of the explicit elastic force, s (Infinity without elasticity). */
export function elasticDtLimit(params: ViscoelasticParams | undefined, density: number, h: number): number {
  if (!params || params.elasticModulus <= 0) return Infinity;
  return (0.5 * h) / Math.sqrt(params.elasticModulus / density);
}

/** The step limit of the scene's liquid (used by GridSimulation.computeDt). */
export function viscoelasticDtLimit(sim: GridSimulation): number {
  return elasticDtLimit(sim.liquid?.viscoelastic, sim.liquid?.density ?? 1000, sim.d.h);
}
