/**
 * The scenes the WebGPU benches profile (bench/gpu-dispatches.ts, bench/gpu-kernel-profile.ts, bench/gpu-tree-ab.ts): the settling pool of
 * tests/gpu/pbf-feed.test.ts (feed, 324 particles), tests/gpu/liquids.test.ts's heavy block in a light pool (sink: one
 * pressure solve; sink2: two), tests/gpu/resume.test.ts's viscous cube (cube, 125) and tests/gpu/free-bodies.test.ts's
 * pine box dropped on water (free), tests/gpu/gel.test.ts's 3 cm gel cube dropped 2 cm onto a no-slip floor (gel, 125, its springs
 * stepped implicitly: gel-implicit.ts); and the process's CPU by thread, which they print beside their figures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { SceneInput } from '../src/scene/schema.ts';
import { heavyOnWater } from '../tests/particle/heavy-pool.ts';

export const gpuBenchScenes: Record<string, SceneInput> = {
  feed: {
    fps: 30, duration: 1,
    domain: { min: [0, 0, 0], max: [0.03, 0.072, 0.03], boundary: 'noslip' },
    materials: { liquid: { kind: 'liquid', density: 1000, viscosity: { value: 1e-3, unit: 'm2/s' } } },
    adhesion: [{ between: ['liquid', 'liquid'], type: 'attract', strength: 0 }],
    bodies: [{ material: 'liquid', shape: { type: 'box', center: [0.015, 0.024, 0.015], size: [0.03, 0.048, 0.03] } }],
    particle: { radius: 0.0025 },
  },
  sink: heavyOnWater({ heavy: 3000, colours: true, particle: { radius: 0.0025, pressureAfterViscosity: false } }),
  sink2: heavyOnWater({ heavy: 3000, colours: true, particle: { radius: 0.0025 } }),
  cube: {
    fps: 30, duration: 1,
    domain: { min: [0, 0, 0], max: [0.03, 0.04, 0.03], boundary: 'noslip' },
    materials: { w: { kind: 'liquid', viscosity: { value: 1e-3, unit: 'm2/s' } } },
    particle: { radius: 0.002 },
    bodies: [{ material: 'w', shape: { type: 'box', center: [0.015, 0.014, 0.015], size: [0.02, 0.02, 0.02] } }],
  },
  gel: {
    fps: 30, duration: 1,
    domain: { min: [-0.1, 0, -0.1], max: [0.1, 0.2, 0.1], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: { jelly: { kind: 'liquid', density: 1100, viscosity: { value: 1, unit: 'Pa.s' }, viscoelastic: { elasticModulus: 2000, elasticLimit: 0.3, yieldRate: 50, decay: 0 } } },
    bodies: [{ material: 'jelly', shape: { type: 'box', center: [0, 0.035, 0], size: [0.03, 0.03, 0.03] } }],
    particle: { radius: 0.003 },
  },
  free: {
    fps: 30, duration: 1,
    domain: { min: [-0.04, 0, -0.04], max: [0.04, 0.15, 0.04], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } }, pine: { kind: 'solid', density: 500 } },
    bodies: [
      { name: 'pool', material: 'water', shape: { type: 'box', center: [0, 0.02, 0], size: [0.08, 0.04, 0.08] } },
      { name: 'box', material: 'pine', shape: { type: 'box', center: [0, 0.065, 0], size: [0.04, 0.04, 0.04], rotation: [0, 0, 10] }, motion: { type: 'free', angularDamping: 1 } },
    ],
    particle: { radius: 0.005 },
  },
};

/** CPU seconds by thread name (/proc/self/task: utime + stime), summed over threads of one name. */
export function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of readdirSync('/proc/self/task')) {
    try {
      const s = readFileSync(`/proc/self/task/${t}/stat`, 'utf8'), name = s.slice(s.indexOf('(') + 1, s.lastIndexOf(')'));
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
    } catch { /* a thread that ended */ }
  }
  return out;
}
