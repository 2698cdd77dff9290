/**
 * The particle engine's job table (src/parallel/job.ts): every job a stage runs on the thread
 * team, listed once. The calling thread (simulation.ts) and every spawned thread
 * (src/cli/thread-entry.ts, src/app/thread.worker.ts) build it from this module, so all hold the
 * same job ids and slot numbers. A new stage's job goes here.
 */
import { JobTable } from '../parallel/job.ts';
import { viscosityJob } from './viscosity.ts';
import { weilerJob } from './viscosity-weiler-solve.ts';
import { viscosityRowsCountJob } from './viscosity-weiler-team-rows.ts';
import { densityListJob, densityMeasureJob, densityPushJob } from './density-pairs.ts';
import { adhesionJob } from './adhesion.ts';
import { objectAdhesionJob } from './object-adhesion.ts';
import { objectListsJob } from './object-lists.ts';
import { objectContactsJob } from './object-contacts.ts';
import { moveJob } from './move.ts';
import { contactSlabsJob, contactsJob } from './liquid-contacts.ts';
import { gelForceJob, gelPlasticJob } from './gel.ts';
import { gelSolveJob, gelSpringsJob } from './gel-implicit.ts';
import { solveJob } from './pressure-job.ts';
import { solveListJob } from './solve-list.ts';
import { solveRowsCountJob, solveRowsFillJob } from './solve-pair-rows.ts';
import { solveBoundaryJob } from './solve-boundary-rows.ts';
import { viscosityBoundaryJob } from './viscosity-weiler-boundary.ts';
import { heatFluxJob, heatPairsJob } from './temperature.ts';
import { liquidSortJob } from './liquid-sort.ts';
import { surfaceSidesJob } from './surface.ts';
import { thinApplyJob, thinGradJob, thinListJob, thinPassJob, thinShapeJob } from './thin-pull-jobs.ts';

export const PARTICLE_JOBS = new JobTable([
  adhesionJob, objectAdhesionJob, viscosityJob, densityListJob, densityMeasureJob, densityPushJob,
  objectListsJob, objectContactsJob, moveJob, contactSlabsJob, contactsJob, solveJob, solveListJob, gelPlasticJob, gelForceJob, gelSpringsJob, gelSolveJob, weilerJob,
  heatPairsJob, heatFluxJob, viscosityRowsCountJob, solveRowsCountJob, solveRowsFillJob,
  solveBoundaryJob, viscosityBoundaryJob, liquidSortJob, surfaceSidesJob, thinListJob, thinShapeJob, thinPassJob, thinApplyJob, thinGradJob,
]);
