/**
 * The passes of the pressure stage (pressure.ts) and of PBF density correction (pbf.ts) as one job
 * (src/parallel/job.ts): each phase is a loop of pressure-kernels.ts over a range of slots in
 * which every slot writes only its own entries, so the phases run on the thread team over
 * 'items' ranges with the same bits as one loop over every slot. A phase's residual is written
 * per slot (`res`) and summed by the calling thread in slot order, so that the passes stop after
 * the same pass on any thread count.
 */
import type { StepContext } from './context.ts';
import { defineJob } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { advanceDensityRange, densityRange, factorRange, pressureDisplacementRange, pressureUpdateRange, wallRange, type SolveView } from './pressure-kernels.ts';
import { filterRange } from './pressure-filter.ts';
import { teamWork } from './work.ts';

/**
 * The phases: the closed walls near each slot, ρ̂ and α, the displacement of p, a relaxed Jacobi
 * update of p, ρ̂ advanced by u, the particle-scale velocity filter (pressure-filter.ts: u the
 * slot velocities, res each slot's strength, Δv to dx), and ρ̂ alone (FACTOR's, without the
 * slopes: a measure no pass reads the slopes of). WALLS runs before FACTOR and DENSITY as a phase of its
 * own: a slot's mirror ghosts read its neighbours' walls.
 */
export const WALLS = 4, FACTOR = 0, DISPLACE = 1, UPDATE = 2, ADVANCE = 3, FILTER_VELOCITY = 5, DENSITY = 6;
/**
 * A whole pass of the pressure stage's relaxed Jacobi (runPressurePass): DISPLACE, a barrier (UPDATE
 * reads the neighbours' displacements), then per slot its p kept, UPDATE and the Chebyshev step: one
 * run of the team a pass rather than two, and the calling thread's per-slot loops between them on
 * the team.
 */
export const PASS = 7;

/** Closed walls, 3 numbers each (axis, plane, inward), as a job passes them. */
function packWalls(walls: SolveView['walls'], out: Float64Array): Float64Array {
  for (let k = 0; k < walls.length; k++) {
    out[3 * k] = walls[k].axis; out[3 * k + 1] = walls[k].plane; out[3 * k + 2] = walls[k].inward;
  }
  return out;
}
const wallBuffer = new Float64Array(18);

/**
 * Runs `phase` over the n slots of the solve view v (u, ou: ADVANCE's displacements, ou null for
 * still objects; omega: UPDATE's relaxation, which writes each slot's residual to v.res). FACTOR
 * and DENSITY run WALLS first where there are closed walls.
 */
export function runSolvePhase(ctx: StepContext, v: SolveView, n: number, phase: number, u: Float64Array | null = null, ou: Float64Array | null = null, omega = 0): void {
  const job = bindSolve(ctx, v, phase, u, ou, omega), s = job.s;
  if ((phase === FACTOR || phase === DENSITY) && v.walls.length > 0) {
    s.phase = WALLS;
    runJob(job, n);
    s.phase = FACTOR;
  }
  runJob(job, n);
}

/**
 * One pass of the pressure stage (pressure.ts) in one run (PASS): the displacement of p, then per
 * slot a: hist[before + a] = p_a, the relaxed Jacobi update (omega, residuals to v.res), and where
 * cheb > 0 p_a = max(0, cheb (p_a − o_a) + o_a), o_a = hist[older + a]. The same arithmetic per
 * slot as DISPLACE, UPDATE and the loops that followed them on the calling thread, so the same bits.
 */
export function runPressurePass(ctx: StepContext, v: SolveView, n: number, hist: Float64Array, before: number, older: number, omega: number, cheb: number): void {
  const job = bindSolve(ctx, v, PASS, null, null, omega);
  job.a.hist = hist;
  job.s.before = before; job.s.older = older; job.s.cheb = cheb;
  runJob(job, n);
}

/** The solve job bound to the view v for `phase`. */
function bindSolve(ctx: StepContext, v: SolveView, phase: number, u: Float64Array | null, ou: Float64Array | null, omega: number) {
  const job = ctx.runner.bind(solveJob), a = job.a, s = job.s;
  a.x = v.x; a.ls = v.ls; a.lj = v.lj; a.bs = v.bs; a.bj = v.bj; a.opos = v.opos; a.gamma = v.gamma; a.invMass = v.invMass;
  a.kg = v.kg; a.bg = v.bg; a.dens = v.dens; a.dx = v.dx; a.wmask = v.wmask; a.wdel = v.wdel; a.alpha = v.alpha; a.p = v.p; a.nb = v.nb; a.res = v.res;
  a.walls = packWalls(v.walls, wallBuffer);
  a.u = u ?? v.dx; a.ou = ou ?? v.gamma;
  s.phase = phase; s.uniform = v.uniform ? 1 : 0; s.nwalls = v.walls.length; s.h = v.h; s.n0 = v.n0; s.eps = v.eps;
  s.omega = omega; s.hasOu = ou ? 1 : 0;
  return job;
}

/** A thread's view of the job's arrays (its walls unpacked once per run). */
class ThreadView {
  walls: SolveView['walls'] = [];
}

export const solveJob = defineJob({
  name: 'pressure-solve',
  arrays: { kg: 'f32', bg: 'f32', dens: 'f64', dx: 'f64', wmask: 'u8', wdel: 'f64', alpha: 'f64', p: 'f64', nb: 'i32', res: 'f64', hist: 'f64' },
  inputs: { x: 'f64', ls: 'i32', lj: 'index', bs: 'i32', bj: 'i32', opos: 'f64', gamma: 'f64', invMass: 'f64', walls: 'f64', u: 'f64', ou: 'f64' },
  scalars: ['phase', 'uniform', 'nwalls', 'h', 'n0', 'eps', 'omega', 'hasOu', 'before', 'older', 'cheb'],
  split: 'items',
  minItems: () => teamWork.minParticles,
  scratch: () => new ThreadView(),
  kernel(x) {
    const a = x.a, s = x.s, tv = x.scratch;
    const walls = tv.walls;
    walls.length = s.nwalls;
    for (let k = 0; k < s.nwalls; k++) {
      const w = (walls[k] ??= { axis: 0, plane: 0, inward: 0 });
      w.axis = a.walls[3 * k]; w.plane = a.walls[3 * k + 1]; w.inward = a.walls[3 * k + 2];
    }
    const v: SolveView = {
      x: a.x, ls: a.ls, lj: a.lj, bs: a.bs, bj: a.bj, kg: a.kg, bg: a.bg, opos: a.opos, gamma: a.gamma, invMass: a.invMass, uniform: s.uniform === 1,
      dens: a.dens, dx: a.dx, wmask: a.wmask, wdel: a.wdel, walls, h: s.h, n0: s.n0, eps: s.eps,
      alpha: a.alpha, p: a.p, nb: a.nb, grad: null, res: a.res,
    };
    switch (s.phase) {
      case WALLS:
        wallRange(v, x.from, x.to);
        break;
      case FACTOR:
        factorRange(v, x.from, x.to);
        break;
      case DENSITY:
        densityRange(v, x.from, x.to);
        break;
      case DISPLACE:
        pressureDisplacementRange(v, x.from, x.to);
        break;
      case UPDATE:
        pressureUpdateRange(v, x.from, x.to, s.omega);
        break;
      case PASS: {
        pressureDisplacementRange(v, x.from, x.to);
        x.barrier();
        const p = a.p, hist = a.hist, b0 = s.before, o0 = s.older, cheb = s.cheb;
        for (let k = x.from; k < x.to; k++) hist[b0 + k] = p[k];
        pressureUpdateRange(v, x.from, x.to, s.omega);
        if (cheb > 0) {
          for (let k = x.from; k < x.to; k++) {
            const q = cheb * (p[k] - hist[o0 + k]) + hist[o0 + k];
            p[k] = q > 0 ? q : 0;
          }
        }
        break;
      }
      case ADVANCE:
        advanceDensityRange(v, x.from, x.to, a.u, s.hasOu === 1 ? a.ou : null);
        break;
      case FILTER_VELOCITY:
        filterRange(v, x.from, x.to, a.u, a.res, a.dx);
        break;
    }
  },
});
