/**
 * The level set's transport (levelset-transport.ts) on the grid's thread team: WENO5's stencils,
 * then each Runge-Kutta substep's four passes over the active cells (levelset-euler.ts), as one
 * phased job (phases.ts), each thread taking an even share of the list in every pass. Every cell's
 * φ comes from the same code and values as on one thread, so the result is bit for bit one thread's.
 */
import type { JobArgs } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { eulerOver, rkFirst, rkLast, rkSecond, stencilsOver, type TransportCells } from './levelset-euler.ts';
import { definePhasedJob, gridWork, type Phase } from './phases.ts';
import type { GridStore } from './store.ts';

const ARRAYS = { phi: 'f64', stage: 'f64', start: 'f64', stencil: 'i32' } as const;
const INPUTS = { nb: 'i32', type: 'u8', vel: 'f64', active: 'i32' } as const;
type X = JobArgs<typeof ARRAYS, typeof INPUTS, 'na' | 'substeps' | 'tau' | 'h', Record<never, never>, TransportCells>;

const active = (x: X) => x.s.na;
const pass = (run: (x: X, t: TransportCells, from: number, to: number) => void): Phase<X> => ({ items: active, run: (x, from, to) => run(x, x.scratch, from, to) });

export const transportJob = definePhasedJob({
  name: 'grid-levelset-transport',
  arrays: ARRAYS,
  inputs: INPUTS,
  scalars: ['na', 'substeps', 'tau', 'h'],
  minItems: () => gridWork.minCells,
  scratch: (): TransportCells => ({ nb: new Int32Array(0), type: new Uint8Array(0), vel: new Float64Array(0), active: new Int32Array(0), stencil: new Int32Array(0) }),
  prepare(x) {
    const t = x.scratch, a = x.a;
    t.nb = a.nb; t.type = a.type; t.vel = a.vel; t.active = a.active; t.stencil = a.stencil;
  },
  first: [pass((_x, t, from, to) => stencilsOver(t, from, to))],
  rounds: (x) => x.s.substeps,
  phases: [
    pass((x, t, from, to) => rkFirst(t, x.a.phi, x.a.stage, x.a.start, x.s.tau, x.s.h, from, to)),
    pass((x, t, from, to) => rkSecond(t, x.a.phi, x.a.stage, x.a.start, x.s.tau, x.s.h, from, to)),
    pass((x, t, from, to) => eulerOver(t, x.a.phi, x.a.stage, x.s.tau, x.s.h, from, to)),
    pass((x, t, from, to) => rkLast(t, x.a.phi, x.a.stage, x.a.start, from, to)),
  ],
});

/** `substeps` RK3 substeps of τ over the `na` active cells of `t` on the store's runner. */
export function transportOnTeam(s: GridStore, t: TransportCells, na: number, substeps: number, tau: number, h: number, stage: Float64Array, start: Float64Array): void {
  const job = s.runner!.bind(transportJob), a = job.a;
  a.phi = s.phi; a.stage = stage; a.start = start; a.stencil = t.stencil;
  a.nb = t.nb; a.type = t.type; a.vel = t.vel; a.active = t.active;
  job.s.na = na; job.s.substeps = substeps; job.s.tau = tau; job.s.h = h;
  runJob(job, na);
}
