/**
 * Stage "density" with particle.densitySolver = "pbf" (the default): the iterative density
 * correction of Steele §3.5 as position-based fluids (Macklin & Müller 2013), with objects and
 * closed walls taking part (Akinci et al. 2012 boundary volumes; mirror images). The pressure
 * stage before the moves (pressure.ts) has given the liquid its pressure, so these passes take out
 * only what is left (drift, contacts, the moves' nonlinearity). A measure gives C_a = ρ̂_a − 1 where
 * positive (only compression is corrected, a free surface is not pulled shut) and α_a, the inverse
 * of the constraint's diagonal; a pass's pressure is p_a = ω C_a α_a (PBF's −λ_a, relaxed by
 * ω = PBF_RELAX) and it moves the particles by Δx_a = −Σ_b (p_a + p_b) ∇W_ab / n0 …
 * (pressure-kernels.ts), then they are measured again. Plain PBF (ω = 1, Macklin & Müller 2013 §4)
 * is nonlinear Jacobi on J J^T, whose diagonal underestimates a particle's coupling to its ~30
 * neighbours: the passes overshoot on the particle scale (the 9 mm dam break: the share of
 * compressed particles fell from 82 to 61 % over ten passes while the mean compression stalled;
 * at 6 mm it rose after the third pass, 1.7 → 3 %), and they barely touch the smooth, depth-wise
 * compression of a deep liquid
 * (docs/decisions.md "PBF's passes that stalled"). So the passes may be relaxed (ω = PBF_RELAX < 1,
 * as DFSPH relaxes its Jacobi solve, Bender & Koschier 2017 §4; 1 at present, see the constant). They may be accelerated by Chebyshev's
 * semi-iterative method (Wang 2015, "A Chebyshev semi-iterative approach for accelerating
 * projective and position-based dynamics", §4, on the pressure increments rather than the
 * positions): pass k applies δ_k = w_k p_k + (w_k − 1) δ_{k−1}, w_0 = 1, w_1 = 2/(2 − ρ²),
 * w_k = 4/(4 − ρ² w_{k−1}), ρ = PBF_SPECTRAL_RADIUS (δ ≥ 0, since p ≥ 0 and w ≥ 1); ρ = 0, the
 * default, makes every w_k 1, plain relaxed passes (see the constant for why). Passes run until
 * the mean compression is within the liquids' densityTolerance or densityIterations is reached;
 * the total displacement becomes velocity once, after the passes, as in position-based dynamics,
 * less what `constrain` (walls, objects) did. Each pass's pressure is also added to the stored pressure, the pressure
 * stage's warm start for the next sub-timestep, where the particle holds one and is not next to a body
 * (PBF_WARM_SHARE), so that the pressure PBF had to supply is the pressure stage's from then on;
 * not while the liquid moves, unless PBF is left with compression where no liquid is filtered
 * (still-water.ts feedsWarmStart).
 * BENCHMARKS.md, "Particle engine: density correction, pressure and boundaries", has the solvers measured side by side.
 */
import type { StepContext } from './context.ts';
import type { DensityResult } from './density.ts';
import { densityTolerance, prepareSolve, type Prepared } from './solve-setup.ts';
import { runPbfStep, takeSolveShare } from './pressure-job.ts';
import { OUT_ERROR, OUT_STOP, OUT_WORDS, type PbfSlots, type PbfStepAsk } from './pbf-job.ts';
import { allocFloat64, isShared } from '../parallel/memory.ts';
import { feedsWarmStart, pbfLeftOver } from './still-water.ts';

/**
 * Jacobi relaxation ω of a pass's pressure p = ω C α (see the header). 1: plain PBF. At the
 * engine's present pressure stage the scenes' liquids settle in fewer passes than relaxed ones, and
 * no less well (a sub-timestep, frames 3–9 of the honey drop: 3.86 passes against 4.39 at ω 0.8 and
 * 5.64 at 0.6; the dam break at 12 mm, frames 1–4: 2.75 against 3.06 and 4.13; at 9 mm, frames
 * 2–5: 8.94 against 9.38 and the cap of 10, the largest mean compression left 0.93 % against 1.03
 * and 1.23 %). Relaxation helps where the passes overshoot on the particle scale: the squeezed,
 * jittered column of tests/particle/pbf.test.ts loses 26 % of its compression in ten passes (0.8:
 * 35 %, 0.6: 36 %). The cohesive cube of tests/gpu/adhesion.test.ts stays whole on both backends
 * at 1 and at 0.6 but threw particles at 0.7, 0.8 (the GPU's), 0.9 and 1.2 (docs/decisions.md
 * "PBF's relaxation, and its last measure").
 */
export const PBF_RELAX = 1;
/**
 * Spectral radius of the relaxed passes that the Chebyshev weights assume (see the header); 0
 * turns the acceleration off. 0.95 took the 9 mm dam break from 10 to 7.4 passes a sub-timestep,
 * and 0.99 to 5, but at 6 mm 0.99 blew the deep column's bottom corner apart (a particle at 217 m/s
 * in frame 2), and a cohesive cube without gravity (Lennard-Jones strength 5, 2 mm particles)
 * sheds particles at 0.8–0.95: its farthest particle 25–35 mm from the centre at frame 6 and its
 * radius of gyration growing (12.57 mm at 0.95), where plain relaxed passes hold it at 16.8 and
 * 11.67 mm (docs/decisions.md "PBF's acceleration off: a cohesive cube shed particles").
 */
export const PBF_SPECTRAL_RADIUS = 0;
/**
 * Share of each pass's pressure added to the stored pressure, the pressure stage's warm start for the
 * next sub-timestep (pbf-job.ts pbfStep), where the particle already holds a pressure (not in free
 * flight) and is not next to a body (there the second solve stores the whole pressure itself:
 * pressure.ts). The pressure stage's capped passes (two, then one, warm-started) never built the
 * pressure that holds deep water: on the dam break at 9 mm its stored pressure stood at about half
 * of g h at the floor (p99 2.6–3.5 m²/s² against g h 5.9), PBF carried the rest after the moves
 * and, entering at 0.55–1.1 % mean compression, ran its cap of ten passes in most sub-timesteps of
 * frames 3–9. Its Jacobi passes take 15–25 % of the compression off in the first two and then raise
 * it (their particle-scale modes grow), so wherever it enters above about 0.65 % it cannot meet its
 * 0.5 % and spends the cap. Fed forward, as DFSPH warm-starts its density solve with the step's
 * whole pressure (Bender & Koschier 2017 §4.3) and as the shift's pressure is (an integral term),
 * the stored pressure grows until the pressure stage holds the liquid (p99 4.5–6.4 by frame 5),
 * and PBF passes 0–2 times a sub-timestep (docs/decisions.md "The dam break's PBF at its cap: its
 * pressure fed to the warm start"). 1: all of it (0.5 halved the passes less, and kept a still
 * tank's last speed nearer main's: the section's table).
 */
export const PBF_WARM_SHARE = 1;

/**
 * The PBF density correction of one sub-timestep (see the header). `constrain` keeps particles
 * out of walls and objects after every pass. A measure and the pass that follows it are one run of
 * the solve's job (pressure-job.ts PBF_STEP, pbf-job.ts: the per-slot loops and the sums of the
 * compression as this thread's loops were, so the same bits on one thread); between runs the
 * calling thread runs `constrain` (its own jobs) and a free body's reaction.
 */
export function solveDensityPBF(ctx: StepContext, dt: number, constrain?: (ctx: StepContext) => void): DensityResult {
  const L = ctx.liquid, n = L.count;
  if (n === 0) return { passes: 0, error: 0 };
  takeSolveShare(ctx);
  // The density cells' point order (read within this call alone: the pressure stage lists its
  // rows over the liquid cells) in the liquid contacts' memory, where it has room: adhesion lists
  // them for the moves, which are over, and lists them again in the next sub-timestep before
  // anything reads them (step.ts); let go at the end of the call. The cells' dense block in the
  // room past the order.
  const grid = ctx.densityCells.grid, cj = ctx.contacts.j, room = cj.byteLength >> 2, past = 2 * Math.ceil(n / 2);
  const lend = room >= n && (cj.byteOffset & 3) === 0 && (!ctx.shared || isShared(cj));
  if (lend) {
    grid.lendOrder(new Int32Array(cj.buffer, cj.byteOffset, n));
    ctx.densityCells.lendBlock(new Int32Array(cj.buffer, cj.byteOffset + 4 * past, Math.max(0, room - past)));
  }
  // The positions at the start in LiquidParticles.acc: its offsets are spent once the moves are
  // over, and the next sub-timestep's sort and adhesion write it before anything reads it (step.ts).
  // v.res, which holds the last pass's increment (pbf-job.ts), in LiquidParticles.scalar (finish writes ρ there after the last pass).
  // The rows' upper starts in the starts of adhesion's pair list, void once viscosity is over
  // (list-store.ts) and listed again by the next sub-timestep's adhesion stage.
  const pr = prepareSolve(ctx, false, false, L.acc, L.scalar, ctx.cells.pairs.start);
  const { v } = pr, x = v.x, dx = v.dx;
  const tolerance = densityTolerance(ctx), maxPasses = ctx.scene.particle.densityIterations;
  const state = pr.state, free = ctx.freeBodies;
  if (pbfOut.length < OUT_WORDS || (ctx.shared && !isShared(pbfOut))) pbfOut = allocFloat64(OUT_WORDS, ctx.shared);
  const slots: PbfSlots = {
    order: pr.order, near: L.nearObject, lam: L.lambda, vel: L.vel, pos: L.pos, density: L.density, scalar: L.scalar, x0: pr.x0!, fix: pr.fix, out: pbfOut,
  };
  // A free body's reaction reads a pass's displacement before the positions move (split: the run
  // ends after the displacement, and the calling thread moves them).
  const split = free !== undefined && free !== null;
  const r2 = PBF_SPECTRAL_RADIUS * PBF_SPECTRAL_RADIUS;
  const ask: PbfStepAsk = {
    back: false, guessLast: state.pbfIdle, more: maxPasses > 0, pass: 0, weight: 1, warm: feedsWarmStart(state.stillWater, pbfLeftOver(ctx, tolerance)) ? PBF_WARM_SHARE / (dt * dt) : 0, split,
    constrained: constrain !== undefined, moved: false, relax: PBF_RELAX, tolerance, dt,
  };
  let passes = 0, error = 0, older = 0, weight = 1;
  for (;;) {
    // The pass's increment: δ = w_k p + (w_k − 1) δ_last with the Chebyshev weights w_k (see the header).
    weight = passes === 0 ? 1 : passes === 1 ? 2 / (2 - r2) : 4 / (4 - r2 * weight);
    ask.pass = passes; ask.weight = weight; ask.more = passes < maxPasses; ask.moved = passes > 0;
    runPbfStep(ctx, v, n, slots, ask);
    ctx.count('densityMeasures');
    error = pbfOut[OUT_ERROR];
    if (passes === 0) {
      state.pbfIdle = error <= tolerance;
      // What the pressure stage and the moves left (the mean compression before any pass), summed over the sub-timesteps.
      ctx.count('densityErrorBefore', error);
    }
    if (pbfOut[OUT_STOP] !== 0) break;
    if (split) {
      free.boundaryReaction(ctx, v, pr.order, n, dt);
      for (let o = 0; o < 3 * n; o++) x[o] += dx[o];
      if (constrain) toParticles(ctx, pr);
    }
    if (constrain) constrain(ctx);
    ask.back = constrain !== undefined;
    passes++;
    // The next measure is likely the last where the mean compression, falling at the rate of the
    // pass before, would be within the tolerance (no guess after the first pass).
    const guess = older > 0 ? (error * error) / older : Infinity;
    older = error;
    ask.guessLast = guess <= tolerance;
  }
  if (lend) {
    grid.lendOrder(null);
    ctx.densityCells.lendBlock(null);
  }
  return { passes, error };
}

/** PBF_STEP's out words (pbf-job.ts), on shared memory with a team. */
let pbfOut = new Float64Array(0);

/** The slot positions to the particles (as PBF_STEP's pass does where it moves them itself). */
function toParticles(ctx: StepContext, pr: Prepared): void {
  const pos = ctx.liquid.pos, { n, order } = pr, x = pr.v.x;
  for (let a = 0; a < n; a++) {
    const i = order[a];
    pos[3 * i] = x[3 * a]; pos[3 * i + 1] = x[3 * a + 1]; pos[3 * i + 2] = x[3 * a + 2];
  }
}
