/**
 * The grid's pools without a pebbled top (issue 26, "Films without grid artefacts"): a honey ball
 * dropped onto a floor spreads into a puddle whose top stays as smooth as it lands. With the
 * redistancing's seeds estimated at every step (grid.redistanceSeeds "estimate", main before
 * pebble19) each redistance moved the top's zero crossings by up to half a percent of a cell where
 * the flow stretches φ, and the puddle's top roughened as it spread; the default "keep-top" leaves
 * an upward-facing surface where the flow put it (docs/decisions.md, branch pebble19).
 */
import { describe, expect, it } from 'vitest';
import { parseScene } from '../../src/index.ts';
import { GridEngineSimulation } from '../../src/grid/simulation.ts';
import type { Mesh } from '../../src/index.ts';
import { topBumps, type TopBumps } from './pool-top.ts';

/** A height field y = f(x, z) over [−5, 5] cm² at 2.5 mm as a mesh, normals from f's gradient. */
function heightMesh(f: (x: number, z: number) => number, grad: (x: number, z: number) => [number, number]): Mesh {
  const n = 41, step = 0.0025, positions = new Float32Array(3 * n * n), normals = new Float32Array(3 * n * n);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const v = i + n * j, x = -0.05 + step * i, z = -0.05 + step * j, [gx, gz] = grad(x, z), l = Math.hypot(gx, 1, gz);
      positions.set([x, f(x, z), z], 3 * v);
      normals.set([-gx / l, 1 / l, -gz / l], 3 * v);
    }
  }
  return { positions, normals, indices: new Uint32Array(0) };
}

/** A 3 cm honey ball dropped from 20 cm onto a floor at 5 mm cells: the top's bumps at frames 30 and 36. */
function puddleBumps(): TopBumps[] {
  const sim = new GridEngineSimulation(parseScene({
    name: 'honey puddle', fps: 30, duration: 1.2,
    materials: { honey: { kind: 'liquid', density: 1420, viscosity: { value: 5, unit: 'Pa.s' } }, floor: { kind: 'solid' } },
    bodies: [
      { name: 'floor', material: 'floor', shape: { type: 'plane', point: [0, 0, 0], normal: [0, 1, 0], extent: 0.1 } },
      { name: 'honey', material: 'honey', shape: { type: 'sphere', center: [0, 0.2, 0], radius: 0.03 } },
    ],
    grid: { cellSize: 0.005 },
  }));
  const out: TopBumps[] = [];
  for (let f = 1; f <= 36; f++) {
    sim.stepFrame();
    if (f === 30 || f === 36) out.push(topBumps(sim.surfaceMesh(), { keep: () => true, scale: 0.01 }));
  }
  return out;
}

describe('topBumps (the measure)', () => {
  it('reads a tilted, curved top as smooth and cell-sized pebbles as their height and slope', () => {
    const dome = topBumps(heightMesh((x, z) => 0.01 + 0.1 * x - 0.3 * (x * x + z * z), (x, z) => [0.1 - 0.6 * x, -0.6 * z]), { keep: () => true, scale: 0.01 });
    // Pebbles 6 mm across (about a cell), 0.5 mm high.
    const k = (2 * Math.PI) / 0.006, a = 0.0005;
    const pebbles = topBumps(heightMesh((x, z) => 0.01 + a * Math.sin(k * x) * Math.sin(k * z), (x, z) => [a * k * Math.cos(k * x) * Math.sin(k * z), a * k * Math.sin(k * x) * Math.cos(k * z)]), { keep: () => true, scale: 0.01 });
    expect(dome.vertices).toBeGreaterThan(900);
    // A plane fitted to a dome of curvature κ at Gaussian width σ lies κ σ² under its top: 0.06 mm here, at most.
    expect(dome.heightRms).toBeLessThan(1e-4);
    expect(dome.normalRms).toBeLessThan(0.5);
    // The sampled pattern's RMS height is a / 2 (0.25 mm) and its RMS slope atan(a k / √2) ≈ 20°: read within 20 %.
    expect(pebbles.heightRms).toBeGreaterThan(0.8 * a / 2);
    expect(pebbles.heightRms).toBeLessThan(1.2 * a / 2);
    expect(pebbles.normalRms).toBeGreaterThan(15);
  });
});

describe('a honey puddle on the grid (particle level set, 5 mm cells)', () => {
  it('keeps its top smooth as it spreads: normals within 4° RMS of the local planes, heights within 0.5 mm RMS', () => {
    const bumps = puddleBumps();
    console.log(`puddle top at 1.0 / 1.2 s: normal RMS ${bumps.map((b) => b.normalRms.toFixed(2)).join(' / ')}°, height RMS ${bumps.map((b) => (b.heightRms * 1e3).toFixed(3)).join(' / ')} mm over ${bumps.map((b) => b.vertices).join(' / ')} vertices`);
    for (const b of bumps) {
      // The puddle is about 10 cm across: its top holds over a thousand of the mesh's vertices.
      expect(b.vertices).toBeGreaterThan(1000);
      // The estimate's seeds (pebble19's measure): 5.0–5.3° and 0.52–0.58 mm at 1–1.2 s; keep-top 3.0–3.1° and 0.42–0.44 mm.
      expect(b.normalRms).toBeLessThan(4);
      expect(b.heightRms).toBeLessThan(0.0005);
    }
  });
});
