/**
 * The particle engine's job table (src/parallel/job.ts): every job a stage runs on the thread
 * team, listed once. The calling thread (simulation.ts) and every spawned thread
 * (src/cli/thread-entry.ts, src/app/thread.worker.ts) build it from this module, so all hold the
 * same job ids and slot numbers. A new stage's job goes here.
 */
import { JobTable } from '../parallel/job.ts';
import { viscosityJob } from './viscosity.ts';

export const PARTICLE_JOBS = new JobTable([viscosityJob], { slots: 140, params: 100 });
