/**
 * The second pressure solve's last step (pressure.ts applyPressure, with two solves and the
 * implicit viscosity): the compression the liquid has at the start of the sub-timestep (ρ̂/ρ0 − 1
 * > 0, `start` per slot) taken out of the positions, not the velocities. SHIFT_PASSES passes of
 * relaxed Jacobi (ω = RELAX, SPlisHSPlasH's) on its pressure where water-like liquid moves, the
 * first alone elsewhere (shiftPasses), p ≥ 0: the first the estimate
 * p_a = ω α_a (ρ̂_a/ρ0 − 1)⁺, each further one p_a += ω α_a (ρ̂_a/ρ0 + Δρ̂_a(Δx(p))/ρ0 − 1), the
 * first-order change of ρ̂ under the last pass's displacement (pressure-kernels.ts
 * pressureUpdateRange, the solves' update, on the start's ρ̂ with no source); then x += Δx(p).
 * The split of position-based drift correction from the velocity (the "split impulse" of
 * rigid-body solvers; DFSPH's density solve takes it out as velocity, which its divergence-free
 * solve then removes at the next step, Bender & Koschier 2017 §4; the solves here have no such
 * step). Pairwise equal and opposite among the liquid; it changes no velocity, so no momentum.
 * Not next to a body (there the solves take it as velocity, PRESENT_NEAR_BODY): such a slot
 * keeps p = 0 through the passes, and its own compression is not asked of its neighbours. What
 * it leaves, PBF takes after the moves (pbf.ts): one estimate left the 6 mm dam break's PBF at
 * 3.74 passes a sub-timestep, three passes at about 1.5 (docs/decisions.md "The pressure shift as
 * three passes").
 *
 * Its pressure (the last pass's) is added to the stored one (LiquidParticles.lambda, p/δt²), the
 * next sub-timestep's warm start: where compression persists the pressure grows until it holds it
 * (an integral term), instead of density correction carrying that load for good. Without it, a
 * deep column the warm-started passes had not yet built (a 9.6 × 20 cm honey pool at 4 mm, ν 7e-3
 * m²/s, once its lattice rearranged at about 1 s) went over to PBF: PBF at 5–10 passes a
 * sub-timestep, its displacement become an expanding velocity that cancels the pressure's source,
 * 0.004–0.006 √(g h) from 1.8 s on; with it PBF stays idle, 0.0014–0.0025 over 1–3 s
 * (docs/decisions.md "A deep honey pool at rest"). At rest the shift is zero, and so is this.
 * Only where the particle already holds a pressure: a blob in free flight has none, and a learned
 * one displaced it and ended its free flight (tests/gpu/validate.test.ts's fall in a box dropped
 * 7.5 % past g t²/2, against 0.0000 without). The WebGPU backend's twin: src/gpu/pressure-shift-wgsl.ts.
 */
import type { StepContext } from './context.ts';
import { RELAX, type SolveView } from './pressure-kernels.ts';
import { DISPLACE, runSolvePhase, runUpdatePhase } from './pressure-job.ts';

/** The shift's relaxed Jacobi passes (the first the estimate); the WebGPU shift takes as many. */
export const SHIFT_PASSES = 3;

/**
 * The shift's passes: SHIFT_PASSES where some liquid is filtered (water-like: pressure-filter.ts)
 * and the still-water gate (still-water.ts, which then reads that liquid) says it moves; else the
 * estimate alone, as before the passes. Near rest the further passes' larger pressure, fed to the
 * warm start, set a squashed 20 cm water column bouncing at 0.0078 √(g h) against 0.0033 with the
 * estimate (tests/particle/deep-stop.test.ts); where no liquid is filtered (the honey drop) they
 * took nothing from PBF (3.67 → 3.63 passes a sub-timestep) for about 1 % more CPU
 * (docs/decisions.md "The pressure shift as three passes").
 */
export function shiftPasses(still: boolean, filtered: boolean): number {
  return filtered && !still ? SHIFT_PASSES : 1;
}

/**
 * The shift over the n slots of the second solve's view v (slot order `order`), `start` its ρ̂/ρ0
 * at the solve's start per slot, invDt2 1/δt². Writes v.p, v.dx, v.dens, v.res (the solve has
 * read them), the positions and the stored pressure.
 */
export function shiftPresent(ctx: StepContext, v: SolveView, order: Int32Array, n: number, start: Float64Array, invDt2: number, passes: number): void {
  const p = v.p, alpha = v.alpha, dx = v.dx, pos = ctx.liquid.pos, near = ctx.liquid.nearObject, lam = ctx.liquid.lambda;
  let any = false;
  for (let a = 0; a < n; a++) {
    const e = near[order[a]] ? 0 : start[a] - 1;
    p[a] = e > 0 ? RELAX * alpha[a] * e : 0;
    if (e > 0) any = true;
  }
  if (any && passes > 1) {
    // The further passes: the start's ρ̂ as their target's offset (no source), 1 next to a body
    // (its slot's pressure stays 0 below), p ≥ 0 (no floor).
    const dens = v.dens, floor = v.floor;
    v.floor = null;
    for (let a = 0; a < n; a++) dens[a] = near[order[a]] ? 1 : start[a];
    for (let k = 1; k < passes; k++) {
      runSolvePhase(ctx, v, n, DISPLACE);
      runUpdatePhase(ctx, v, n, RELAX);
      for (let a = 0; a < n; a++) if (near[order[a]]) p[a] = 0;
    }
    v.floor = floor;
  }
  // The next sub-timestep's warm start carries the shift's pressure where the liquid already
  // holds one (see above; not in free flight).
  for (let a = 0; a < n; a++) if (lam[order[a]] > 0) lam[order[a]] += p[a] * invDt2;
  if (!any) return;
  runSolvePhase(ctx, v, n, DISPLACE);
  for (let a = 0; a < n; a++) {
    const i = order[a];
    pos[3 * i] += dx[3 * a]; pos[3 * i + 1] += dx[3 * a + 1]; pos[3 * i + 2] += dx[3 * a + 2];
  }
}
