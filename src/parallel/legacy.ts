/** Helpers of the stages not yet run as jobs (run-job.ts); goes once they are. */
export { allocFloat32, allocFloat64, allocInt32, allocUint16, allocUint8, addShares, cutCellRuns, shareOf, type SlotArray } from './memory.ts';
export type { TeamSync, ThreadTeam } from './team.ts';
import { allocFloat64, allocInt32 } from './memory.ts';

export function accumulator<A extends Float64Array | Int32Array>(own: A, others: A, length: number, rank: number): A {
  return rank === 0 ? own : (others.subarray(length * (rank - 1), length * rank) as A);
}

export function mirrorShared<A extends Int32Array | Float64Array>(to: A, from: A, n: number): A {
  if (to.length < n) to = (to instanceof Int32Array ? allocInt32(Math.ceil(n * 1.25) + 16, true) : allocFloat64(Math.ceil(n * 1.25) + 16, true)) as A;
  to.set(from.subarray(0, n) as never);
  return to;
}
