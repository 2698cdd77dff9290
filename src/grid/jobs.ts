/**
 * The grid engine's job table (src/parallel/job.ts): every job a grid stage runs on the thread
 * team, listed once. The calling thread (threads.ts) and every spawned thread
 * (src/cli/thread-entry.ts, src/app/thread.worker.ts, which serve this table and the particle
 * engine's, picked by fingerprint) build it from this module. A new grid job goes here.
 */
import { JobTable } from '../parallel/job.ts';
import { maccormackJob } from './advect-job.ts';
import { markerFillJob, markerMaskJob } from './marker-job.ts';
import { extrapolateJob } from './extrapolate.ts';
import { growJob, listJob } from './grow-job.ts';
import { pcgJob } from './pcg-job.ts';
import { assembleJob, flagJob, updateJob } from './pressure-job.ts';
import { solidJob } from './boundary.ts';
import { facesJob, rebuildJob } from './rebuild-job.ts';
import { redistanceJob, solidPhiJob } from './redistance.ts';
import { rowsJob } from './multigrid-rows.ts';
import { transportJob } from './transport-job.ts';

export const GRID_JOBS = new JobTable([maccormackJob, transportJob, pcgJob, extrapolateJob, redistanceJob, assembleJob, updateJob, rebuildJob, growJob, listJob, flagJob, solidJob, rowsJob, solidPhiJob, facesJob, markerMaskJob, markerFillJob]);
