/**
 * What the page learns of a scene when it loads (sim.worker.ts posts it in 'loaded'): materials
 * with their display colours, the solids' rest meshes, and the box the camera frames.
 */
import type { Scene, Simulation } from '../index.ts';
import { compileShape } from '../scene/shapes.ts';
import { linearColor } from '../scene/color.ts';
import type { MaterialInfo, SolidInfo } from './protocol.ts';

type Box = { min: [number, number, number]; max: [number, number, number] };

/**
 * The box the camera frames on load: the domain where there is one, grown to take in every body
 * and source (a spout may sit above an open box); without a domain the bodies and sources alone.
 * Sinks are left out (they are often huge boxes far below the scene, as in gel-fan).
 */
export function viewBounds(s: Scene): Box {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const take = (lo: ArrayLike<number>, hi: ArrayLike<number>) => {
    for (let k = 0; k < 3; k++) {
      if (Number.isFinite(lo[k])) min[k] = Math.min(min[k], lo[k]);
      if (Number.isFinite(hi[k])) max[k] = Math.max(max[k], hi[k]);
    }
  };
  if (s.domain) take(s.domain.min, s.domain.max);
  for (const b of s.bodies) {
    try {
      const bb = compileShape(b.shape, s.assets.meshes).bounds;
      take(bb.min, bb.max);
    } catch {
      // a shape that does not compile is reported by the engine; the camera frames the rest
    }
  }
  for (const src of s.sources) {
    const r = src.shape === 'disk' ? src.radius : Math.max(src.size[0], src.size[1]) / 2;
    take([src.center[0] - r, src.center[1] - r, src.center[2] - r], [src.center[0] + r, src.center[1] + r, src.center[2] + r]);
  }
  for (let k = 0; k < 3; k++) {
    if (!(max[k] >= min[k])) {
      min[k] = -0.1;
      max[k] = 0.1;
    } else if (max[k] - min[k] < 1e-3) {
      // a flat scene (a plane and nothing else): give the box some depth to frame
      min[k] -= 0.05;
      max[k] += 0.05;
    }
  }
  return { min, max };
}

/** What the scene adds after t = 0: liquid bodies with a start time, and spouts' rates (protocol.ts 'loaded'). */
export function inflowOf(s: Scene): { bodies: { start: number; volume: number }[]; spouts: { start: number; end: number; rate: number }[] } {
  const bodies: { start: number; volume: number }[] = [];
  for (const b of s.bodies) {
    if (!(b.start > 0) || s.materials[b.material].kind !== 'liquid') continue;
    try {
      bodies.push({ start: b.start, volume: compileShape(b.shape, s.assets.meshes).volume });
    } catch {
      // a shape that does not compile is reported by the engine
    }
  }
  const spouts = s.sources.map((src) => {
    const area = src.shape === 'disk' ? Math.PI * src.radius * src.radius : src.size[0] * src.size[1];
    return { start: src.start, end: Math.min(src.end ?? s.duration, s.duration), rate: area * src.speed };
  });
  return { bodies, spouts };
}

export function materialsOf(s: Scene): MaterialInfo[] {
  return s.materialNames.map((name) => {
    const m = s.materials[name];
    return { name, kind: m.kind, color: linearColor(m.color) };
  });
}

export function solidInfos(s: Simulation): SolidInfo[] {
  return s.solids().map((v) => ({
    name: v.name,
    color: v.color,
    positions: Float32Array.from(v.mesh.positions),
    normals: Float32Array.from(v.mesh.normals),
    indices: Uint32Array.from(v.mesh.indices),
  }));
}
