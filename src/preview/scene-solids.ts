/**
 * The solids of a scene at a time, from the scene itself: for a run that wrote no solid meshes
 * (`viscid run` writes them only with `--solids`). Static and prescribed motions (linear, spin,
 * keyframes) are posed exactly as the engines pose them (scene/motion.ts); a `free` body's pose is
 * the engine's to integrate and is not in the scene, so it is drawn where it starts and named in
 * `unposed`.
 */
import type { Scene } from '../scene/scene.ts';
import { linearColor } from '../scene/color.ts';
import { compileMotion, createPose } from '../scene/motion.ts';
import { shapeMesh } from '../scene/triangulate.ts';
import type { Mesh } from '../types/geometry.ts';

export interface SceneSolids {
  /** All solid bodies in one mesh, coloured per vertex by their material. */
  mesh: Mesh;
  /** Names (or indices) of the free bodies, drawn at their starting pose. */
  unposed: string[];
}

/** The colour of a domain's floor: a neutral dark grey, linear RGB. */
const DOMAIN_FLOOR: [number, number, number] = [0.1, 0.105, 0.115];

/**
 * The floor of the scene's domain box, a quad facing up at its lower y, when that face is a wall
 * (not `open`): the grid's liquid rests on it, and without it a puddle would float in the picture.
 * Null when the scene has no domain.
 */
export function domainFloor(scene: Scene): Mesh | null {
  const d = scene.domain;
  if (!d) return null;
  const face = d.faces?.ymin ?? d.boundary;
  if (face === 'open') return null;
  const [x0, y, z0] = d.min, [x1, , z1] = d.max;
  return {
    positions: Float32Array.from([x0, y, z0, x0, y, z1, x1, y, z1, x1, y, z0]),
    normals: Float32Array.from([0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0]),
    colors: Float32Array.from([...DOMAIN_FLOOR, ...DOMAIN_FLOOR, ...DOMAIN_FLOOR, ...DOMAIN_FLOOR]),
    indices: Uint32Array.from([0, 1, 2, 0, 2, 3]),
  };
}

/** Meshes joined into one (indices offset); colours kept where every part has them. */
export function joinMeshes(parts: readonly Mesh[]): Mesh {
  if (parts.length === 1) return parts[0];
  const nv = parts.reduce((s, m) => s + m.positions.length / 3, 0), ni = parts.reduce((s, m) => s + m.indices.length, 0);
  const colored = parts.every((m) => m.colors !== undefined && m.colors.length >= m.positions.length);
  const normals = parts.every((m) => m.normals.length >= m.positions.length);
  const out: Mesh = { positions: new Float32Array(3 * nv), normals: new Float32Array(normals ? 3 * nv : 0), indices: new Uint32Array(ni), ...(colored ? { colors: new Float32Array(3 * nv) } : {}) };
  let v = 0, t = 0;
  for (const m of parts) {
    const n = m.positions.length / 3;
    out.positions.set(m.positions.subarray(0, 3 * n), 3 * v);
    if (normals) out.normals.set(m.normals.subarray(0, 3 * n), 3 * v);
    if (colored) out.colors!.set(m.colors!.subarray(0, 3 * n), 3 * v);
    for (let k = 0; k < m.indices.length; k++) out.indices[t + k] = m.indices[k] + v;
    v += n;
    t += m.indices.length;
  }
  return out;
}

/** A function of time giving the scene's solids posed at that time (rest meshes built once). */
export function sceneSolids(scene: Scene): (time: number) => SceneSolids {
  const bodies = scene.bodies
    .map((b, i) => ({ b, i }))
    .filter(({ b }) => scene.materials[b.material]?.kind === 'solid')
    .map(({ b, i }) => ({
      name: b.name ?? `bodies[${i}]`,
      rest: shapeMesh(b.shape, scene.assets.meshes),
      motion: compileMotion(b.motion),
      color: linearColor(scene.materials[b.material].color),
    }));
  let nv = 0, ni = 0;
  for (const s of bodies) {
    nv += s.rest.positions.length / 3;
    ni += s.rest.indices.length;
  }
  const pose = createPose();
  return (time) => {
    const positions = new Float32Array(3 * nv), normals = new Float32Array(3 * nv), colors = new Float32Array(3 * nv);
    const indices = new Uint32Array(ni);
    let v = 0, t = 0;
    for (const s of bodies) {
      s.motion.poseAt(time, pose);
      const R = pose.R, T = pose.t, P = s.rest.positions, N = s.rest.normals;
      const count = P.length / 3;
      for (let i = 0; i < count; i++) {
        const k = 3 * i, o = 3 * (v + i);
        const x = P[k], y = P[k + 1], z = P[k + 2];
        positions[o] = R[0] * x + R[1] * y + R[2] * z + T[0];
        positions[o + 1] = R[3] * x + R[4] * y + R[5] * z + T[1];
        positions[o + 2] = R[6] * x + R[7] * y + R[8] * z + T[2];
        const nx = N[k], ny = N[k + 1], nz = N[k + 2];
        normals[o] = R[0] * nx + R[1] * ny + R[2] * nz;
        normals[o + 1] = R[3] * nx + R[4] * ny + R[5] * nz;
        normals[o + 2] = R[6] * nx + R[7] * ny + R[8] * nz;
        colors[o] = s.color[0];
        colors[o + 1] = s.color[1];
        colors[o + 2] = s.color[2];
      }
      for (let k = 0; k < s.rest.indices.length; k++) indices[t + k] = s.rest.indices[k] + v;
      v += count;
      t += s.rest.indices.length;
    }
    return { mesh: { positions, normals, colors, indices }, unposed: bodies.filter((s) => s.motion.isFree).map((s) => s.name) };
  };
}
