/**
 * Liquids of different densities on the grid (grid/variable-density.ts): ρ per cell from the liquid
 * tracers, ρ per face in the pressure's rows and update. A heavy block (ρ 3 000) dropped on a
 * light pool (ρ 1 000) sinks to the floor and the light liquid rises over it, where a block of the
 * pool's density stays on top; a column of the two at rest stays at rest, its pressure rising by
 * each layer's ρ g per cell; liquids of one density take the one-density path
 * (bench/grid-checksums.ts holds its bits); a restored run continues bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene, restoreSimulation } from '../../src/index.ts';
import type { GridEngineSimulation } from '../../src/grid/simulation.ts';
import { GridSimulation } from '../../src/grid/step.ts';
import { FLUID } from '../../src/grid/store.ts';
import { heavyOnWater } from '../particle/heavy-pool.ts';

const H = 0.0025, G = 9.81;

/** The heavy-on-water scene (tests/particle/heavy-pool.ts), the block 1 cm off the middle, on 2.5 mm cells. */
function sinking(heavy: number): GridSimulation {
  const scene = heavyOnWater({ heavy, shift: 0.01 });
  scene.grid = { cellSize: H };
  const sim = new GridSimulation(parseScene(scene));
  sim.initialize();
  return sim;
}

/** Each liquid's tracers: mean height and lowest height, m (material 0 water, 1 the block). */
function heights(sim: GridSimulation): { mean: [number, number]; low: [number, number] } {
  const p = sim.ext.liquids!.points, sum = [0, 0], n = [0, 0], low: [number, number] = [Infinity, Infinity];
  for (let q = 0; q < p.count; q++) {
    const m = p.material[q], y = p.pos[3 * q + 1];
    sum[m] += y;
    n[m]++;
    low[m] = Math.min(low[m], y);
  }
  return { mean: [sum[0] / n[0], sum[1] / n[1]], low };
}

/** A column 2 cm wide, 1 cm deep: 2 cm of `lower` (ρ) under 2 cm of ρ 1 000, slip walls. */
function column(lower: number): GridSimulation {
  const liquid = (density: number, pas: number) => ({ kind: 'liquid', density, viscosity: { value: pas, unit: 'Pa.s' } });
  const sim = new GridSimulation(parseScene({
    fps: 30,
    duration: 1,
    domain: { min: [0, 0, 0], max: [0.02, 0.06, 0.01], boundary: 'slip' },
    materials: { light: liquid(1000, 0.01), heavy: liquid(lower, 0.05) },
    bodies: [
      { material: 'light', shape: { type: 'box', center: [0.01, 0.03, 0.005], size: [0.02, 0.02, 0.01] } },
      { material: 'heavy', shape: { type: 'box', center: [0.01, 0.01, 0.005], size: [0.02, 0.02, 0.01] } },
    ],
    grid: { cellSize: H },
  }));
  sim.initialize();
  return sim;
}

describe('liquids of different densities on the grid', () => {
  it('a heavy block (ρ 3 000) sinks to the floor of a light pool (ρ 1 000) and the light liquid rises over it', () => {
    const sim = sinking(3000);
    expect(sim.ext.density).not.toBeNull();
    const start = heights(sim);
    // The block starts above the pool: 3.5 cm against 1.25 cm.
    expect(start.mean[1]).toBeGreaterThan(0.03);
    // 8 frames, 0.27 s (about 80 steps).
    for (let f = 0; f < 8; f++) sim.stepFrame();
    const end = heights(sim);
    expect(end.low[1]).toBeLessThan(H);
    expect(end.mean[1]).toBeLessThan(0.01);
    expect(end.mean[0]).toBeGreaterThan(0.018);
    expect(end.mean[0]).toBeGreaterThan(end.mean[1] + 0.008);
  });

  it('a block of the pool\'s density takes the one-density path and stays on top', () => {
    const sim = sinking(1000);
    expect(sim.ext.density).toBeNull();
    expect(sim.pressure.density).toBeNull();
    for (let f = 0; f < 8; f++) sim.stepFrame();
    const end = heights(sim);
    expect(end.low[1]).toBeGreaterThan(0.015);
    expect(end.mean[1]).toBeGreaterThan(end.mean[0] + 0.008);
  });

  it('a column of two liquids stays at rest, its pressure rising by each layer\'s ρ g', () => {
    const sim = column(3000);
    for (let f = 0; f < 6; f++) sim.stepFrame();
    const s = sim.store, k = (sim.liquid!.density * H) / sim.dt;
    let umax = 0;
    for (let a = 0; a < 3; a++) for (let c = 0; c < s.count; c++) if (s.type[c] === FLUID) umax = Math.max(umax, Math.abs(s.u[a][c]));
    // The solve's tolerance (1e-6 relative) leaves nanometres a second.
    expect(umax).toBeLessThan(1e-6);
    const p = (j: number) => {
      const c = s.find(3, j, 1);
      expect(s.type[c]).toBe(FLUID);
      return s.pressure[c] * k;
    };
    // Rows 0–5 are the heavy layer's, 9–15 the light one's (its top row 15 under the air); the
    // tracers mix the density over the cells 6–8 about the interface at 2 cm (row 8's lower face).
    for (let j = 0; j < 5; j++) expect((p(j) - p(j + 1)) / (G * H)).toBeCloseTo(3000, 2);
    for (let j = 9; j < 15; j++) expect((p(j) - p(j + 1)) / (G * H)).toBeCloseTo(1000, 2);
    // Bottom row to top row: each layer's ρ g h (less the half cell at each end: the centres).
    const jump = 3000 * G * (0.02 - H / 2) + 1000 * G * (0.02 - H / 2);
    expect(Math.abs(p(0) - p(15) - jump)).toBeLessThan(1e-3 * jump);
    // The free surface's p = 0 sits on the air cell's centre, half a cell above the liquid (Cline §4).
    expect(p(15)).toBeCloseTo(1000 * G * H, 2);
  });

  it('a restored run continues bit for bit (ρ per cell comes from the checkpointed tracers)', () => {
    const scene = heavyOnWater({ heavy: 3000, shift: 0.01 });
    scene.grid = { cellSize: 0.005 };
    const a = createSimulation(parseScene(scene), 'grid') as GridEngineSimulation;
    for (let f = 0; f < 2; f++) a.stepFrame();
    const b = restoreSimulation(a.save()) as GridEngineSimulation;
    for (let f = 0; f < 2; f++) { a.stepFrame(); b.stepFrame(); }
    const n = a.sim.store.count;
    expect(b.sim.store.count).toBe(n);
    expect(b.sim.ext.density!.ratio.subarray(0, n)).toEqual(a.sim.ext.density!.ratio.subarray(0, n));
    for (let ax = 0; ax < 3; ax++) expect(b.sim.store.u[ax].subarray(0, n)).toEqual(a.sim.store.u[ax].subarray(0, n));
  });

  it('the viscoelastic force on a face is divided by the face\'s ρ (ρ₀ the first liquid\'s)', () => {
    const gel = (density: number) => ({ kind: 'liquid', density, viscosity: { value: 5, unit: 'Pa.s' }, viscoelastic: { elasticModulus: 3000, elasticLimit: 5, yieldRate: 100, decay: 0 } });
    const sim = new GridSimulation(parseScene({
      fps: 30,
      domain: { min: [0, 0, 0], max: [0.08, 0.06, 0.02], boundary: 'noslip' },
      materials: { light: gel(1000), heavy: gel(3000) },
      bodies: [
        { material: 'light', shape: { type: 'box', center: [0.02, 0.02, 0.01], size: [0.03, 0.04, 0.02] } },
        { material: 'heavy', shape: { type: 'box', center: [0.06, 0.02, 0.01], size: [0.03, 0.04, 0.02] } },
      ],
      grid: { cellSize: 0.005 },
    }));
    sim.initialize();
    for (let f = 0; f < 3; f++) sim.stepFrame();
    const ve = sim.ext.viscoelastic!, s = sim.store, n = s.count, dt = sim.dt;
    const before = s.u.map((a) => a.slice(0, n));
    ve.applyElasticForce(sim, dt);
    const mass = ve.mass!;
    expect(mass).toBe(sim.ext.density!.faceMass(sim));
    const weighed = s.u.map((a, ax) => a.slice(0, n).map((v, c) => v - before[ax][c]));
    for (let ax = 0; ax < 3; ax++) s.u[ax].set(before[ax]);
    ve.mass = null;
    ve.applyForce(s, dt, sim.d.h);
    let heavyFaces = 0;
    for (let ax = 0; ax < 3; ax++) {
      for (let c = 0; c < n; c++) {
        const plain = s.u[ax][c] - before[ax][c];
        expect(weighed[ax][c]).toBeCloseTo(plain / mass[3 * c + ax], 12);
        if (mass[3 * c + ax] === 3 && Math.abs(plain) > 1e-6) heavyFaces++;
      }
    }
    // The heavy gel's faces (its strain from its sag) take a third of the one-density force.
    expect(heavyFaces).toBeGreaterThan(10);
  });
});
