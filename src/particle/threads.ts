/**
 * The thread team (src/parallel/team.ts) a StepContext's stages may use, and the kernel table
 * every thread of the team runs (the spawned threads import this file: src/cli/thread-entry.ts,
 * src/app/thread.worker.ts). Kept beside the context rather than in it so that stages that do not
 * use threads need not know about them.
 */
import type { Kernel, ThreadTeam } from '../parallel/team.ts';
import type { StepContext } from './context.ts';
import { VISCOSITY_KERNEL, viscosityKernel } from './viscosity-parallel.ts';
import { adhesionKernelA, adhesionKernelB } from './adhesion-parallel.ts';
import { densityListKernelA, densityListKernelB, densityMeasureKernel, densityPushKernel } from './density-parallel.ts';
import { frictionKernel, moveKernel, objectContactsKernel } from './object-contacts-parallel.ts';
import { objectListsKernelA, objectListsKernelB } from './object-lists-parallel.ts';
import { contactsKernel, contactsSplitKernel } from './contacts-parallel.ts';

/**
 * Kernel ids of the adhesion stage's two jobs (adhesion-parallel.ts). Declared here, not there:
 * the kernel modules and this table import each other, and only function declarations are ready
 * before a module in such a cycle has run.
 */
export const ADHESION_KERNEL_A = 8, ADHESION_KERNEL_B = 9;
/** Kernel ids of density correction's pair loops and listing (density-parallel.ts). */
export const DENSITY_MEASURE_KERNEL = 16, DENSITY_PUSH_KERNEL = 17, DENSITY_LIST_KERNEL_A = 19, DENSITY_LIST_KERNEL_B = 20;
/** Kernel id of the liquid ← object contacts (object-contacts-parallel.ts). */
export const OBJECT_CONTACTS_KERNEL = 18;
/** Kernel ids of the object contact lists' two jobs (object-lists-parallel.ts). */
export const OBJECT_LISTS_KERNEL_A = 21, OBJECT_LISTS_KERNEL_B = 22;
/** Kernel id of friction (object-contacts-parallel.ts). */
export const FRICTION_KERNEL = 23;
/** Kernel ids of the liquid contacts' slab split and a move's contacts (contacts-parallel.ts). */
export const CONTACTS_SPLIT_KERNEL = 24, CONTACTS_KERNEL = 25;
/** Kernel id of a move's accelerate, translate and friction (object-contacts-parallel.ts). */
export const MOVE_KERNEL = 26;

/** Indexed by kernel id. */
export const PARTICLE_KERNELS: readonly Kernel[] = (() => {
  const k: Kernel[] = [];
  k[VISCOSITY_KERNEL] = viscosityKernel;
  k[ADHESION_KERNEL_A] = adhesionKernelA;
  k[ADHESION_KERNEL_B] = adhesionKernelB;
  k[DENSITY_MEASURE_KERNEL] = densityMeasureKernel;
  k[DENSITY_PUSH_KERNEL] = densityPushKernel;
  k[DENSITY_LIST_KERNEL_A] = densityListKernelA;
  k[DENSITY_LIST_KERNEL_B] = densityListKernelB;
  k[OBJECT_CONTACTS_KERNEL] = objectContactsKernel;
  k[OBJECT_LISTS_KERNEL_A] = objectListsKernelA;
  k[OBJECT_LISTS_KERNEL_B] = objectListsKernelB;
  k[FRICTION_KERNEL] = frictionKernel;
  k[CONTACTS_SPLIT_KERNEL] = contactsSplitKernel;
  k[CONTACTS_KERNEL] = contactsKernel;
  k[MOVE_KERNEL] = moveKernel;
  return k;
})();

/**
 * Fewest liquid particles for which the adhesion, density and object-contact stages split their
 * work over the team. Their jobs are short (object contacts: ~0.5 ms, run every move and density
 * pass) and a hand-off costs tens of µs, so small scenes lose. Measured on 2 cores, mean ms/frame
 * at this threshold against 8 192: paint drops (3 900–5 600 particles, frames 23–30) 60 → 51
 * (1 024: 51), jelly block (3 375, frames 6–15) 44.7 → 38.8, honey coil (1 841, 1 024 against
 * 8 192) 14.2 → 13.0, honey on a spinner (~1 400) 8.7 → 9.3–11.6: hence 2 048. (It was 8 192
 * while density correction's push never ran on the team and the threaded object contacts tested
 * every list entry; paint drops then went 126 → 158 at 2 048.) The viscosity stage has its own
 * (viscosity-parallel.ts MIN_PARTICLES). Tests lower it to run the threaded paths on small scenes.
 */
export const teamWork = { minParticles: 2048 };

const teams = new WeakMap<StepContext, ThreadTeam>();

export function attachTeam(ctx: StepContext, team: ThreadTeam): void {
  teams.set(ctx, team);
}

/** The context's team, or null when it runs on one thread. */
export function teamOf(ctx: StepContext): ThreadTeam | null {
  return teams.get(ctx) ?? null;
}
