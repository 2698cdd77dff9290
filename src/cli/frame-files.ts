/**
 * Encoding and writing one frame's files for `viscid run`: the job the frame writer's thread does
 * (frame-writer.ts), and the same function the calling thread runs where there is no such thread.
 */
import type { FluidPoints, Mesh } from '../types/geometry.ts';
import { meshSurfaceJob, type SurfaceJob } from '../surface/job.ts';
import { encodeMesh, encodePoints, type SceneLabels } from './export.ts';
import { writeFileAtomic } from './files.ts';
import { join } from 'node:path';
import type { MeshFormat, PointsFormat } from './manifest.ts';

/** One frame's files: each part is written to `dir`/`file`, atomically. */
export interface FrameFiles {
  dir: string;
  labels: SceneLabels;
  /** The surface: a mesh, or the engine's SurfaceJob to mesh here (Simulation.surfaceJob). */
  mesh?: { format: Exclude<MeshFormat, 'none'>; file: string; mesh?: Mesh; job?: SurfaceJob };
  solids?: { format: Exclude<MeshFormat, 'none'>; file: string; mesh: Mesh };
  points?: { format: Exclude<PointsFormat, 'none'>; file: string; points: FluidPoints };
}

/**
 * Meshes (where given a SurfaceJob), encodes and writes a frame's files; returns their names, in
 * the order mesh, solids, points, and the time meshing took, ms.
 */
export async function writeFrameFiles(job: FrameFiles): Promise<{ files: string[]; surfaceMs: number }> {
  const files: string[] = [];
  let surfaceMs = 0;
  if (job.mesh) {
    let mesh = job.mesh.mesh;
    if (!mesh) {
      if (!job.mesh.job) throw new Error(`no surface for ${job.mesh.file}`);
      const t0 = performance.now();
      mesh = meshSurfaceJob(job.mesh.job);
      surfaceMs = performance.now() - t0;
    }
    writeFileAtomic(join(job.dir, job.mesh.file), await encodeMesh(job.mesh.format, mesh, job.labels));
    files.push(job.mesh.file);
  }
  if (job.solids) {
    writeFileAtomic(join(job.dir, job.solids.file), await encodeMesh(job.solids.format, job.solids.mesh, job.labels));
    files.push(job.solids.file);
  }
  if (job.points) {
    writeFileAtomic(join(job.dir, job.points.file), encodePoints(job.points.format, job.points.points, job.labels));
    files.push(job.points.file);
  }
  return { files, surfaceMs };
}
