/**
 * The grid engine's thread team: SimulationOptions.workers > 1 (`viscid run --workers`, `viscid
 * bench --workers`; the scene's particle.workers is the particle engine's alone) with a platform
 * spawner and shared memory gives a team running the grid's jobs (jobs.ts); otherwise a runner
 * that runs every job inline, on the calling thread. The store (store.ts) carries the runner: its arrays are on
 * shared memory where there is a team, and the stages that split their passes (advect-job.ts,
 * transport-job.ts) run them through it.
 */
import type { SimulationOptions } from '../api.ts';
import { JobRunner } from '../parallel/run-job.ts';
import { sharedMemoryAvailable, ThreadTeam } from '../parallel/team.ts';
import { GRID_JOBS } from './jobs.ts';

export function gridRunner(options: SimulationOptions): JobRunner {
  const workers = options.workers ?? 1;
  if (workers <= 1 || !options.spawnThread || !sharedMemoryAvailable().ok) return new JobRunner();
  return new JobRunner(new ThreadTeam(workers, options.spawnThread, GRID_JOBS), GRID_JOBS);
}
