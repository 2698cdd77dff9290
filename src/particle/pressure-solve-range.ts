/**
 * The solve job's SOLVE phase over a thread's slots (pressure-job.ts runPressureSolve): DFSPH's
 * source and relaxed Jacobi passes with the Chebyshev step (Bender & Koschier 2017 §4; pressure.ts
 * applyPressure), each pass a displacement of p, a barrier, the update, a barrier; and the
 * displacement of p the phases share.
 */
import type { SolveView } from './pressure-kernels.ts';
import { advanceDensityRange, factorRange, pressureDisplacementRange, pressureUpdateRange } from './pressure-kernels.ts';
import { advanceHalf, displaceHalf, factorHalf, updateHalf, type HalfRows } from './pressure-half.ts';
import { factorAdvanceRange } from './pressure-factor-advance.ts';
import type { SolveArgs } from './pressure-job.ts';

/** The displacement of p over slots [from, to): over each pair once where `hr` (then [0, n)). */
export function displace(v: SolveView, from: number, to: number, hr: HalfRows | null): void {
  if (hr) displaceHalf(v, from, to, hr);
  else pressureDisplacementRange(v, from, to);
}

/**
 * SOLVE over this thread's slots (runPressureSolve): FACTOR (`fused`: in SOURCE's sweep, on one thread and on a team) and TAKE_BACK where asked, SOURCE, a barrier, and
 * where any thread's slots have a source or a pressure the passes and FINISH where asked. Rank 0
 * writes the passes into the flags' last word.
 */
export function solveRange(x: SolveArgs, v: SolveView, hr: HalfRows | null): void {
  const a = x.a, s = x.s, from = x.from, to = x.to, n = x.n, flags = a.flags, fused = s.factor === 1 && s.again === 0 && s.nwalls === 0 && hr !== null;
  if (s.factor === 1 && !fused && hr) factorHalf(v, from, to, hr);
  else if (s.factor === 1 && !fused) factorRange(v, from, to);
  if (s.again === 1) takeBackRange(x, v, hr);
  sourceRange(x, v, hr, fused);
  x.barrier();
  let any = false, passes = 0;
  for (let t = 0; t < x.size; t++) if (flags[t] !== 0) any = true;
  if (any && s.maxPasses > 0) {
    const { p, hist, res } = a, floor = v.floor ?? null, r2 = s.r2;
    // Chebyshev (pressure.ts): `before` holds p before this pass's update, `older` before the last
    // one's (hist at offsets 0 and n, swapped each pass).
    let before = 0, older = n, omega = 1;
    for (;;) {
      if (passes >= 2) omega = passes === 2 ? 2 / (2 - r2) : 4 / (4 - r2 * omega);
      const cheb = passes >= 2 ? omega : 0;
      displace(v, from, to, hr);
      x.barrier();
      for (let k = from; k < to; k++) hist[before + k] = p[k];
      if (hr) updateHalf(v, from, to, hr, s.omega);
      else pressureUpdateRange(v, from, to, s.omega);
      if (cheb > 0) {
        for (let k = from; k < to; k++) {
          const q = cheb * (p[k] - hist[older + k]) + hist[older + k], lo = floor === null ? 0 : floor[k];
          p[k] = q > lo ? q : lo;
        }
      }
      x.barrier();
      let sum = 0;
      for (let k = 0; k < n; k++) sum += res[k];
      const swap = older;
      older = before;
      before = swap;
      passes++;
      if (passes >= s.maxPasses || sum / n <= s.tol) break;
    }
    if (s.finish === 1) finishRange(a, s, v, from, to, hr);
  }
  if (x.rank === 0) flags[flags.length - 1] = passes;
}

/**
 * TAKE_BACK over this thread's slots (the second solve's first step, pressure.ts applyPressure): p
 * the first solve's pressure but 0 next to a body, a barrier, its displacement taken out of the
 * velocities. SOURCE's first barrier follows before any slot's p is written again.
 */
function takeBackRange(x: SolveArgs, v: SolveView, hr: HalfRows | null): void {
  const { p, order, near, lam, vel, dx } = x.a, dt2 = x.s.dt2, invDt = x.s.invDt, from = x.from, to = x.to;
  for (let k = from; k < to; k++) {
    const i = order[k];
    p[k] = near[i] ? 0 : lam[i] * dt2;
  }
  x.barrier();
  displace(v, from, to, hr);
  for (let k = from; k < to; k++) {
    const i = order[k];
    vel[3 * i] -= dx[3 * k] * invDt; vel[3 * i + 1] -= dx[3 * k + 1] * invDt; vel[3 * i + 2] -= dx[3 * k + 2] * invDt;
  }
}

/**
 * SOURCE over this thread's slots: u = δt v (hist, 3 a slot), ρ̂ kept (res), ρ̂* zeroed; after a
 * barrier ρ̂* advanced by u (advanceDensityRange); after another (where the start is kept in u's third block,
 * which the neighbours' advance reads) each slot's source, ρ̂* = 1 + source inside the liquid, and
 * its warm-start pressure (pressure.ts applyPressure says why each); the second solve (s.again)
 * starts from 0 next to a body, where the first pressure stays in the velocities, and may go down to
 * minus it there (v.floor).
 */
function sourceRange(x: SolveArgs, v: SolveView, hr: HalfRows | null, fused: boolean): void {
  const a = x.a, s = x.s, from = x.from, to = x.to, n = x.n;
  const { vel, order, near, lam, hist: u, res: rho, dens, p, nb } = a, dt = s.dt;
  for (let k = from; k < to; k++) {
    const i = order[k];
    u[3 * k] = vel[3 * i] * dt; u[3 * k + 1] = vel[3 * i + 1] * dt; u[3 * k + 2] = vel[3 * i + 2] * dt;
    if (!fused) { rho[k] = dens[k]; dens[k] = 0; }
  }
  x.barrier();
  // `fused` (the first solve without closed walls): the measure and the change in one sweep
  // (pressure-factor-advance.ts: one thread over [0, n), a team thread over its range).
  if (fused) factorAdvanceRange(v, from, to, hr!, u, s.hasOu === 1 ? a.ou : null, rho);
  else if (hr) advanceHalf(v, from, to, hr, u, s.hasOu === 1 ? a.ou : null);
  else advanceDensityRange(v, from, to, u, s.hasOu === 1 ? a.ou : null);
  const keepStart = s.keepStart === 1;
  if (keepStart) {
    x.barrier();
    for (let k = from; k < to; k++) u[2 * n + k] = rho[k];
  }
  const floor = a.floor, hasFloor = s.hasFloor === 1;
  const again = s.again === 1, shift = s.shift === 1, present = s.present, presentNear = s.presentNear, full = s.full, alone = s.alone, dt2 = s.dt2;
  let any = 0;
  for (let k = from; k < to; k++) {
    const src = dens[k] + (shift && near[order[k]] ? presentNear : present) * (rho[k] - 1);
    dens[k] = 1 + (nb[k] >= full ? src : 0);
    const i = order[k], kept = again && near[i];
    // Next to a body no warm start at a free surface either (pressure.ts applyPressure).
    p[k] = rho[k] >= alone && !kept && !(near[i] && nb[k] < full) ? lam[i] * dt2 : 0;
    if (again && hasFloor) floor[k] = kept ? -lam[i] * dt2 : 0;
    if (dens[k] > 1 || p[k] > 0 || (again && hasFloor && floor[k] < 0)) any = 1;
  }
  a.flags[x.rank] = any;
}

/**
 * FINISH over slots [from, to): the displacement of p, as velocity (the free-flight offset cleared
 * where it moved the particle), the offset cleared near a body or a closed wall, and p / δt² kept:
 * after the second solve (s.again), next to a body, added to the first solve's (the whole pressure there).
 */
function finishRange(a: SolveArgs['a'], s: SolveArgs['s'], v: SolveView, from: number, to: number, hr: HalfRows | null): void {
  displace(v, from, to, hr);
  const { order, near, vel, off, lam, dx, p, wmask } = a, invDt = s.invDt, invDt2 = s.invDt2, walled = s.nwalls > 0;
  for (let k = from; k < to; k++) {
    const i = order[k];
    const ux = dx[3 * k], uy = dx[3 * k + 1], uz = dx[3 * k + 2];
    vel[3 * i] += ux * invDt; vel[3 * i + 1] += uy * invDt; vel[3 * i + 2] += uz * invDt;
    if (ux !== 0 || uy !== 0 || uz !== 0) off[3 * i] = off[3 * i + 1] = off[3 * i + 2] = 0;
  }
  for (let k = from; k < to; k++) {
    const i = order[k];
    if (near[i] || (walled && wmask[k] !== 0)) off[3 * i] = off[3 * i + 1] = off[3 * i + 2] = 0;
  }
  if (s.again === 1) {
    for (let k = from; k < to; k++) {
      const i = order[k];
      lam[i] = near[i] ? lam[i] + p[k] * invDt2 : p[k] * invDt2;
    }
  } else for (let k = from; k < to; k++) lam[order[k]] = p[k] * invDt2;
}
