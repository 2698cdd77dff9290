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
import { defineJob } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { advanceDensityRange, densityRange, factorRange, pressureDisplacementRange, pressureUpdateRange, wallRange, type SolveView } from './pressure-kernels.ts';
import { filterStep } from './pressure-filter.ts';
import { advanceHalf, densityHalf, displaceHalf, factorHalf, updateHalf, type HalfRows } from './pressure-half.ts';
import { factorAdvanceHalf } from './pressure-factor-advance.ts';
import { teamWork } from './work.ts';
import { pbfStep, type PbfSlots, type PbfStepArgs, type PbfStepAsk } from './pbf-job.ts';
import { GhostTable, listGhosts } from './pressure-ghost-table.ts';
import { listWallLower, WallLower } from './pressure-wall-lower.ts';

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

/** Runs the bound solve job over n slots: rows of their upper parts alone serve one thread only (a team's loops read the lower entries below a thread's range). */
function runSolve(job: ReturnType<typeof bindSolve>, v: SolveView, n: number): void {
  if (v.half?.upperOnly && job.threads(n) > 1) throw new Error('pressure solve: rows of upper parts alone on a team (solve-setup.ts prepareSolve lists full rows for one)');
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

/** Runs `phase` over the n slots of the solve view v; FACTOR and DENSITY run WALLS first where there are closed walls (unless `wallsDone`: WALLS has run at these positions). */
export function runSolvePhase(ctx: StepContext, v: SolveView, n: number, phase: number, wallsDone = false): void {
  const job = bindSolve(ctx, v, n, phase, 0), s = job.s;
  if ((phase === FACTOR || phase === DENSITY) && v.walls.length > 0 && !wallsDone) {
    s.phase = WALLS;
    runSolve(job, v, n);
    listGhosts(job, v, n);
    s.phase = phase;
  }
  runSolve(job, v, n);
  if (phase === WALLS) listGhosts(job, v, n);
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
  s.warm = ask.warm; s.only = ask.only ? 1 : 0; s.defer = ask.defer ? 1 : 0; s.split = ask.split ? 1 : 0; s.constrained = ask.constrained ? 1 : 0; s.moved = ask.moved ? 1 : 0;
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
    order: 'i32', near: 'u8', mid: 'i32',
  },
  scalars: [
    'phase', 'uniform', 'nwalls', 'h', 'n0', 'eps', 'omega', 'hasOu', 'r2', 'maxPasses', 'tol', 'factor', 'finish',
    'dt', 'dt2', 'invDt', 'invDt2', 'present', 'presentNear', 'shift', 'keepStart', 'full', 'alone', 'fillU', 'gain', 'half', 'again', 'hasFloor',
    'back', 'guessLast', 'more', 'pass', 'weight', 'warm', 'split', 'constrained', 'moved', 'upper', 'table', 'only', 'defer',
  ],
  split: 'items',
  // A slot's phases cost about its rows' entries, liquid and object, and a few entries' worth of its own.
  cost: { prefix: ['ls', 'bs'], perItem: SLOT_COST },
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
        if (hr?.upperOnly) listWallLower(v, x.n, hr.mid, hr.lower!);
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

/** The displacement of p over slots [from, to): over each pair once where `hr` (then [0, n)). */
function displace(v: SolveView, from: number, to: number, hr: HalfRows | null): void {
  if (hr) displaceHalf(v, from, to, hr);
  else pressureDisplacementRange(v, from, to);
}

/**
 * SOLVE over this thread's slots (runPressureSolve): FACTOR (`fused`: in SOURCE's sweep) and TAKE_BACK where asked, SOURCE, a barrier, and
 * where any thread's slots have a source or a pressure the passes and FINISH where asked. Rank 0
 * writes the passes into the flags' last word.
 */
function solveRange(x: SolveArgs, v: SolveView, hr: HalfRows | null): void {
  const a = x.a, s = x.s, from = x.from, to = x.to, n = x.n, flags = a.flags, fused = s.factor === 1 && s.again === 0 && s.nwalls === 0 && hr !== null && to - from === n;
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
  // `fused` (the first solve on one thread without closed walls): the measure and the change in one sweep (pressure-factor-advance.ts).
  if (fused) factorAdvanceHalf(v, n, hr!, u, s.hasOu === 1 ? a.ou : null, rho);
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
