/**
 * Step 3a's MacCormack advection (advect.ts) on the grid's thread team: the scheme's passes over
 * the cells (maccormackBegin … maccormackApply) as one phased job (phases.ts), each thread taking
 * an even share of the cells of every pass. Every face is computed by the same code from the same
 * values as on one thread, so the result is bit for bit one thread's.
 */
import type { JobArgs } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { AdvectionScratch, maccormackApply, maccormackBegin, maccormackCorrect, maccormackForward } from './advect.ts';
import type { GridDomain } from './domain.ts';
import { bindStore, STORE_INPUTS, STORE_SCALARS, StoreView } from './job-store.ts';
import { definePhasedJob, gridWork, type Phase } from './phases.ts';
import type { GridStore } from './store.ts';

/** A thread's view of the store and of the scheme's scratch. */
class AdvectView extends StoreView {
  readonly w = new AdvectionScratch();
  s!: GridStore;
}

const WRITTEN = {
  tmp0: 'f64', tmp1: 'f64', tmp2: 'f64', fwd0: 'f64', fwd1: 'f64', fwd2: 'f64', lo0: 'f64', lo1: 'f64', lo2: 'f64',
  hi0: 'f64', hi1: 'f64', hi2: 'f64', end0: 'f64', end1: 'f64', end2: 'f64', centre: 'f64', surface: 'u8',
} as const;

type X = JobArgs<typeof WRITTEN, typeof STORE_INPUTS, (typeof STORE_SCALARS)[number] | 'dt', Record<never, never>, AdvectView>;

const cells = (x: X) => x.s.count;
/** Pass k of the scheme after the first: the correction of component k − 1, then the forward step of k. */
const pass = (k: number): Phase<X> => ({
  items: cells,
  run(x, from, to) {
    const v = x.scratch, d = v.domain;
    if (k > 0) maccormackCorrect(v.s, d, v.w, k - 1, x.s.dt, from, to);
    if (k < 3) maccormackForward(v.s, d, v.w, k, x.s.dt, from, to);
  },
});

export const maccormackJob = definePhasedJob({
  name: 'grid-maccormack',
  arrays: WRITTEN,
  inputs: STORE_INPUTS,
  scalars: [...STORE_SCALARS, 'dt'],
  minItems: () => gridWork.minCells,
  scratch: () => new AdvectView(),
  prepare(x) {
    const v = x.scratch, a = x.a, w = v.w;
    v.s = v.of(x, [a.tmp0, a.tmp1, a.tmp2]);
    w.forward = [a.fwd0, a.fwd1, a.fwd2];
    w.lo = [a.lo0, a.lo1, a.lo2];
    w.hi = [a.hi0, a.hi1, a.hi2];
    w.end = [a.end0, a.end1, a.end2];
    w.centre = a.centre;
    w.surface = a.surface;
  },
  phases: [
    { items: cells, run: (x, from, to) => maccormackBegin(x.scratch.s, x.scratch.w, from, to) },
    pass(0), pass(1), pass(2), pass(3),
    { items: cells, run: (x, from, to) => maccormackApply(x.scratch.s, from, to) },
  ],
});

/** MacCormack advection of the face velocities over Δt on the store's runner (its team, or inline). */
export function maccormackOnTeam(s: GridStore, d: GridDomain, dt: number, w: AdvectionScratch): void {
  const runner = s.runner!, job = runner.bind(maccormackJob);
  w.ensure(s.count, s.shared);
  bindStore(job, s, d);
  const a = job.a;
  a.tmp0 = s.tmp[0]; a.tmp1 = s.tmp[1]; a.tmp2 = s.tmp[2];
  a.fwd0 = w.forward[0]; a.fwd1 = w.forward[1]; a.fwd2 = w.forward[2];
  a.lo0 = w.lo[0]; a.lo1 = w.lo[1]; a.lo2 = w.lo[2];
  a.hi0 = w.hi[0]; a.hi1 = w.hi[1]; a.hi2 = w.hi[2];
  a.end0 = w.end[0]; a.end1 = w.end[1]; a.end2 = w.end[2];
  a.centre = w.centre; a.surface = w.surface;
  job.s.dt = dt;
  runJob(job, s.count);
}
