/**
 * The mesh worker, nested in the simulation worker (sim.worker.ts): meshes a frame's surface job
 * (Simulation.surfaceJob) while the engine steps the next frame, and answers with the full mesh
 * (for recording and export) and the one to draw, both transferred.
 */
// From the surface module itself, not the whole library: this worker starts with less to load.
import { meshSurfaceJob, type SurfaceJob } from '../surface/job.ts';
import { displayMesh } from './display-mesh.ts';

const scope = self as unknown as Worker;
scope.onmessage = (ev: MessageEvent<{ id: number; job: SurfaceJob; display: boolean }>) => {
  const { id, job, display } = ev.data;
  try {
    const t0 = performance.now();
    const full = meshSurfaceJob(job);
    const meshMs = performance.now() - t0;
    const shown = display ? displayMesh(full) : null;
    const buffers = new Set<ArrayBuffer>();
    for (const a of [full.positions, full.normals, full.indices, full.colors, shown?.positions, shown?.normals, shown?.indices, shown?.colors]) {
      if (a && a.buffer instanceof ArrayBuffer) buffers.add(a.buffer);
    }
    scope.postMessage({ id, ok: true, full, shown, meshMs }, [...buffers]);
  } catch (e) {
    scope.postMessage({ id, ok: false, message: (e as Error)?.message ?? String(e) });
  }
};
