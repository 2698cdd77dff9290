/**
 * Stage "density" (Steele §3.5, as corrected in DESIGN.md): iterative density correction after the
 * moves of a sub-timestep. ω is the ramp 1 − d/h; ρ0 = Σω over the 26 neighbours of the initial
 * lattice (spacing 2r); ρ = Σω (n ≥ 26), ρ0 (n = 0), over liquid neighbours only (objects take no
 * part) plus mirror images across closed domain walls (density-walls.ts). For 0 < n < 26 the paper
 * scales, (26/n) Σω, which reads a particle on a flat free surface of the rest lattice 8.4 %
 * over-dense; the 26 − n missing neighbours are filled with ω̄ instead, the mean weight of the 9 a
 * flat-surface particle lacks: ρ = Σω + (26 − n) ω̄, exact on a flat surface. Each pass computes
 *   s_p = c (ρ_p − ρ0) / |ρ′_p|,   ρ′_p = −max(n, 26)/h (the derivative of ρ when all neighbours
 *                                   move out by one unit; constant for a ramp),
 * moves every neighbour n of p by s_p along (p_n − p)/|p_n − p| and p by −s_p along the same line,
 * accumulates all of this and applies it together (Jacobi, density-pairs.ts). Passes repeat until
 * the mean relative error is within the tolerance or densityIterations is reached. The error of a
 * particle is |ρ − ρ0|/ρ0, except at the free surface (n < 26), where only over-density counts and
 * is corrected: there a deficit is the surface itself.
 *
 * Departures from the paper, besides ω̄ and PAIR_GAIN:
 *  - closed walls are mirrors (density-walls.ts);
 *  - passes are Chebyshev-accelerated (CHEBYSHEV_RHO);
 *  - the correction's displacement becomes velocity, v += Δx/δt (correctDensity; the pressure
 *    impulse of position-based dynamics, particle.pressureImpulse, on by default), so that pressure
 *    accelerates the liquid: with positions only, a column collapses and a blob spreads only by
 *    being pushed into place. particle.pressureImpulse = false keeps the paper's positions-only
 *    correction (damp, density-positions.ts).
 * The measurements behind each choice, and the candidates measured and not kept:
 * docs/decisions.md, "Density correction".
 */
import type { StepContext } from './context.ts';
import { runJob } from '../parallel/run-job.ts';
import { densityListJob, densityMeasureJob, densityPushJob } from './density-pairs.ts';
import { mirrorPairs } from './density-walls.ts';
import { damp } from './density-positions.ts';
import { densityStateOf, type DensityState } from './density-state.ts';

/**
 * A pair's separation changes by 2 (s_p + s_n) ≈ 4s in a pass (both ends move, for both particles'
 * errors), four times the move that ρ′ assumes, so c is scaled down for the paper's range of c
 * (0.1–0.5) to be stable (measured: docs/decisions.md).
 */
const PAIR_GAIN = 0.6;

/**
 * Chebyshev semi-iteration over the passes (Wang 2015, "A Chebyshev semi-iterative approach for
 * accelerating projective and position-based dynamics"): the Jacobi passes under-relax the
 * particle-scale errors of a disordered liquid (the uniform mode limits the gain), and ϱ, the
 * estimated spectral radius of a pass, extrapolates them. The extrapolation overshoots, and since
 * the displacement becomes velocity the overshoot is spray where an impact compresses the liquid
 * hard, hence a modest ϱ (measured: docs/decisions.md).
 */
const CHEBYSHEV_RHO = 0.4;
/**
 * With particle.pressureImpulse = false the displacement never becomes velocity, so overshoot is
 * harmless and ϱ can extrapolate harder.
 */
const CHEBYSHEV_RHO_POSITIONS = 0.85;

export interface DensityResult {
  passes: number;
  /** Mean relative error after the last pass. */
  error: number;
}

/**
 * Lists the liquid pairs within the density kernel and takes the first measure of the passes
 * (correctDensity continues from it). Keyed by slot of densityCells.grid.order: pair (a, b) of
 * slots, b at densityPairs.j[start[a] .. start[a + 1]). The scan reads the slot-ordered copy of
 * the positions that the passes then move (x) and skips neighbour cells whose bounding box is out
 * of reach (exact, CellPairs.box): the same pairs in the same order as a plain 27-cell scan. The
 * measure of each listed pair is a pass's measure, with the same additions in the same order.
 */
export function listDensityPairs(ctx: StepContext): void {
  const L = ctx.liquid, n = L.count, pos = L.pos;
  const dc = ctx.densityCells;
  dc.build(pos, n);
  const st = densityStateOf(ctx);
  st.carve(ctx, n);
  const g = dc.grid, order = g.order, sp = st.x;
  for (let a = 0; a < n; a++) {
    const i = order[a];
    sp[3 * a] = pos[3 * i]; sp[3 * a + 1] = pos[3 * i + 1]; sp[3 * a + 2] = pos[3 * i + 2];
  }
  dc.updateBoxes(sp);
  const h = ctx.densityH, list = ctx.densityPairs;
  list.reset(n);
  const job = ctx.runner.bind(densityListJob), a = job.a;
  a.rho = st.rho; a.cnt = st.cnt; a.x = sp; a.start = g.start; a.count = g.count; a.first = dc.first; a.cells = dc.cells; a.box = dc.box;
  job.s.h2 = h * h; job.s.hIn = h * (1 - 1e-6); job.s.invH = 1 / h;
  job.lists.list = list;
  runJob(job, n, g.cellCount);
  list.start[n] = list.length;
}

/**
 * ρ of every slot (complete: missing neighbours filled, n = 0 → ρ0), neighbour counts, and the
 * next pass's s; returns the mean relative error. `listed`: listDensityPairs has done the pair
 * loop of this measure.
 */
function measure(ctx: StepContext, st: DensityState, n: number, listed: boolean): number {
  const h = ctx.densityH, rho0 = ctx.rho0, missing = ctx.missingWeight;
  const rho = st.rho, cnt = st.cnt, s = st.s;
  if (!listed) {
    const job = ctx.runner.bind(densityMeasureJob), a = job.a, list = ctx.densityPairs;
    a.rho = rho; a.cnt = cnt; a.ls = list.start; a.pj = list.j; a.x = st.x;
    job.s.hIn = h * (1 - 1e-6); job.s.invH = 1 / h;
    runJob(job, n);
  }
  if (st.walls.count > 0) mirrorPairs(ctx, st, n, 0);
  const order = ctx.densityCells.grid.order, mat = ctx.liquid.material, gain = st.gain, one = st.gainOne;
  let err = 0;
  for (let a = 0; a < n; a++) {
    const k = cnt[a];
    const r = k === 0 ? rho0 : k >= 26 ? rho[a] : rho[a] + (26 - k) * missing;
    rho[a] = r;
    // A particle short of neighbours is at the free surface: only over-density counts there (its
    // deficit is the surface itself, which no correction should pull shut).
    const excess = k >= 26 ? r - rho0 : Math.max(0, r - rho0);
    err += k >= 26 ? Math.abs(r - rho0) : Math.max(0, r - rho0);
    s[a] = k === 0 ? 0 : ((one >= 0 ? one : gain[mat[order[a]]]) * excess) / Math.max(k, 26);
  }
  return n > 0 ? err / (n * rho0) : 0;
}

/**
 * The passes (see the header). `constrain` runs after every pass (walls, objects): the error is
 * measured where the particles can actually be, or a wall would undo each pass unseen.
 *
 * At the end the correction's displacement becomes velocity, v += Δx/δt: the pressure impulse, in
 * the form of position-based dynamics (Müller et al. 2007; Macklin & Müller 2013: v = (x_new −
 * x_old)/δt; here over the correction only, the moves having integrated v already). Δx leaves out
 * what `constrain` did (fix): keeping particles out of walls and objects is not pressure (it
 * already removes the velocity into them), and an object contact pushes along the line to the
 * nearest object particle, whose tangential part, as velocity, would squirt the contact layer
 * along the object. The pair pushes and the wall mirrors move equal and opposite momenta, so
 * Σ m Δv = 0 where no constraint acts.
 */
export function correctDensity(ctx: StepContext, dt: number, constrain?: (ctx: StepContext) => void): DensityResult {
  const L = ctx.liquid, n = L.count;
  if (n === 0) return { passes: 0, error: 0 };
  const st = densityStateOf(ctx);
  st.carve(ctx, n);
  const list = ctx.densityPairs, order = ctx.densityCells.grid.order;
  const maxPasses = ctx.scene.particle.densityIterations;
  const pos = L.pos, mat = L.material, elastic = ctx.elastic, tol = ctx.tolerance, mass = ctx.mass;
  const h = ctx.densityH, hIn = h * (1 - 1e-6);
  const { x, xm, corr, prev, fix, invMass } = st;
  // The tolerance of the scene: the strictest over the liquids present.
  let tolerance = Infinity;
  for (let m = 0; m < tol.length; m++) if (ctx.isLiquid[m]) tolerance = Math.min(tolerance, tol[m]);
  if (st.gain.length < elastic.length) st.gain = new Float64Array(elastic.length);
  st.gainOne = -1;
  for (let m = 0; m < elastic.length; m++) {
    st.gain[m] = PAIR_GAIN * elastic[m] * h;
    if (!ctx.isLiquid[m]) continue;
    st.gainOne = st.gainOne === -1 || st.gainOne === st.gain[m] ? st.gain[m] : -2;
  }
  if (st.gainOne < 0) st.gainOne = -1;
  const invMass0 = 1 / mass[mat[0]];
  st.uniformMass = true;
  for (let i = 1; i < n; i++) if (1 / mass[mat[i]] !== invMass0) { st.uniformMass = false; break; }
  if (!st.uniformMass) for (let a = 0; a < n; a++) invMass[a] = 1 / mass[mat[order[a]]];
  let error = measure(ctx, st, n, true);
  let passes = 0;
  for (let o = 0; o < 3 * n; o++) prev[o] = x[o];
  fix.fill(0, 0, 3 * n);
  let omega = 1;
  const impulse = ctx.scene.particle.pressureImpulse;
  const cheb = impulse ? CHEBYSHEV_RHO : CHEBYSHEV_RHO_POSITIONS, rho2 = cheb * cheb;
  const push = ctx.runner.bind(densityPushJob), pa = push.a;
  pa.corr = corr; pa.ls = list.start; pa.pj = list.j; pa.x = x; pa.s = st.s; pa.invMass = invMass;
  push.s.hIn = hIn;
  push.s.uniform = st.uniformMass ? 1 : 0;

  while (passes < maxPasses && error > tolerance) {
    runJob(push, n);
    if (st.walls.count > 0) mirrorPairs(ctx, st, n, 1);
    // Chebyshev semi-iteration (Wang 2015, for position-based dynamics): x_{k+1} = ω_{k+1}
    // (x_k + Δx_k − x_{k−1}) + x_{k−1}, ω_1 = 1, ω_2 = 2/(2 − ϱ²), ω_{k+1} = 4/(4 − ϱ² ω_k).
    if (passes === 0) {
      for (let o = 0; o < 3 * n; o++) { xm[o] = x[o]; x[o] += corr[o]; }
    } else {
      omega = passes === 1 ? 2 / (2 - rho2) : 4 / (4 - rho2 * omega);
      for (let o = 0; o < 3 * n; o++) {
        const back = xm[o];
        xm[o] = x[o];
        x[o] = omega * (x[o] + corr[o] - back) + back;
      }
    }
    if (constrain) {
      for (let a = 0; a < n; a++) {
        const i = order[a];
        pos[3 * i] = x[3 * a]; pos[3 * i + 1] = x[3 * a + 1]; pos[3 * i + 2] = x[3 * a + 2];
      }
      constrain(ctx);
      for (let a = 0; a < n; a++) {
        const i = order[a];
        fix[3 * a] += pos[3 * i] - x[3 * a];
        fix[3 * a + 1] += pos[3 * i + 1] - x[3 * a + 1];
        fix[3 * a + 2] += pos[3 * i + 2] - x[3 * a + 2];
        x[3 * a] = pos[3 * i]; x[3 * a + 1] = pos[3 * i + 1]; x[3 * a + 2] = pos[3 * i + 2];
      }
    }
    passes++;
    error = measure(ctx, st, n, false);
  }
  if (passes > 0) {
    // The displacement, less what constrain did, becomes velocity (positions only: damp reads the
    // displacement, by particle, from corr).
    const vel = L.vel, invDt = 1 / dt, del = corr;
    for (let a = 0; a < n; a++) {
      const i = order[a];
      for (let c = 0; c < 3; c++) {
        const o = 3 * i + c, q = 3 * a + c;
        if (impulse) vel[o] += (x[q] - prev[q] - fix[q]) * invDt;
        else del[o] = x[q] - prev[q];
        pos[o] = x[q];
      }
    }
    if (!impulse) damp(ctx, del, invDt);
  }
  const rho = st.rho, dens = L.density, scalar = L.scalar, inv = 1 / ctx.rho0;
  for (let a = 0; a < n; a++) {
    const i = order[a];
    scalar[i] = rho[a];
    dens[i] = rho[a] * inv;
  }
  return { passes, error };
}
