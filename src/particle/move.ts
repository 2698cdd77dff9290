/**
 * A move (Steele Figure 3: accelerate, translate, apply friction; the fourth step, preventing
 * inter-penetration, is collisions.ts) as one job: explicit Euler with the sub-timestep's adhesion
 * acceleration plus gravity (integrate.ts), then friction against the objects (friction.ts).
 * Every particle changes only itself in all three, so a thread takes a range of particles and runs
 * the three loops over it, bit for bit as the three loops over every particle one after another.
 * A particle past particle.maxSpeed (or not finite) stops its thread where accelerate would, and
 * the first such particle in index order is reported.
 *
 * particle.densitySolver "pbf" splits the move (ballistic.ts): the sub-timestep's body forces go
 * into the velocity once (mode ACCELERATE_ONCE, before the pressure), and each move translates by
 * the velocity less the free-flight offset, then applies friction (mode BALLISTIC).
 */
import type { StepContext } from './context.ts';
import { allocInt32 } from '../parallel/memory.ts';
import { defineJob, type JobArrays } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { accelerateError, accelerateRange, translateRange } from './integrate.ts';
import { accelerateOffsetRange, translateOffsetRange } from './ballistic.ts';
import { frictionKeep, frictionRange, frictionTouch } from './friction.ts';
import { objectListsOf } from './object-lists.ts';
import { teamWork } from './work.ts';

/**
 * What a move keeps: the per-body friction factors of its step and where each thread's accelerate
 * stopped. A move without friction is cut by its particles alone: its contact starts are an empty
 * array (job.ts costOf counts nothing for it), not n + 1 zeros held for the run.
 */
export class MoveState {
  keep: Float64Array;
  stops: Int32Array;
  readonly noStarts: Int32Array;
  constructor(bodies: number, readonly shared: boolean) {
    this.keep = new Float64Array(bodies);
    this.stops = allocInt32(64, shared);
    this.noStarts = allocInt32(0, shared);
  }
}

/** The job's modes: Steele's move, the "pbf" move (translate by v − offset, friction), the "pbf" sub-timestep's acceleration. */
export const STEELE_MOVE = 0, BALLISTIC_MOVE = 1, ACCELERATE_ONCE = 2;

/** One move of length dt: accelerate, translate and friction (see the header); `mode` picks the "pbf" forms. */
export function moveLiquid(ctx: StepContext, dt: number, mode = STEELE_MOVE): void {
  const job = ctx.runner.bind(moveJob);
  setMove(ctx, dt, mode, job.a, job.s, job.threads(ctx.liquid.count) > 1);
  runJob(job, ctx.liquid.count);
  checkMove(ctx, job.teamed ? job.size : 1);
}

/** What a move reads and writes (the move job's; the contacts job's too, which can run a move first: liquid-contacts.ts). */
export type MoveArrays = Pick<JobArrays<typeof moveJob>, 'pos' | 'vel' | 'acc' | 'stops' | 'surface' | 'ls' | 'lj' | 'clear' | 'opos' | 'ovel' | 'obody' | 'index' | 'keep'>;
export type MoveScalars = { [K in (typeof moveJob.scalars)[number]]: number };

/** Sets a move's arrays and scalars on a job's arguments; `team`: the job runs on a team (its cut then reads `ls`, zeros without friction). */
export function setMove(ctx: StepContext, dt: number, mode: number, a: MoveArrays, s: MoveScalars, team: boolean): void {
  const L = ctx.liquid, O = ctx.objects, st = (ctx.move ??= new MoveState(O.bodies.length, ctx.shared)), [gx, gy, gz] = ctx.scene.gravity;
  a.pos = L.pos; a.vel = L.vel; a.acc = L.acc; a.stops = st.stops;
  s.dt = dt; s.gx = gx; s.gy = gy; s.gz = gz; s.max2 = ctx.scene.particle.maxSpeed ** 2;
  s.mode = mode;
  s.friction = O.count > 0 && mode !== ACCELERATE_ONCE ? 1 : 0;
  if (s.friction === 1) {
    const list = objectListsOf(ctx);
    a.surface = L.surface; a.ls = list.start; a.lj = list.j; a.clear = list.clear;
    a.opos = O.pos; a.ovel = O.vel; a.obody = O.body; a.index = list.index; a.keep = frictionKeep(ctx, dt, st.keep);
    s.touch = frictionTouch(ctx);
  } else if (team) a.ls = st.noStarts;
}

/** Throws where a thread's accelerate stopped (the first such particle in index order), after a move on `threads` threads. */
export function checkMove(ctx: StepContext, threads: number): void {
  const stops = ctx.move!.stops;
  for (let t = 0; t < threads; t++) if (stops[t] >= 0) throw accelerateError(ctx, stops[t]);
}

/** A move over particles [from, to) by thread `rank` (the move job's kernel; the contacts job's first phase). */
export function moveRange(a: MoveArrays, s: MoveScalars, from: number, to: number, rank: number): void {
  const dt = s.dt;
  if (s.mode === BALLISTIC_MOVE) {
    a.stops[rank] = -1;
    translateOffsetRange(a.pos, a.vel, a.acc, dt, from, to);
  } else if (s.mode === ACCELERATE_ONCE) {
    a.stops[rank] = accelerateOffsetRange(a.vel, a.acc, s.gx, s.gy, s.gz, dt, s.max2, from, to);
    return;
  } else {
    const stop = accelerateRange(a.vel, a.acc, s.gx, s.gy, s.gz, dt, s.max2, from, to);
    a.stops[rank] = stop;
    if (stop >= 0) return;
    translateRange(a.pos, a.vel, dt, from, to);
  }
  if (s.friction !== 1) return;
  frictionRange(a.pos, a.vel, a.surface, a.ls, a.lj, a.clear, a.opos, a.ovel, a.obody, a.index, a.keep, s.touch, from, to);
}

export const moveJob = defineJob({
  name: 'move',
  arrays: { pos: 'f64', vel: 'f64', acc: 'f64', stops: 'i32' },
  inputs: {
    surface: 'u8', ls: 'i32', lj: 'index', clear: 'f32', opos: 'f64', ovel: 'f64', obody: 'i32', index: 'i32', keep: 'f64',
  },
  scalars: ['dt', 'gx', 'gy', 'gz', 'max2', 'friction', 'touch', 'mode'],
  split: 'items',
  // Cut by the friction's contact entries (`ls`: the object contact lists' starts, or an empty
  // array without friction) and a particle's accelerate and translate.
  cost: { prefix: ['ls'], perItem: 2 },
  // Each particle's result is its own: two threads' cut follows their measured times (job.ts balance).
  balance: true,
  minItems: () => teamWork.minParticles,
  kernel(x) {
    moveRange(x.a, x.s, x.from, x.to, x.rank);
  },
});
