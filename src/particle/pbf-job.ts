/**
 * PBF's measure and pass (pbf.ts) as one run of the solve's job (pressure-job.ts PBF_STEP), so that
 * a pass of the density correction is one run of the thread team where it was two or three with the
 * calling thread's loops between (docs/decisions.md, branch two5). Over this thread's slots, with a
 * barrier wherever a slot's next reads are its neighbours' last writes:
 *   1. where `back`: the positions the calling thread's `constrain` left in the particles (walls,
 *      objects: pbf.ts constrainSlots) taken back into the slots, what it moved added to `fix`;
 *   2. the measure: the closed walls near each slot (WALLS), then ρ̂ alone (DENSITY) where the
 *      measure is likely the last or no pass may follow, every thread adding the slots' compression
 *      in slot order (as the calling thread did: the same number on every thread), and where a pass
 *      follows after all ρ̂ and α (FACTOR) and p = ω C α, the compression again;
 *   3. where the mean compression is within the tolerance or no pass may follow: `finish` (the
 *      displacement as velocity, ρ/ρ0 to the particles), unless `defer` leaves it to a run that
 *      takes the keep-out's moves back first and finishes alone (`only`: pbf.ts PBF_KEEP_OUT_ONCE);
 *      else the pass: δ = w p + (w − 1)
 *      δ_last (Chebyshev, Wang 2015 §4), the pass's pressure into the stored pressure (the warm start:
 *      pbf.ts PBF_WARM_SHARE), the displacement of p (DISPLACE) and, where `split` is 0, x += Δx and
 *      the slot positions out to the particles for `constrain`.
 * Rank 0 writes the compression and whether the passes stop into `out`. The arithmetic per slot and
 * the sums are the calling thread's loops' (pbf.ts), so the same bits on one thread.
 */
import type { SolveView } from './pressure-kernels.ts';
import { densityRange, factorRange, wallRange } from './pressure-kernels.ts';
import { densityHalf, factorHalf, type HalfRows } from './pressure-half.ts';
import { measuresAlone, pbfMeasureOne } from './pbf-measure.ts';
import { listWallLower } from './pressure-wall-lower.ts';

/** What PBF_STEP reads and writes besides the solve view (the job's arrays and scalars by these names). */
export interface PbfStepArgs {
  a: {
    x: Float64Array; dx: Float64Array; p: Float64Array; dens: Float64Array; alpha: Float64Array; res: Float64Array;
    order: Int32Array; near: Uint8Array; lam: Float64Array; vel: Float64Array;
    pos: Float64Array; fix: Float64Array; x0: Float64Array; density: Float32Array; scalar: Float64Array; out: Float64Array;
  };
  s: {
    nwalls: number; omega: number; tol: number; invDt: number;
    back: number; only: number; defer: number; guessLast: number; more: number; pass: number; weight: number; warm: number; split: number; constrained: number; moved: number;
  };
  rank: number; n: number; from: number; to: number;
  barrier(): void;
}

/** The arrays of PBF_STEP besides the solve view's: the liquid's by slot order `order` (pbf-job.ts). */
export interface PbfSlots {
  order: Int32Array;
  near: Uint8Array;
  lam: Float64Array;
  vel: Float64Array;
  pos: Float64Array;
  density: Float32Array;
  scalar: Float64Array;
  x0: Float64Array;
  fix: Float64Array;
  /** OUT_WORDS words (shared memory on a team): the measure's compression and the stop. */
  out: Float64Array;
}

/** What one PBF_STEP run is asked to do (pbf.ts solveDensityPBF's loop). */
export interface PbfStepAsk {
  back: boolean; only?: boolean; defer?: boolean; guessLast: boolean; more: boolean; pass: number; weight: number; warm: number; split: boolean; constrained: boolean; moved: boolean;
  relax: number; tolerance: number; dt: number;
}

/** out[OUT_ERROR]: the measure's mean compression; out[OUT_STOP]: 1 where the passes stop after it. */
export const OUT_ERROR = 0, OUT_STOP = 1, OUT_WORDS = 2;

/** The mean compression Σ max(ρ̂ − 1, 0) / n over every slot, in slot order. */
function compression(dens: Float64Array, n: number): number {
  let err = 0;
  for (let a = 0; a < n; a++) {
    const c = dens[a] - 1;
    if (c > 0) err += c;
  }
  return err / n;
}

/** PBF_STEP over this thread's slots (see the header); `displace` is the solve job's displacement of p. */
export function pbfStep(x: PbfStepArgs, v: SolveView, hr: HalfRows | null, displace: (v: SolveView, from: number, to: number, hr: HalfRows | null) => void): void {
  const a = x.a, s = x.s, from = x.from, to = x.to, n = x.n;
  const { x: xs, dx, p, dens, alpha, order, pos } = a;
  if (s.back === 1) {
    const fix = a.fix;
    for (let k = from; k < to; k++) {
      const i = order[k];
      for (let c = 0; c < 3; c++) {
        const q = pos[3 * i + c];
        fix[3 * k + c] += q - xs[3 * k + c];
        xs[3 * k + c] = q;
      }
    }
    x.barrier();
  }
  if (s.only === 1) {
    finishRange(x, from, to);
    return;
  }
  if (s.nwalls > 0) {
    wallRange(v, from, to);
    // Rows of upper parts alone (one thread): the walled lower entries the measures' ghosts read.
    if (hr?.upperOnly) listWallLower(v, n, hr.mid, hr.lower!);
    x.barrier();
  }
  let error = 0, stop = false;
  if (s.guessLast === 1 || s.more === 0) {
    if (hr) densityHalf(v, from, to, hr);
    else densityRange(v, from, to);
    x.barrier();
    error = compression(dens, n);
    stop = s.more === 0 || error <= s.tol;
    // Every thread has read ρ̂ before FACTOR writes it again.
    if (!stop) x.barrier();
  }
  if (!stop) {
    // One thread without closed walls: the measure less the counts PBF does not read (pbf-measure.ts).
    if (measuresAlone(v, from, to, n, hr)) pbfMeasureOne(v, n, hr);
    else if (hr) factorHalf(v, from, to, hr);
    else factorRange(v, from, to);
    const omega = s.omega;
    for (let k = from; k < to; k++) {
      const c = dens[k] - 1;
      p[k] = c > 0 ? omega * c * alpha[k] : 0;
    }
    x.barrier();
    error = compression(dens, n);
    stop = error <= s.tol;
  }
  if (x.rank === 0) {
    a.out[OUT_ERROR] = error;
    a.out[OUT_STOP] = stop ? 1 : 0;
  }
  if (stop) {
    if (s.defer === 0) finishRange(x, from, to);
    return;
  }
  // The pass: its increment δ (last: res), its share of the warm start, its displacement.
  const last = a.res, weight = s.weight;
  if (s.pass > 0) {
    for (let k = from; k < to; k++) {
      const d = weight * p[k] + (weight - 1) * last[k];
      last[k] = d; p[k] = d;
    }
    // (w = 1, the default's every weight: δ = p, p unchanged, so no neighbour reads a new p.)
    if (weight !== 1) x.barrier();
  } else for (let k = from; k < to; k++) last[k] = p[k];
  const scale = s.warm;
  if (scale > 0) {
    const lam = a.lam, near = a.near;
    for (let k = from; k < to; k++) {
      const i = order[k];
      if (lam[i] > 0 && !near[i]) lam[i] += scale * p[k];
    }
  }
  displace(v, from, to, hr);
  if (s.split === 1) return;
  // Every thread's displacement has read the positions before they move.
  x.barrier();
  for (let o = 3 * from; o < 3 * to; o++) xs[o] += dx[o];
  if (s.constrained === 1) {
    for (let k = from; k < to; k++) {
      const i = order[k];
      pos[3 * i] = xs[3 * k]; pos[3 * i + 1] = xs[3 * k + 1]; pos[3 * i + 2] = xs[3 * k + 2];
    }
  }
}

/** pbf.ts finish over slots [from, to): the displacement as velocity (where `moved`), ρ/ρ0 to the particles. */
function finishRange(x: PbfStepArgs, from: number, to: number): void {
  const { order, pos, vel, x: xs, x0, fix, dens, density, scalar } = x.a, moved = x.s.moved === 1, invDt = x.s.invDt;
  for (let a = from; a < to; a++) {
    const i = order[a], q = 3 * a, o = 3 * i;
    if (moved) {
      // x0: the positions at the start in particle order (prepareSolve's `starts`).
      let ux = (xs[q] - x0[o] - fix[q]) * invDt, uy = (xs[q + 1] - x0[o + 1] - fix[q + 1]) * invDt, uz = (xs[q + 2] - x0[o + 2] - fix[q + 2]) * invDt;
      const f2 = fix[q] * fix[q] + fix[q + 1] * fix[q + 1] + fix[q + 2] * fix[q + 2];
      if (f2 > 0) {
        const un = (ux * fix[q] + uy * fix[q + 1] + uz * fix[q + 2]) / f2;
        if (un < 0) { ux -= un * fix[q]; uy -= un * fix[q + 1]; uz -= un * fix[q + 2]; }
      }
      vel[3 * i] += ux; vel[3 * i + 1] += uy; vel[3 * i + 2] += uz;
      pos[3 * i] = xs[q]; pos[3 * i + 1] = xs[q + 1]; pos[3 * i + 2] = xs[q + 2];
    }
    density[i] = dens[a];
    scalar[i] = dens[a];
  }
}
