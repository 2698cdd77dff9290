/**
 * Surfaces as jobs: what an engine's surfaceMesh() meshes, taken out of the engine as plain data
 * (structured-clonable, no closures) so that a worker can mesh it while the engine steps on.
 */
import type { Mesh } from '../types/geometry.ts';
import { levelSetSurface, type LevelSetInput } from './level-set.ts';
import { particleSurface, type OutputLike, type ParticleSurfaceInput } from './particle-surface.ts';
import { tintMesh, type TintSource } from './tint.ts';

/**
 * An engine's surface as plain data (Simulation.surfaceJob), copied out of the engine, so that
 * another thread can mesh it (meshSurfaceJob) while the engine steps on: what particleSurface
 * reads (particle engine), a level set and its colour (grid engine), or a mesh made already (the
 * grid engine's height fields). A grid job's `tint`, where several liquids are tracked, colours
 * its vertices from the liquids' tracers (tint.ts).
 */
export type SurfaceJob =
  | { kind: 'particles'; input: ParticleSurfaceInput; output: OutputLike }
  | { kind: 'levelset'; input: Omit<LevelSetInput, 'colors'>; color: readonly [number, number, number]; output: OutputLike; tint?: TintSource }
  | { kind: 'mesh'; mesh: Mesh; tint?: TintSource; color?: readonly [number, number, number] };

/** The mesh of a SurfaceJob: the engine's surfaceMesh() of the state it was taken from, bit for bit. */
export function meshSurfaceJob(job: SurfaceJob): Mesh {
  switch (job.kind) {
    case 'particles':
      return particleSurface(job.input, job.output);
    case 'levelset': {
      const c = job.color;
      const mesh = levelSetSurface({ ...job.input, colors: (_x, _y, _z, out) => out.set(c) }, job.output);
      return job.tint ? tintMesh(mesh, job.tint, c) : mesh;
    }
    case 'mesh':
      return job.tint ? tintMesh(job.mesh, job.tint, job.color ?? [0.8, 0.8, 0.8]) : job.mesh;
  }
}
