/** The basic simulator (Cline §4): rest, projection, time stepping, determinism, checkpoints. */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene, restoreSimulation } from '../../src/index.ts';
import { SimulationError } from '../../src/api.ts';
import type { GridEngineSimulation } from '../../src/grid/simulation.ts';

function tank(tracking: 'markers' | 'levelset', viscosity = 1e-3) {
  return parseScene({
    fps: 30,
    domain: { min: [0, 0, 0], max: [0.4, 0.4, 0.04], boundary: 'noslip' },
    materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: viscosity, unit: 'm2/s' } } },
    bodies: [{ material: 'water', shape: { type: 'box', center: [0.2, 0.1, 0.02], size: [0.4, 0.2, 0.04] } }],
    grid: { cellSize: 0.02, tracking },
  });
}

function splash() {
  return parseScene({
    fps: 30,
    domain: { min: [0, 0, 0], max: [0.32, 0.32, 0.08], boundary: 'slip' },
    materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 2e-3, unit: 'm2/s' } } },
    bodies: [{ material: 'water', shape: { type: 'box', center: [0.06, 0.1, 0.04], size: [0.12, 0.2, 0.08] }, velocity: [0.5, 0, 0] }],
    grid: { cellSize: 0.02, tracking: 'markers', tolerance: 1e-7 },
  });
}

describe('grid engine basics', () => {
  for (const tracking of ['markers', 'levelset'] as const) {
    it(`keeps a tank of liquid at rest (${tracking})`, () => {
      const sim = createSimulation(tank(tracking), 'grid');
      const v0 = sim.metrics().fluidVolume;
      for (let f = 0; f < 10; f++) sim.stepFrame();
      const m = sim.metrics();
      // Hydrostatic balance to the solver tolerance (1e-6 relative): velocities of order 1e-6 g Δt.
      expect(m.maxSpeed).toBeLessThan(1e-6);
      expect(Math.abs(m.fluidVolume - v0) / v0).toBeLessThan(1e-6);
      expect(m.centerOfMass[1]).toBeCloseTo(0.1, 6);
    });
  }

  it('leaves the divergence below the solver tolerance after projection', () => {
    const scene = splash();
    const sim = createSimulation(scene, 'grid') as GridEngineSimulation;
    for (let f = 0; f < 3; f++) sim.stepFrame();
    const p = sim.sim.pressure;
    expect(p.divergenceBefore).toBeGreaterThan(1e-4); // the check has something to remove
    expect(p.divergenceAfter).toBeLessThanOrEqual(2 * scene.grid.tolerance * p.divergenceBefore + 1e-14);
  });

  it('lands exactly on frame times and respects the CFL clamps', () => {
    const scene = splash();
    const sim = createSimulation(scene, 'grid') as GridEngineSimulation;
    for (let f = 1; f <= 4; f++) {
      const stats = sim.stepFrame();
      expect(sim.time).toBe(f / 30);
      expect(stats.counters.steps).toBeGreaterThanOrEqual(Math.ceil(1 / 30 / scene.grid.maxDt));
    }
    const dt = sim.sim.computeDt();
    const umax = sim.metrics().maxSpeed;
    expect(dt).toBeLessThanOrEqual(scene.grid.maxDt);
    expect(dt).toBeGreaterThanOrEqual(scene.grid.minDt);
    expect(dt * umax).toBeLessThanOrEqual(scene.grid.cfl * scene.grid.cellSize * 1.5);
  });

  it('is deterministic', () => {
    const a = createSimulation(splash(), 'grid');
    const b = createSimulation(splash(), 'grid');
    for (let f = 0; f < 4; f++) {
      a.stepFrame();
      b.stepFrame();
    }
    expect(Buffer.from(a.fluidPoints().positions.buffer)).toEqual(Buffer.from(b.fluidPoints().positions.buffer));
    expect(a.metrics()).toEqual(b.metrics());
  });

  for (const tracking of ['markers', 'levelset'] as const) {
    it(`continues bit for bit from a checkpoint (${tracking})`, () => {
      const scene = splash();
      const json = JSON.parse(JSON.stringify(scene));
      json.grid.tracking = tracking;
      const a = createSimulation(parseScene(json), 'grid') as GridEngineSimulation;
      for (let f = 0; f < 3; f++) a.stepFrame();
      const b = restoreSimulation(a.save()) as GridEngineSimulation;
      expect(b.engine).toBe('grid');
      expect(b.frame).toBe(3);
      for (let f = 0; f < 3; f++) {
        a.stepFrame();
        b.stepFrame();
      }
      expect(b.time).toBe(a.time);
      const sa = a.sim.store, sb = b.sim.store;
      expect(sb.count).toBe(sa.count);
      for (let q = 0; q < 3; q++) expect(Buffer.from(sb.u[q].slice(0, sb.count).buffer)).toEqual(Buffer.from(sa.u[q].slice(0, sa.count).buffer));
      expect(Buffer.from(sb.phi.slice(0, sb.count).buffer)).toEqual(Buffer.from(sa.phi.slice(0, sa.count).buffer));
      expect(Buffer.from(b.fluidPoints().positions.buffer)).toEqual(Buffer.from(a.fluidPoints().positions.buffer));
    });
  }

  it('interpolates velocities on the staggered grid exactly for a linear field', () => {
    const sim = createSimulation(tank('markers', 0), 'grid') as GridEngineSimulation;
    const s = sim.sim.store, d = sim.sim.d, h = d.h;
    // u = (x + 2y, 3z − y, x) sampled at each face centre.
    for (let c = 0; c < s.count; c++) {
      const x = d.origin[0] + h * s.ci[c], y = d.origin[1] + h * s.cj[c], z = d.origin[2] + h * s.ck[c];
      s.u[0][c] = x + 2 * (y + h / 2);
      s.u[1][c] = 3 * (z + h / 2) - y;
      s.u[2][c] = x + h / 2;
    }
    const p: [number, number, number] = [0.113, 0.071, 0.017];
    const v = sim.velocityAt(p);
    expect(v[0]).toBeCloseTo(p[0] + 2 * p[1], 12);
    expect(v[1]).toBeCloseTo(3 * p[2] - p[1], 12);
    expect(v[2]).toBeCloseTo(p[0], 12);
  });

  it('stops with a SimulationError naming the stage when the velocity blows up', () => {
    const sim = createSimulation(tank('markers'), 'grid') as GridEngineSimulation;
    const s = sim.sim.store;
    for (let c = 0; c < s.count; c++) if (s.face[3 * c] === 1) { s.u[0][c] = Number.NaN; break; }
    let error: unknown;
    try {
      sim.stepFrame();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SimulationError);
    expect((error as SimulationError).stage).toBe('advection');
    expect((error as Error).message).toMatch(/step 0/);
  });

  for (const tracking of ['markers', 'levelset'] as const) {
    it(`gives points, a surface mesh around the liquid and metrics (${tracking})`, () => {
      const sim = createSimulation(tank(tracking), 'grid');
      sim.stepFrame();
      const pts = sim.fluidPoints();
      expect(pts.count).toBe(8 * 20 * 10 * 2); // 8 markers in each of the 400 liquid cells
      expect(pts.positions.length).toBe(3 * pts.count);
      const mesh = sim.surfaceMesh();
      expect(mesh.indices.length).toBeGreaterThan(0);
      let top = -Infinity;
      for (let v = 1; v < mesh.positions.length; v += 3) top = Math.max(top, mesh.positions[v]);
      // The free surface is at y = 0.2 m: the mesh reaches it, within a cell.
      expect(Math.abs(top - 0.2)).toBeLessThan(0.02);
      const m = sim.metrics();
      expect(m.cellCount).toBe(400);
      expect(m.fluidVolume).toBeCloseTo(0.4 * 0.2 * 0.04, 9);
      expect(m.bounds.max[1]).toBeCloseTo(0.2, 9);
    });
  }

  it('runs its stages in the order of Cline et al. Figure 3', () => {
    const sim = createSimulation(splash(), 'grid') as GridEngineSimulation;
    const names = sim.sim.pipeline.map((s) => s.name);
    const order = ['grid', 'advection', 'forces', 'viscosity', 'pressure', 'extrapolation', 'solids', 'tracking'];
    const at = order.map((n) => names.indexOf(n));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((p, q) => p - q)).toEqual(at);
  });
});
