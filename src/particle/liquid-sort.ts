/**
 * The liquid's sort by cell (neighbours.ts CellPairs.buildSorted, every sub-timestep) on a thread
 * team: LiquidParticles.sortByCell's gathers (new index i takes old index order[i]) split by new
 * index. Each field is gathered into the liquid's scratch (`acc`) over the thread's own range, then
 * copied back over that range once every thread has gathered (a barrier: the gather reads any old
 * index), and the next field waits for every copy (a barrier: the scratch's ranges differ by
 * field). The four narrow fields and the ids share one gather through views of the scratch, as on
 * one thread. A permutation moves values, so the liquid is the one-thread sort's, bit for bit, at
 * any cut. The channels (channels.ts) are permuted after the run on the calling thread.
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
    x.barrier();
    gather3(vel, order, tmp, from, to);
    x.barrier();
    vel.set(tmp.subarray(3 * from, 3 * to), 3 * from);
    x.barrier();
    for (let i = from; i < to; i++) tmp[i] = lambda[order[i]];
    x.barrier();
    lambda.set(tmp.subarray(from, to), from);
    x.barrier();
    // 24 n bytes of scratch: normal (12 n), density (4 n), material (2 n), surface (n), id (4 n, at 20 n).
    const buf = tmp.buffer, at = tmp.byteOffset;
    const nrm = new Float32Array(buf, at, 3 * n), den = new Float32Array(buf, at + 12 * n, n);
    const mat = new Uint16Array(buf, at + 16 * n, n), srf = new Uint8Array(buf, at + 18 * n, n), ids = new Int32Array(buf, at + 20 * n, n);
    for (let i = from; i < to; i++) {
      const o = order[i];
      nrm[3 * i] = normal[3 * o]; nrm[3 * i + 1] = normal[3 * o + 1]; nrm[3 * i + 2] = normal[3 * o + 2];
      den[i] = density[o];
      mat[i] = material[o];
      srf[i] = surface[o];
      ids[i] = id[o];
    }
    x.barrier();
    normal.set(nrm.subarray(3 * from, 3 * to), 3 * from);
    density.set(den.subarray(from, to), from);
    material.set(mat.subarray(from, to), from);
    surface.set(srf.subarray(from, to), from);
    id.set(ids.subarray(from, to), from);
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
