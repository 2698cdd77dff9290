/**
 * The passes of the pressure stage (pressure.ts) and of PBF density correction (pbf.ts) as one job
 * (src/parallel/job.ts): each phase is a loop of pressure-kernels.ts over a range of slots in
 * which every slot writes only its own entries, so the phases run on the thread team over
 * 'items' ranges with the same bits as one loop over every slot. A phase's residual is written
 * per slot (`res`) and summed by the calling thread in slot order, so that the passes stop after
 * the same pass on any thread count. A phase whose slots read what their neighbours wrote earlier
 * in it meets at a barrier between (SOLVE, FILTER_STEP): one run of the team
 * rather than one a loop, each thread's items cut by the rows' entries (ItemCost). Where the view
 * has the rows' upper starts (prepareSolve's views) the loops that read or write the kernel slopes
 * run pressure-half.ts's loops over each pair once, in every phase, on one thread and on a team
 * (each thread over its range, the pairs from the ranges below gathered first): the gather loops'
 * sums in the same order, so the same bits on any thread count (they keep the slopes of the rows'
 * upper parts and of the lower entries below a thread's range only, which the filter does not read).
 */
import type { StepContext } from './context.ts';
import { defineJob, pinned } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { densityRange, factorRange, pressureUpdateRange, wallRange, type SolveView } from './pressure-kernels.ts';
import { filterStep } from './pressure-filter.ts';
import { densityHalf, factorHalf, updateHalf, type HalfRows } from './pressure-half.ts';
import { displace, solveRange } from './pressure-solve-range.ts';
import { teamWork } from './work.ts';
import { pbfStep, type PbfSlots, type PbfStepArgs, type PbfStepAsk } from './pbf-job.ts';
import { GhostTable, listGhosts } from './pressure-ghost-table.ts';
import { listWallLower, WallLower } from './pressure-wall-lower.ts';
import { MeasureKeep } from './pressure-measure-keep.ts';

/**
 * The phases run alone: the closed walls near each slot, ρ̂ and α, the displacement of p, and ρ̂
 * alone (FACTOR's, without the slopes: a measure no pass reads the slopes of). WALLS runs before
 * FACTOR and DENSITY as a phase of its own: a slot's mirror ghosts read its neighbours' walls. The
 * relaxed Jacobi update of p (pressure-kernels.ts pressureUpdateRange), ρ̂ advanced by a
 * displacement (advanceDensityRange) and the particle-scale velocity filter (pressure-filter.ts)
 * run inside the phases below, with the loops about them.
 */
export const WALLS = 4, FACTOR = 0, DISPLACE = 1, DENSITY = 6;
/** One relaxed Jacobi update of p (pressureUpdateRange) over the last DISPLACE's displacement, with ω: the position shift's passes (pressure-shift.ts). */
export const UPDATE = 2;
/**
 * A whole solve of the pressure stage (pressure.ts applyPressure) in one run of the team (SOLVE):
 * FACTOR where asked (without closed walls: the source reads only a slot's own factor), the
 * second solve's TAKE_BACK (below), the source (SOURCE), then, where any slot has a source or a pressure, the passes
 * of relaxed Jacobi with the Chebyshev step, each one the displacement of p, a barrier, per slot
 * its p kept, the update and the step, a barrier; every thread then adds the slots' residuals in
 * slot order, as the calling thread did, and all stop after the same pass; then FINISH where asked
 * (no free bodies: their reaction follows on the calling thread). One run where the source, each
 * pass and the finish were one each (docs/decisions.md, branch team4): the same arithmetic per
 * slot, so the same bits.
 *
 * The source (SOURCE): the slot displacements δt v, ρ̂ kept, ρ̂ advanced by them, then the source
 * and the warm start per slot, each thread's "any" to `flags`; FINISH: the last displacement, taken
 * as velocity, the free-flight offsets cleared, the pressure kept as the next warm start;
 * TAKE_BACK: the first solve's pressure away from bodies, its displacement taken out of the
 * velocities. The same arithmetic per slot as the calling thread's loops they replaced.
 */
export const SOLVE = 8;
/**
 * A step of the velocity filter (pressure-filter.ts) in one run: u = v where asked, L u, u = L u,
 * L u again and v −= gain · L(L u), a barrier wherever a slot's next reads are its neighbours' last
 * writes.
 */
export const FILTER_STEP = 12;
/** PBF's measure and the pass that follows it (pbf.ts) in one run: pbf-job.ts pbfStep. */
export const PBF_STEP = 16;

/**
 * Runs the bound solve job over n slots: rows of their upper parts alone serve one thread only (a
 * team's loops read the lower entries below a thread's range); rows by range, the threads they were listed for.
 */
function runSolve(job: ReturnType<typeof bindSolve>, v: SolveView, n: number): void {
  const T = job.threads(n), cuts = v.half?.cuts;
  if (v.half?.upperOnly && T > 1) throw new Error('pressure solve: rows of upper parts alone on a team (solve-setup.ts prepareSolve lists full rows for one)');
  if (cuts && T > 1) {
    if (!pinned(cuts, n, T)) throw new Error(`pressure solve: rows listed by range for ${cuts[0]} threads, run on ${T}`);
    // (The filter's and the closed walls' team loops read full rows.)
    if (job.s.phase === FILTER_STEP || v.walls.length > 0) throw new Error('pressure solve: rows listed by range where a loop reads full rows (solve-setup.ts prepareSolve)');
  }
  runJob(job, n);
}

/** Closed walls, 3 numbers each (axis, plane, inward), as a job passes them. */
function packWalls(walls: SolveView['walls'], out: Float64Array): Float64Array {
  for (let k = 0; k < walls.length; k++) {
    out[3 * k] = walls[k].axis; out[3 * k + 1] = walls[k].plane; out[3 * k + 2] = walls[k].inward;
  }
  return out;
}
const wallBuffer = new Float64Array(18);

/**
 * Runs `phase` over the n slots of the solve view v; FACTOR and DENSITY run WALLS first where there are closed walls (unless `wallsDone`: WALLS has run at these positions).
 * WALLS with `wallsDone`: the walled lower list and the ghost table of v's rows at these positions stand (pressure-measure-keep.ts): the masks alone, the table handed to v.
 */
export function runSolvePhase(ctx: StepContext, v: SolveView, n: number, phase: number, wallsDone = false): void {
  const job = bindSolve(ctx, v, n, phase, 0), s = job.s;
  s.listed = phase === WALLS && wallsDone ? 1 : 0;
  if ((phase === FACTOR || phase === DENSITY) && v.walls.length > 0 && !wallsDone) {
    s.phase = WALLS;
    runSolve(job, v, n);
    listGhosts(job, v, n);
    s.phase = phase;
  }
  runSolve(job, v, n);
  if (phase === WALLS && wallsDone) job.scratch.table.view = v;
  else if (phase === WALLS) listGhosts(job, v, n);
}

/** UPDATE over the n slots of v with relaxation ω (after a DISPLACE at the same p). */
export function runUpdatePhase(ctx: StepContext, v: SolveView, n: number, omega: number): void {
  runSolve(bindSolve(ctx, v, n, UPDATE, omega), v, n);
}

/** The arrays and numbers of the stage's per-slot phases (SOLVE, FILTER_STEP): the liquid's by slot order `order`. */
export interface StageSlots {
  order: Int32Array;
  vel: Float64Array;
  /** The stored pressure p/δt² (the warm start) and the free-flight offset, by particle. */
  lam: Float64Array;
  off: Float64Array;
  near: Uint8Array;
  /** One word a thread (on shared memory for a team): SOURCE's "any"; the last word, SOLVE's passes (MAX_THREADS + 1 words). */
  flags: Int32Array;
  dt: number;
}

function bindStage(ctx: StepContext, v: SolveView, n: number, phase: number, st: StageSlots) {
  const job = bindSolve(ctx, v, n, phase, 0), a = job.a, s = job.s;
  a.order = st.order; a.vel = st.vel; a.lam = st.lam; a.off = st.off; a.near = st.near; a.flags = st.flags;
  const dt = st.dt;
  s.dt = dt; s.dt2 = dt * dt; s.invDt = 1 / dt; s.invDt2 = 1 / (dt * dt);
  return job;
}

/** The stop rule and the step of the pressure stage's passes (pressure.ts applyPressure), as SOLVE takes them. */
export interface SolvePasses {
  maxPasses: number;
  tolerance: number;
  /** The relaxed Jacobi update's ω and the Chebyshev iteration's spectral radius. */
  relax: number;
  radius: number;
}

/**
 * SOLVE (pressure.ts applyPressure): FACTOR where `factor`, TAKE_BACK where `again`, u (3 a slot) the slot displacements δt v, ρ̂ advanced by them and
 * the object displacements ou, `keepStart` ρ̂ at the start into u's third block; where any slot has
 * a source or a pressure, the passes (u's first two blocks their history), and FINISH where `finish`.
 * Returns the passes taken (0: none, p as the source left it); their last residuals are in v.res.
 */
export function runPressureSolve(
  ctx: StepContext, v: SolveView, n: number, st: StageSlots, u: Float64Array, ou: Float64Array | null,
  present: number, presentNear: number, shift: boolean, keepStart: boolean, full: number, alone: number, factor: boolean, again: boolean,
  passes: SolvePasses, finish: boolean,
): number {
  if (factor && v.walls.length > 0) throw new Error('pressure: FACTOR in the solve\'s run runs without closed walls (FACTOR needs WALLS first)');
  const job = bindStage(ctx, v, n, SOLVE, st), s = job.s;
  job.a.hist = u;
  job.a.ou = ou ?? v.gamma;
  s.hasOu = ou ? 1 : 0;
  s.present = present; s.presentNear = presentNear; s.shift = shift ? 1 : 0; s.keepStart = keepStart ? 1 : 0; s.full = full; s.alone = alone;
  s.again = again ? 1 : 0; s.factor = factor ? 1 : 0; s.finish = finish ? 1 : 0;
  s.omega = passes.relax; s.r2 = passes.radius * passes.radius; s.maxPasses = passes.maxPasses; s.tol = passes.tolerance;
  runSolve(job, v, n);
  return st.flags[st.flags.length - 1];
}

/**
 * One step of the velocity filter (pressure.ts filterVelocity): each slot's strength in v.res, u (3
 * a slot) the slot velocities, filled from the particles first where `fillU`; the velocities take
 * −gain · L(L u).
 */
export function runFilterStep(ctx: StepContext, v: SolveView, n: number, st: StageSlots, u: Float64Array, fillU: boolean, gain: number): void {
  const job = bindStage(ctx, v, n, FILTER_STEP, st);
  job.a.hist = u;
  job.s.fillU = fillU ? 1 : 0;
  job.s.gain = gain;
  runSolve(job, v, n);
}

/**
 * Two threads' cut of the solve's job moved by their measured times from here on (job.ts balance):
 * at the start of PBF (pbf.ts), whose rows are listed anew and measured before any run reads a kept
 * slope, as are those of the pressure stage's solves that follow.
 */
export function takeSolveShare(ctx: StepContext): void {
  ctx.runner.bind(solveJob).cut.take();
}

/** Runs PBF_STEP (pbf-job.ts) over the n slots of v: a measure and, where the passes go on, the pass. */
export function runPbfStep(ctx: StepContext, v: SolveView, n: number, sl: PbfSlots, ask: PbfStepAsk): void {
  const job = bindSolve(ctx, v, n, PBF_STEP, ask.relax), a = job.a, s = job.s;
  a.order = sl.order; a.near = sl.near; a.lam = sl.lam; a.vel = sl.vel; a.pos = sl.pos; a.density = sl.density; a.scalar = sl.scalar;
  a.x0 = sl.x0; a.fix = sl.fix; a.out = sl.out;
  s.tol = ask.tolerance; s.invDt = 1 / ask.dt;
  s.back = ask.back ? 1 : 0; s.guessLast = ask.guessLast ? 1 : 0; s.more = ask.more ? 1 : 0; s.pass = ask.pass; s.weight = ask.weight;
  s.warm = ask.warm; s.split = ask.split ? 1 : 0; s.constrained = ask.constrained ? 1 : 0; s.moved = ask.moved ? 1 : 0;
  runSolve(job, v, n);
}

/** The solve job bound to the view v for `phase`. */
function bindSolve(ctx: StepContext, v: SolveView, n: number, phase: number, omega: number) {
  const job = ctx.runner.bind(solveJob), a = job.a, s = job.s;
  // A thread keeps the slopes of the lower entries below its range for the later runs over the same
  // rows (pressure-half.ts): the cut moves only where the rows are new (takeSolveShare).
  job.cut.hold = true;
  a.x = v.x; a.ls = v.ls; a.lj = v.lj; a.bs = v.bs; a.bj = v.bj; a.opos = v.opos; a.gamma = v.gamma; a.invMass = v.invMass;
  a.kg = v.kg; a.bg = v.bg; a.dens = v.dens; a.dx = v.dx; a.wmask = v.wmask; a.wdel = v.wdel; a.alpha = v.alpha; a.p = v.p; a.nb = v.nb; a.res = v.res;
  a.walls = packWalls(v.walls, wallBuffer);
  a.ou = v.gamma;
  // The rows' upper starts and the half loops' scratch (pressure-half.ts), where the view has them.
  a.mid = v.half ? v.half.mid : NO_MID; a.acc = v.half ? v.half.acc : NO_ACC;
  a.cuts = v.half?.cuts ?? NO_MID; // (rows by range: the threads keep the ranges they were listed for)
  s.half = v.half ? 1 : 0; s.upper = v.half?.upperOnly ? 1 : 0;
  s.phase = phase; s.uniform = v.uniform ? 1 : 0; s.nwalls = v.walls.length; s.h = v.h; s.n0 = v.n0; s.eps = v.eps;
  s.omega = omega; s.hasOu = 0; s.again = 0;
  // The ghost table listed after WALLS at v's positions (listGhosts); another view's drops it (no stale view held past its stage).
  const gt = job.scratch.table;
  if (gt.view !== v) gt.view = null;
  s.table = gt.view !== null && job.threads(n) === 1 ? 1 : 0;
  a.floor = v.floor ?? NO_ACC;
  s.hasFloor = v.floor ? 1 : 0;
  return job;
}

/**
 * A slot's own cost in the phases, in row entries (the job's split by cost): the loops over its rows
 * are most of a phase, the slot's own reads and writes about this many entries' worth.
 */
const SLOT_COST = 4;

const NO_MID = new Int32Array(0), NO_ACC = new Float64Array(0);

/** A thread's view of the job's arrays (its walls unpacked once per run, its half rows' arrays), and the calling thread's ghost table. */
class ThreadView {
  walls: SolveView['walls'] = [];
  half: HalfRows = { mid: NO_MID, acc: NO_ACC, upperOnly: false, lower: new WallLower() };
  table = new GhostTable();
  /** The first solve's measure, which the second takes where it runs as a phase (pressure-measure-keep.ts). */
  measure = new MeasureKeep();
}

export const solveJob = defineJob({
  name: 'pressure-solve',
  arrays: {
    x: 'f64', kg: 'f32', bg: 'f32', dens: 'f64', dx: 'f64', wmask: 'u8', wdel: 'f64', alpha: 'f64', p: 'f64', nb: 'i32', res: 'f64', hist: 'f64', floor: 'f64',
    vel: 'f64', lam: 'f64', off: 'f64', flags: 'i32', acc: 'f64',
    pos: 'f64', fix: 'f64', density: 'f32', scalar: 'f64', out: 'f64',
  },
  inputs: {
    x0: 'f64', ls: 'i32', lj: 'index', bs: 'i32', bj: 'i32', opos: 'f64', gamma: 'f64', invMass: 'f64', walls: 'f64', ou: 'f64',
    order: 'i32', near: 'u8', mid: 'i32', cuts: 'i32',
  },
  scalars: [
    'phase', 'uniform', 'nwalls', 'h', 'n0', 'eps', 'omega', 'hasOu', 'r2', 'maxPasses', 'tol', 'factor', 'finish',
    'dt', 'dt2', 'invDt', 'invDt2', 'present', 'presentNear', 'shift', 'keepStart', 'full', 'alone', 'fillU', 'gain', 'half', 'again', 'hasFloor',
    'back', 'guessLast', 'more', 'pass', 'weight', 'warm', 'split', 'constrained', 'moved', 'upper', 'table', 'listed',
  ],
  split: 'items',
  // A slot's phases cost about its rows' entries, liquid and object, and a few entries' worth of its own.
  cost: { prefix: ['ls', 'bs'], perItem: SLOT_COST, pin: 'cuts' },
  // Each slot's results are the same wherever the threads' ranges meet (the tests' one thread
  // against two, bit for bit): two threads' cut follows their measured times (job.ts balance).
  balance: true,
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
      alpha: a.alpha, p: a.p, nb: a.nb, grad: null, res: a.res, floor: s.hasFloor === 1 ? a.floor : null,
    };
    // The loops over each pair once, over this thread's range (pressure-half.ts), where the view has its half rows.
    let hr: HalfRows | null = null;
    if (s.half === 1) {
      hr = tv.half;
      hr.mid = a.mid; hr.acc = a.acc; hr.upperOnly = s.upper === 1;
    }
    const from = x.from, to = x.to;
    if (s.table === 1 && hr !== null && from === 0 && to === x.n) v.gt = tv.table; // (pressure-ghost-table.ts: one thread over every slot)
    switch (s.phase) {
      case WALLS:
        wallRange(v, x.from, x.to);
        // Rows of upper parts alone (one thread): the walled lower entries the measures' ghosts read.
        if (hr?.upperOnly && s.listed !== 1) listWallLower(v, x.n, hr.mid, hr.lower!);
        break;
      case FACTOR:
        if (hr) factorHalf(v, from, to, hr);
        else factorRange(v, from, to);
        break;
      case DENSITY:
        if (hr) densityHalf(v, from, to, hr);
        else densityRange(v, x.from, x.to);
        break;
      case DISPLACE:
        displace(v, x.from, x.to, hr);
        break;
      case UPDATE:
        if (hr) updateHalf(v, from, to, hr, s.omega);
        else pressureUpdateRange(v, from, to, s.omega);
        break;
      case SOLVE:
        solveRange(x, v, hr);
        break;
      case FILTER_STEP:
        filterStep(x, v, hr);
        break;
      case PBF_STEP:
        pbfStep(x as PbfStepArgs, v, hr, displace);
        break;
    }
  },
});

export type SolveArgs = Parameters<typeof solveJob.kernel>[0];
