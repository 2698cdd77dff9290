/**
 * The per-frame file formats of `viscid run`, keyed by the names the flags and the scene's
 * `output.mesh` / `output.points` use. The encoders themselves are the pure ones in src/io.
 */
import type { FluidPoints, Mesh } from '../types/geometry.ts';
import { toGLB } from '../io/gltf.ts';
import { toOBJ } from '../io/obj.ts';
import { pointsToPLY, toPLY } from '../io/ply.ts';
import { toVTK } from '../io/vtk.ts';
import type { MeshFormat, PointsFormat } from './manifest.ts';

/** What the encoders read of the scene (a Scene is one; frame-writer.ts posts just these). */
export interface SceneLabels {
  name: string;
  output: { colors: boolean };
  materialNames: readonly string[];
}

export const MESH_EXTENSIONS: Record<Exclude<MeshFormat, 'none'>, string> = { obj: 'obj', ply: 'ply', glb: 'glb' };
export const POINTS_EXTENSIONS: Record<Exclude<PointsFormat, 'none'>, string> = { vtk: 'vtk', ply: 'ply' };

export async function encodeMesh(format: Exclude<MeshFormat, 'none'>, mesh: Mesh, scene: SceneLabels): Promise<string | Uint8Array> {
  const m: Mesh = scene.output.colors ? mesh : { positions: mesh.positions, normals: mesh.normals, indices: mesh.indices };
  switch (format) {
    case 'obj':
      return toOBJ(m, { comment: `scene ${scene.name}` });
    case 'ply':
      return toPLY(m);
    case 'glb':
      return await toGLB(m, { name: scene.name });
  }
}

export function encodePoints(format: Exclude<PointsFormat, 'none'>, points: FluidPoints, scene: SceneLabels): string | Uint8Array {
  switch (format) {
    case 'vtk':
      return toVTK(points, `viscid ${scene.name}; material index: ${scene.materialNames.map((n, i) => `${i}=${n}`).join(' ')}`);
    case 'ply':
      return pointsToPLY(points);
  }
}
