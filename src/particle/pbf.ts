/**
 * Stage "density" with particle.densitySolver = "pbf" (the default): the iterative density
 * correction of Steele §3.5 as position-based fluids (Macklin & Müller 2013), with objects and
 * closed walls taking part (Akinci et al. 2012 boundary volumes; mirror images). The pressure
 * stage before the moves (pressure.ts) has given the liquid its pressure, so these passes take out
 * only what is left (drift, contacts, the moves' nonlinearity). A pass is λ_a = −C_a α_a
 * (C_a = ρ̂_a − 1 where positive: only compression is corrected, a free surface is not pulled
 * shut; α_a the inverse of the constraint's diagonal) and Δx_a = Σ_b (λ_a + λ_b) ∇W_ab / n0 …
 * (pressure-kernels.ts with p = −λ). Passes run until the mean compression is within the liquids'
 * densityTolerance or densityIterations is reached; the total displacement becomes velocity once,
 * after the passes, as in position-based dynamics, less what `constrain` (walls, objects) did.
 * BENCHMARKS.md, "Particle engine: density correction, pressure and boundaries", has the solvers measured side by side.
 */
import type { StepContext } from './context.ts';
import type { DensityResult } from './density.ts';
import { densityTolerance, prepareSolve, type Prepared } from './solve-setup.ts';
import { DISPLACE, FACTOR, runSolvePhase } from './pressure-job.ts';

/**
 * The PBF density correction of one sub-timestep (see the header). `constrain` keeps particles
 * out of walls and objects after every pass.
 */
export function solveDensityPBF(ctx: StepContext, dt: number, constrain?: (ctx: StepContext) => void): DensityResult {
  const L = ctx.liquid, n = L.count;
  if (n === 0) return { passes: 0, error: 0 };
  const pr = prepareSolve(ctx);
  const { v } = pr, x = v.x, dx = v.dx, p = v.p;
  const tolerance = densityTolerance(ctx), maxPasses = ctx.scene.particle.densityIterations;
  const measure = (): number => {
    runSolvePhase(ctx, v, n, FACTOR);
    let err = 0;
    for (let a = 0; a < n; a++) {
      const c = v.dens[a] - 1;
      p[a] = c > 0 ? c * v.alpha[a] : 0;
      if (c > 0) err += c;
    }
    return err / n;
  };
  let error = measure(), passes = 0;
  while (passes < maxPasses && error > tolerance) {
    runSolvePhase(ctx, v, n, DISPLACE);
    ctx.freeBodies?.boundaryReaction(ctx, v, pr.order, n, dt);
    for (let o = 0; o < 3 * n; o++) x[o] += dx[o];
    if (constrain) constrainSlots(ctx, pr, constrain);
    passes++;
    error = measure();
  }
  finish(ctx, pr, dt, passes > 0);
  return { passes, error };
}

/** Copies the slot positions to the particles, runs `constrain`, copies back and adds what it moved to `fix`. */
export function constrainSlots(ctx: StepContext, pr: Prepared, constrain: (ctx: StepContext) => void): void {
  const pos = ctx.liquid.pos, { n, order, fix } = pr, x = pr.v.x;
  for (let a = 0; a < n; a++) {
    const i = order[a];
    pos[3 * i] = x[3 * a]; pos[3 * i + 1] = x[3 * a + 1]; pos[3 * i + 2] = x[3 * a + 2];
  }
  constrain(ctx);
  for (let a = 0; a < n; a++) {
    const i = order[a];
    for (let k = 0; k < 3; k++) {
      const q = pos[3 * i + k];
      fix[3 * a + k] += q - x[3 * a + k];
      x[3 * a + k] = q;
    }
  }
}

/**
 * Positions back to the particles and the displacement as velocity (when `moved`): less what `constrain` undid (a wall or object holding the particle), and never toward
 * that constraint (constrain has removed the particle's own closing velocity already). ρ/ρ0 of the
 * last measure goes to the particles.
 */
export function finish(ctx: StepContext, pr: Prepared, dt: number, moved: boolean): void {
  const L = ctx.liquid, pos = L.pos, vel = L.vel, { n, order, x0, fix } = pr, x = pr.v.x, dens = pr.v.dens;
  const invDt = 1 / dt;
  for (let a = 0; a < n; a++) {
    const i = order[a], q = 3 * a;
    if (moved) {
      let ux = (x[q] - x0[q] - fix[q]) * invDt, uy = (x[q + 1] - x0[q + 1] - fix[q + 1]) * invDt, uz = (x[q + 2] - x0[q + 2] - fix[q + 2]) * invDt;
      const f2 = fix[q] * fix[q] + fix[q + 1] * fix[q + 1] + fix[q + 2] * fix[q + 2];
      if (f2 > 0) {
        const un = (ux * fix[q] + uy * fix[q + 1] + uz * fix[q + 2]) / f2;
        if (un < 0) { ux -= un * fix[q]; uy -= un * fix[q + 1]; uz -= un * fix[q + 2]; }
      }
      vel[3 * i] += ux; vel[3 * i + 1] += uy; vel[3 * i + 2] += uz;
      pos[3 * i] = x[q]; pos[3 * i + 1] = x[q + 1]; pos[3 * i + 2] = x[q + 2];
    }
    L.density[i] = dens[a];
    L.scalar[i] = dens[a];
  }
}
