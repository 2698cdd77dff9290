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
import { defineJob } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { accelerateError, accelerateRange, translateRange } from './integrate.ts';
import { accelerateOffsetRange, translateOffsetRange } from './ballistic.ts';
import { frictionKeep, frictionRange, frictionTouch } from './friction.ts';
import { objectListsOf } from './object-lists.ts';
import { teamWork } from './work.ts';

/** What a move keeps: the per-body friction factors of its step, and where each thread's accelerate stopped. */
export class MoveState {
  keep: Float64Array;
  stops: Int32Array;
  constructor(bodies: number, shared: boolean) {
    this.keep = new Float64Array(bodies);
    this.stops = allocInt32(64, shared);
  }
}

/** The job's modes: Steele's move, the "pbf" move (translate by v − offset, friction), the "pbf" sub-timestep's acceleration. */
export const STEELE_MOVE = 0, BALLISTIC_MOVE = 1, ACCELERATE_ONCE = 2;

/** One move of length dt: accelerate, translate and friction (see the header); `mode` picks the "pbf" forms. */
export function moveLiquid(ctx: StepContext, dt: number, mode = STEELE_MOVE): void {
  const L = ctx.liquid, O = ctx.objects, st = (ctx.move ??= new MoveState(O.bodies.length, ctx.shared));
  const job = ctx.runner.bind(moveJob), a = job.a, s = job.s, [gx, gy, gz] = ctx.scene.gravity;
  a.pos = L.pos; a.vel = L.vel; a.acc = L.acc; a.stops = st.stops;
  s.dt = dt; s.gx = gx; s.gy = gy; s.gz = gz; s.max2 = ctx.scene.particle.maxSpeed ** 2;
  s.mode = mode;
  s.friction = O.count > 0 && mode !== ACCELERATE_ONCE ? 1 : 0;
  if (s.friction === 1) {
    const list = objectListsOf(ctx);
    a.surface = L.surface; a.ls = list.start; a.lj = list.j; a.clear = list.clear;
    a.opos = list.pos; a.ovel = O.vel; a.obody = O.body; a.index = list.index; a.keep = frictionKeep(ctx, dt, st.keep);
    s.touch = frictionTouch(ctx);
  }
  runJob(job, L.count);
  for (let t = 0; t < (job.teamed ? job.size : 1); t++) if (st.stops[t] >= 0) throw accelerateError(ctx, st.stops[t]);
}

export const moveJob = defineJob({
  name: 'move',
  arrays: { pos: 'f64', vel: 'f64', acc: 'f64', stops: 'i32' },
  inputs: {
    surface: 'u8', ls: 'i32', lj: 'index', clear: 'f32', opos: 'f64', ovel: 'f64', obody: 'i32', index: 'i32', keep: 'f64',
  },
  scalars: ['dt', 'gx', 'gy', 'gz', 'max2', 'friction', 'touch', 'mode'],
  split: 'items',
  minItems: () => teamWork.minParticles,
  kernel(x) {
    const a = x.a, s = x.s, dt = s.dt;
    if (s.mode === BALLISTIC_MOVE) {
      a.stops[x.rank] = -1;
      translateOffsetRange(a.pos, a.vel, a.acc, dt, x.from, x.to);
    } else if (s.mode === ACCELERATE_ONCE) {
      a.stops[x.rank] = accelerateOffsetRange(a.vel, a.acc, s.gx, s.gy, s.gz, dt, s.max2, x.from, x.to);
      return;
    } else {
      const stop = accelerateRange(a.vel, a.acc, s.gx, s.gy, s.gz, dt, s.max2, x.from, x.to);
      a.stops[x.rank] = stop;
      if (stop >= 0) return;
      translateRange(a.pos, a.vel, dt, x.from, x.to);
    }
    if (s.friction !== 1) return;
    frictionRange(a.pos, a.vel, a.surface, a.ls, a.lj, a.clear, a.opos, a.ovel, a.obody, a.index, a.keep, s.touch, x.from, x.to);
  },
});
