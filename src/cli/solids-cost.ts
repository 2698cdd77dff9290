/**
 * What a scene's solid objects cost, told by `viscid info` and at the start of `viscid run`
 * beside the liquid's cost (cost.ts, disk.ts): their meshes' triangles and memory, the bytes a
 * `--solids` file takes a frame, and the time moving solids add to a particle-engine frame.
 *
 * Meshes are those the engines build (scene/triangulate.ts shapeMesh), measured once per kind of
 * shape. A moving solid costs the particle engine about MOVING_SOLID_NS a sub-timestep (its
 * particles moved and re-hashed, its mesh posed): 400 spinning spheres of 1 cm beside the 64-particle
 * tests/cli/fixtures/tiny.json, 2 substeps, took 41 ms of CPU a frame more than none (process.cpuUsage
 * over 2 frames, machine at load 25), about 51 µs each a sub-timestep.
 */
import type { Scene } from '../index.ts';
import { shapeMesh } from '../scene/triangulate.ts';

export const MOVING_SOLID_NS = 51_000;

export interface SolidsEstimate {
  bodies: number;
  moving: number;
  /** Triangles of all solids' meshes: what `--solids` writes each frame. */
  triangles: number;
  /** Bytes the engines hold for the solids' meshes. */
  meshBytes: number;
  /** Time moving solids add to a particle-engine frame, s (one thread). */
  particleSeconds: number;
}

export function estimateSolids(scene: Scene): SolidsEstimate {
  const perKind = new Map<string, { triangles: number; bytes: number }>();
  let bodies = 0, moving = 0, triangles = 0, meshBytes = 0;
  for (const b of scene.bodies) {
    if (scene.materials[b.material]?.kind === 'liquid') continue;
    bodies++;
    if (b.motion.type !== 'static') moving++;
    // A shape's triangle count depends on its kind (and mesh file, cup wall), not on its size or place.
    const s = b.shape;
    const key = `${s.type}:${s.type === 'mesh' ? s.file : ''}:${s.type === 'cylinder' && s.wall > 0 ? 'cup' : ''}`;
    let m = perKind.get(key);
    if (!m) {
      const mesh = shapeMesh(s, scene.assets.meshes);
      m = { triangles: mesh.indices.length / 3, bytes: mesh.positions.byteLength + mesh.normals.byteLength + mesh.indices.byteLength + (mesh.colors?.byteLength ?? 0) };
      perKind.set(key, m);
    }
    triangles += m.triangles;
    meshBytes += m.bytes;
  }
  const particleSeconds = (moving * scene.particle.substeps * MOVING_SOLID_NS) / 1e9;
  return { bodies, moving, triangles, meshBytes, particleSeconds };
}
