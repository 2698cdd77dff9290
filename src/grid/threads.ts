/**
 * The grid engine's thread team: `workers` > 1 (SimulationOptions.workers, which `viscid run
 * --workers` and the app's thread setting give; else the scene's particle.workers) with a
 * platform spawner and shared memory gives a team running the grid's jobs (jobs.ts); otherwise a
 * runner that runs every job inline. The store (store.ts) carries the runner: its arrays are on
 * shared memory where there is a team, and the stages that split their passes (advect-job.ts,
 * transport-job.ts) run them through it.
 */
import type { SimulationOptions } from '../api.ts';
import { JobRunner } from '../parallel/run-job.ts';
import { sharedMemoryAvailable, ThreadTeam } from '../parallel/team.ts';
import type { Scene } from '../scene/scene.ts';
import { GRID_JOBS } from './jobs.ts';

export function gridRunner(scene: Scene, options: SimulationOptions): JobRunner {
  const workers = options.workers ?? scene.particle.workers;
  if (workers <= 1 || !options.spawnThread || !sharedMemoryAvailable().ok) return new JobRunner();
  return new JobRunner(new ThreadTeam(workers, options.spawnThread, GRID_JOBS), GRID_JOBS);
}
