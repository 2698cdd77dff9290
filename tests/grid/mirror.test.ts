/**
 * The grid's fast march keeps a mirror image a mirror image: a ball in the middle of a box symmetric
 * about x = 0 (the middle on a cell face), its φ mirror-symmetric but for rounding, gives mirrored
 * distances (redistance.ts: a tie's cells accepted together, either upwind neighbour of a tie).
 * Before, the march read a tie's first cell as accepted and its mirror image as not. (The velocity's
 * extrapolation into the air still extrapolates a face in the layer of the cell on its +a side, which
 * breaks the symmetry after an impact: docs/decisions.md, stop 51's merge.)
 */
import { describe, expect, it } from 'vitest';
import type { GridSimulation } from '../../src/grid/step.ts';
import { gridSim, levelSetOf } from './helpers.ts';

const h = 0.01;

function ball(): GridSimulation {
  return gridSim({
    gravity: [0, -9.81, 0],
    domain: { min: [-0.1, 0, -0.1], max: [0.1, 0.2, 0.1], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: { gel: { kind: 'liquid', density: 1100, viscosity: { value: 1, unit: 'Pa.s' } } },
    bodies: [{ material: 'gel', shape: { type: 'sphere', center: [0, 0.035, 0], radius: 0.027 } }],
    grid: { cellSize: h, tracking: 'levelset' },
  });
}

/** Largest |f(c) − sign f(mirror c)| over the cells whose mirror image exists (shift 1: a field on the x-min faces). */
function defect(sim: GridSimulation, f: Float64Array, shift: number, sign: number, only?: (c: number) => boolean): { worst: number; pairs: number } {
  const s = sim.store, n = sim.d.n[0];
  let worst = 0, pairs = 0;
  for (let c = 0; c < s.count; c++) {
    if (only && !only(c)) continue;
    const m = s.find(n - 1 + shift - s.ci[c], s.cj[c], s.ck[c]);
    if (m < 0) continue;
    pairs++;
    worst = Math.max(worst, Math.abs(f[c] - sign * f[m]));
  }
  return { worst, pairs };
}

/** A deterministic value in [−1, 1) per integer triple. */
function noise(i: number, j: number, k: number): number {
  let x = (i * 73856093) ^ (j * 19349663) ^ (k * 83492791);
  x = Math.imul(x ^ (x >>> 13), 0x5bd1e995);
  return ((x ^ (x >>> 15)) >>> 0) / 2147483648 - 1;
}

describe('mirror symmetry of the fast march', () => {
  it('the fast march gives mirrored distances from a mirrored φ perturbed by rounding-sized differences', () => {
    const sim = ball(), s = sim.store, n = sim.d.n[0];
    // φ squashed (|∇φ| ≠ 1, so the march rebuilds every distance) and wrinkled, mirror-symmetric;
    // then each cell's value nudged by up to 1e-13 m, differently from its mirror image.
    for (let c = 0; c < s.count; c++) {
      const i = s.ci[c], j = s.cj[c], k = s.ck[c], x = -0.1 + h * (i + 0.5), y = h * (j + 0.5), z = -0.1 + h * (k + 0.5);
      const mi = Math.min(i, n - 1 - i);
      const r = Math.hypot(x / 1.3, y - 0.035, z) - 0.027 + 0.002 * noise(mi, j, k);
      s.phi[c] = Math.max(-sim.band, Math.min(sim.band, 1.7 * r)) + 1e-13 * noise(i, j, k);
    }
    levelSetOf(sim).redistance(s, h, sim.band);
    const d = defect(sim, s.phi, 0, 1);
    console.log(`march: largest mirror defect ${(d.worst / h).toExponential(2)} cells over ${d.pairs} pairs`);
    expect(d.pairs).toBeGreaterThan(800);
    expect(d.worst).toBeLessThan(1e-9 * h);
  });
});
