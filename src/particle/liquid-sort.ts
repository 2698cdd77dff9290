/**
 * The liquid's sort by cell (neighbours.ts CellPairs.buildSorted, every sub-timestep) on a thread
 * team: LiquidParticles.sortByCell's gathers (new index i takes old index order[i]) split by new
 * index. Each field is gathered into the liquid's scratch (`acc`) over the thread's own range, then
 * copied back over that range once every thread has gathered (a barrier: the gather reads any old
 * index). Every field keeps to the same 24 bytes of scratch per new index (pos and vel as their three
 * f64, λ at the first of them, and the four narrow fields with the ids as one record: normal, density,
 * id, material, surface), so a thread's scratch never overlaps another's: the next field's gather
 * follows the thread's own copy without waiting for the others' (4 barriers a sort, where a scratch laid
 * out field by field took 7). A permutation moves values, so the liquid is the one-thread sort's, bit
 * for bit, at any cut. The channels (channels.ts) are permuted after the run on the calling thread.
 */
import type { StepContext } from './context.ts';
import { defineJob } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { teamWork } from './work.ts';

/** tmp[3 i …] = a[3 order[i] …] over new indices [from, to). */
function gather3(a: Float64Array, order: Int32Array, tmp: Float64Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const o = 3 * order[i];
    tmp[3 * i] = a[o]; tmp[3 * i + 1] = a[o + 1]; tmp[3 * i + 2] = a[o + 2];
  }
}

/** The persistent fields by `order`, over new indices [from, to) (see the header). */
export const liquidSortJob = defineJob({
  name: 'liquid-sort',
  arrays: { pos: 'f64', vel: 'f64', lambda: 'f64', id: 'i32', normal: 'f32', density: 'f32', material: 'u16', surface: 'u8', tmp: 'f64' },
  inputs: { order: 'i32' },
  split: 'items',
  // Each new index writes its own entries, whatever the cut: two threads' cut follows their times.
  balance: true,
  minItems: () => teamWork.minParticles,
  kernel(x) {
    const { pos, vel, lambda, id, normal, density, material, surface, tmp, order } = x.a;
    const from = x.from, to = x.to, n = x.n;
    gather3(pos, order, tmp, from, to);
    x.barrier();
    pos.set(tmp.subarray(3 * from, 3 * to), 3 * from);
    gather3(vel, order, tmp, from, to);
    x.barrier();
    vel.set(tmp.subarray(3 * from, 3 * to), 3 * from);
    for (let i = from; i < to; i++) tmp[3 * i] = lambda[order[i]];
    x.barrier();
    for (let i = from; i < to; i++) lambda[i] = tmp[3 * i];
    // One 24-byte record a new index: normal (f32 0–2), density (f32 3), id (i32 4), material (u16 10), surface (u8 22).
    const buf = tmp.buffer, at = tmp.byteOffset;
    const f = new Float32Array(buf, at, 6 * n), ids = new Int32Array(buf, at, 6 * n);
    const mat = new Uint16Array(buf, at, 12 * n), srf = new Uint8Array(buf, at, 24 * n);
    for (let i = from; i < to; i++) {
      const o = order[i];
      f[6 * i] = normal[3 * o]; f[6 * i + 1] = normal[3 * o + 1]; f[6 * i + 2] = normal[3 * o + 2];
      f[6 * i + 3] = density[o];
      ids[6 * i + 4] = id[o];
      mat[12 * i + 10] = material[o];
      srf[24 * i + 22] = surface[o];
    }
    x.barrier();
    for (let i = from; i < to; i++) {
      normal[3 * i] = f[6 * i]; normal[3 * i + 1] = f[6 * i + 1]; normal[3 * i + 2] = f[6 * i + 2];
      density[i] = f[6 * i + 3];
      id[i] = ids[6 * i + 4];
      material[i] = mat[12 * i + 10];
      surface[i] = srf[24 * i + 22];
    }
  },
});

/**
 * Sorts the liquid by `order` (new index → old index): on a team by liquidSortJob, then the
 * channels on the calling thread; else LiquidParticles.sortByCell.
 */
export function sortLiquid(ctx: StepContext, order: Int32Array): void {
  const L = ctx.liquid, n = L.count, job = ctx.runner.bind(liquidSortJob);
  if (job.threads(n) <= 1) {
    L.sortByCell(order);
    return;
  }
  const a = job.a;
  a.pos = L.pos; a.vel = L.vel; a.lambda = L.lambda; a.id = L.id; a.normal = L.normal; a.density = L.density;
  a.material = L.material; a.surface = L.surface; a.tmp = L.acc; a.order = order;
  runJob(job, n);
  const tmp = L.acc;
  for (const ch of L.channels) ch.permute(order, n, tmp.buffer, tmp.byteOffset, 24 * L.capacity);
}
