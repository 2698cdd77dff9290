/**
 * Grid jobs as phases: a grid stage's parallel work is a few passes over its cells, each writing
 * only its own cells and reading what the passes before it wrote anywhere. A phased job runs them
 * as one job on the thread team (split 'ranks'): each thread takes an even share of each pass's
 * items, with a barrier between passes, so a stage wakes the team once rather than once a pass.
 * Each cell is computed by the same code from the same values on any number of threads, so the
 * results are bit for bit those of one thread. bench/grid-team-balance.ts times each pass's two
 * halves on one thread (phasesOf) for the two-thread ceiling.
 */
import { defineJob, type JobArgs, type JobDescription, type JobSpec, type Kinds } from '../parallel/job.ts';

/**
 * One pass: its item count (from the job's arguments) and its work over items [from, to); `round`
 * counts the rounds of `phases` from 0 (0 in `first` and `last`).
 */
export interface Phase<X> {
  items(x: X): number;
  run(x: X, from: number, to: number, round: number): void;
}

type Description<A extends Kinds, I extends Kinds, S extends string, X> = Omit<JobDescription<A, I, S, Record<never, never>, X>, 'split' | 'kernel' | 'lists' | 'sums' | 'cellCounts'> & {
  /** Called once per thread and run, before the passes (a store view's refresh). */
  prepare?: (x: JobArgs<A, I, S, Record<never, never>, X>) => void;
  /** Passes run once after `prepare`. */
  first?: readonly Phase<JobArgs<A, I, S, Record<never, never>, X>>[];
  /** Passes run `rounds` times after those (a substep loop); once without it. */
  phases: readonly Phase<JobArgs<A, I, S, Record<never, never>, X>>[];
  rounds?: (x: JobArgs<A, I, S, Record<never, never>, X>) => number;
  /** Passes run once after the rounds. */
  last?: readonly Phase<JobArgs<A, I, S, Record<never, never>, X>>[];
};

/** A phased job's parts, for bench/grid-team-balance.ts. */
export interface PhasedParts {
  prepare?: (x: never) => void;
  first: readonly Phase<never>[];
  phases: readonly Phase<never>[];
  rounds: (x: never) => number;
  last: readonly Phase<never>[];
}

const phaseTable = new Map<string, PhasedParts>();
const once = () => 1;

/** A job of passes over cells (see the header). */
export function definePhasedJob<const A extends Kinds, const I extends Kinds, const S extends string, X>(
  d: Description<A, I, S, X>,
): JobSpec<A, I, S, Record<never, never>, X> {
  const { phases, prepare, first = [], rounds = once, last = [] } = d;
  const { phases: _p, prepare: _q, first: _f, rounds: _r, last: _l, ...spec } = d;
  const job = defineJob<A, I, S, Record<never, never>, X>({
    ...spec,
    split: 'ranks',
    kernel(x) {
      prepare?.(x);
      const r = x.rank, T = x.size;
      let passes = 0;
      const pass = (p: Phase<typeof x>, round: number) => {
        if (passes++ > 0) x.barrier();
        const n = p.items(x);
        p.run(x, Math.floor((n * r) / T), Math.floor((n * (r + 1)) / T), round);
      };
      for (let p = 0; p < first.length; p++) pass(first[p], 0);
      for (let k = 0, K = rounds(x); k < K; k++) for (let p = 0; p < phases.length; p++) pass(phases[p], k);
      for (let p = 0; p < last.length; p++) pass(last[p], 0);
    },
  });
  phaseTable.set(job.name, { prepare: prepare as PhasedParts['prepare'], first: first as readonly Phase<never>[], phases: phases as readonly Phase<never>[], rounds: rounds as (x: never) => number, last: last as readonly Phase<never>[] });
  return job;
}

/** A phased job's passes (bench/grid-team-balance.ts runs their halves one after the other). */
export function phasesOf(name: string): PhasedParts | undefined {
  return phaseTable.get(name);
}

/**
 * Fewest cells for which a grid pass goes to the team: below it the team's wake-up and barriers
 * (~10–50 µs each) cost more than the pass's share of the work saves.
 */
export const gridWork = {
  minCells: 4096,
  /**
   * Take a team's path on one thread where a stage keeps a cheaper serial loop for one thread
   * (boundary.ts): for bench/grid-team-balance.ts, which measures the team's passes on one thread.
   */
  teamPathOnOneThread: false,
};
