/**
 * The stages not yet run as jobs (src/parallel/run-job.ts): kernels that read numbered slots,
 * dispatched by the team's threads from SLOT_KERNELS on (src/parallel/worker.ts).
 */
import type { SlotArray, ThreadTeam, TeamSync } from '../parallel/legacy.ts';
import type { StepContext } from './context.ts';
import { SLOT_KERNELS } from '../parallel/worker.ts';
import { adhesionKernelA, adhesionKernelB } from './adhesion-parallel.ts';
import { densityListKernelA, densityListKernelB, densityMeasureKernel, densityPushKernel } from './density-parallel.ts';
import { frictionKernel, moveKernel, objectContactsKernel } from './object-contacts-parallel.ts';
import { objectListsKernelA, objectListsKernelB } from './object-lists-parallel.ts';
import { contactsKernel, contactsSplitKernel } from './contacts-parallel.ts';
export { teamWork } from './work.ts';

export type Kernel = (rank: number, team: TeamSync, slots: readonly SlotArray[], params: Float64Array) => void;

export const ADHESION_KERNEL_A = 8, ADHESION_KERNEL_B = 9;
export const DENSITY_MEASURE_KERNEL = 16, DENSITY_PUSH_KERNEL = 17, DENSITY_LIST_KERNEL_A = 19, DENSITY_LIST_KERNEL_B = 20;
export const OBJECT_CONTACTS_KERNEL = 18;
export const OBJECT_LISTS_KERNEL_A = 21, OBJECT_LISTS_KERNEL_B = 22;
export const FRICTION_KERNEL = 23;
export const CONTACTS_SPLIT_KERNEL = 24, CONTACTS_KERNEL = 25;
export const MOVE_KERNEL = 26;

/** Indexed by kernel id. */
export const PARTICLE_KERNELS: readonly Kernel[] = (() => {
  const k: Kernel[] = [];
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

export function runSlotKernel(team: ThreadTeam, id: number): void {
  team.run(SLOT_KERNELS + id, () => PARTICLE_KERNELS[id](0, team, team.slotList, team.params));
}

/** The context's team, or null when it runs on one thread. */
export function teamOf(ctx: StepContext): ThreadTeam | null {
  return ctx.runner.team;
}
