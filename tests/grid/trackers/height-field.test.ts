/**
 * Foster & Metaxas 1996 §4.3: the height-field surface of a shallow pool and spray.
 *  - A pool whose surface starts tilted by 8° sloshes (h = 2 cm); the height field moved by
 *    equation 12 stays within 0.6 h (mean over the columns) of the level set's surface and moves
 *    by more than h; its mesh has one vertex per column.
 *  - A pool at rest throws off no spray; a block of water thrown upward at 1.5 m/s does, and the
 *    spray falls back (none is left 2 s later).
 */
import { describe, expect, it } from 'vitest';
import { sampleCentre } from '../../../src/grid/interpolate.ts';
import { HeightFieldTracker } from '../../../src/grid/trackers/height-field.ts';
import type { GridEngineSimulation } from '../../../src/grid/simulation.ts';
import { createSimulation, parseScene } from '../../../src/index.ts';
import type { GridSimulation } from '../../../src/grid/step.ts';

const h = 0.02;

function pool(tilt: number, extra: Record<string, unknown> = {}) {
  return grid(parseScene({
    fps: 30,
    domain: { min: [0, 0, 0], max: [0.4, 0.24, 0.1], boundary: 'slip', faces: { ymax: 'open' } },
    materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } } },
    bodies: [{ material: 'water', shape: { type: 'box', center: [0.2, 0.04, 0.05], size: [0.8, 0.16, 0.2], rotation: [0, 0, tilt] } }],
    grid: { cellSize: h, tracking: 'levelset', heightField: true, ...extra },
  }));
}

function levelSetHeight(sim: GridSimulation, x: number, z: number): number {
  let prev = sampleCentre(sim.store, sim.d, sim.store.phi, x, 0.5 * h, z, sim.band);
  for (let y = 0.5 * h + 0.001; y < 0.24; y += 0.001) {
    const f = sampleCentre(sim.store, sim.d, sim.store.phi, x, y, z, sim.band);
    if (prev < 0 && f >= 0) return y - 0.001 * (f / (f - prev));
    prev = f;
  }
  return NaN;
}

function grid(scene: ReturnType<typeof parseScene>): GridEngineSimulation {
  return createSimulation(scene, 'grid') as GridEngineSimulation;
}

describe('height field', () => {
  it('follows the level-set surface of a sloshing pool', () => {
    const sim = pool(8);
    sim.stepFrame();
    const hf = (sim.sim.tracker as HeightFieldTracker).field;
    const H0 = Float64Array.from(hf.H);
    let moved = 0;
    for (let f = 1; f < 24; f++) sim.stepFrame();
    let diff = 0, n = 0;
    for (let i = 0; i < hf.nx; i++) {
      const q = i + hf.nx * 2;
      const ls = levelSetHeight(sim.sim, (i + 0.5) * h, 2.5 * h);
      diff += Math.abs(hf.H[q] - ls);
      n++;
      moved = Math.max(moved, Math.abs(hf.H[q] - H0[q]));
    }
    console.log(`height field vs level set: mean |ΔH| = ${(diff / n / h).toFixed(2)} h; largest change ${(moved / h).toFixed(2)} h`);
    expect(diff / n).toBeLessThan(0.6 * h);
    expect(moved).toBeGreaterThan(h);
    const mesh = sim.surfaceMesh();
    expect(mesh.positions.length).toBe(3 * hf.nx * hf.nz);
    expect(mesh.indices.length).toBeGreaterThan(0);
  });
});

describe('spray', () => {
  it('is thrown off fast-rising water and falls back, never off a calm pool', () => {
    const calm = pool(0, { spray: { threshold: 0.5 } });
    for (let f = 0; f < 10; f++) calm.stepFrame();
    expect(calm.sim.ext.spray!.count).toBe(0);

    const sim = grid(parseScene({
      fps: 30,
      domain: { min: [0, 0, 0], max: [0.2, 0.4, 0.1], boundary: 'slip', faces: { ymax: 'open' } },
      materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } } },
      bodies: [{ material: 'water', shape: { type: 'box', center: [0.1, 0.1, 0.05], size: [0.1, 0.06, 0.06] }, velocity: [0, 1.5, 0] }],
      grid: { cellSize: h, tracking: 'levelset', spray: { threshold: 0.5, perCell: 2, lifetime: 1.5 } },
    }));
    let most = 0;
    for (let f = 0; f < 6; f++) { sim.stepFrame(); most = Math.max(most, sim.sim.ext.spray!.count); }
    expect(most).toBeGreaterThan(0);
    expect(sim.fluidPoints().count).toBeGreaterThan(sim.sim.markers.count);
    for (let f = 0; f < 60; f++) sim.stepFrame();
    expect(sim.sim.ext.spray!.count).toBe(0);
  });
});
