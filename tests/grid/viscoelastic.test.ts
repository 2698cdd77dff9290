/**
 * Viscoelastic gel (Cline §8, Goktekin 2004): a 5.5 cm jello cube dropped 9 cm onto a no-slip
 * floor (h = 1 cm, markers) squashes on impact, springs back and settles near its rest height,
 * while the same block of plain liquid slumps and stays flat. With elasticModulus 0 the step is the
 * plain solver's exactly (bit for bit). The discrete elastic force sums to zero over a blob that
 * touches no wall (equation 23's differences telescope because E is zero on the blob's boundary).
 */
import { describe, expect, it } from 'vitest';
import type { GridSimulation } from '../../src/grid/step.ts';
import { Viscoelastic } from '../../src/grid/viscoelastic.ts';
import { gridSim } from './helpers.ts';

function jello(gel: Record<string, unknown> | null, h = 0.01) {
  return gridSim({
    fps: 30,
    domain: { min: [-0.1, 0, -0.1], max: [0.1, 0.2, 0.1], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: {
      gel: { kind: 'liquid', density: 1100, viscosity: { value: 1, unit: 'Pa.s' }, grid: gel ? { viscoelastic: gel } : {} },
    },
    bodies: [{ material: 'gel', shape: { type: 'box', center: [0, 0.09, 0], size: [0.055, 0.055, 0.055] } }],
    grid: { cellSize: h, tracking: 'markers' },
  });
}

/** Height of the marker cloud, m. */
function height(sim: GridSimulation): number {
  const m = sim.markers;
  let lo = Infinity, hi = -Infinity;
  for (let q = 0; q < m.count; q++) { lo = Math.min(lo, m.pos[3 * q + 1]); hi = Math.max(hi, m.pos[3 * q + 1]); }
  return hi - lo;
}

function run(sim: GridSimulation, frames: number): number[] {
  const out: number[] = [];
  for (let f = 0; f < frames; f++) { sim.stepFrame(); out.push(height(sim)); }
  return out;
}

describe('viscoelastic gel', () => {
  it('a jello block squashes on landing, springs back and settles near its rest height; a plain liquid does not', () => {
    const gel = jello({ elasticModulus: 3000, elasticLimit: 5, yieldRate: 0.5, decay: 0 });
    const H0 = height(gel);
    const hs = run(gel, 40);
    const iMin = hs.indexOf(Math.min(...hs.slice(0, 8)));
    const squash = hs[iMin];
    const rebound = Math.max(...hs.slice(iMin, iMin + 10));
    const final = hs.slice(-5).reduce((a, b) => a + b, 0) / 5;
    // measured (h = 1 cm): H0 0.055, squash ≈ 0.040, rebound ≈ 0.089, final ≈ 0.055
    expect(squash).toBeLessThan(0.85 * H0);
    expect((rebound - squash) / (H0 - squash)).toBeGreaterThan(1); // springs past its rest height
    expect(final / H0).toBeGreaterThan(0.8);
    expect(gel.ext.viscoelastic!.maxStrain).toBeGreaterThan(0);

    const liquid = jello(null);
    const hl = run(liquid, 40);
    const finalLiquid = hl.slice(-5).reduce((a, b) => a + b, 0) / 5;
    expect(finalLiquid / H0).toBeLessThan(0.35);
    expect(final - finalLiquid).toBeGreaterThan(0.5 * H0);
  });

  it('with zero elastic modulus the step equals the plain solver bit for bit', () => {
    const plain = jello(null, 0.02);
    const zero = jello({ elasticModulus: 0, elasticLimit: 0.5, yieldRate: 0.5, decay: 0 }, 0.02);
    for (let f = 0; f < 8; f++) { plain.stepFrame(); zero.stepFrame(); }
    expect(zero.ext.viscoelastic).not.toBeNull();
    expect(zero.steps).toBe(plain.steps);
    expect(zero.markers.count).toBe(plain.markers.count);
    expect(Array.from(zero.markers.pos.subarray(0, 3 * zero.markers.count))).toEqual(Array.from(plain.markers.pos.subarray(0, 3 * plain.markers.count)));
    // the strain did build up (the stages ran), it just exerts no force
    expect(zero.ext.viscoelastic!.maxStrain).toBeGreaterThan(0.01);
  });
});

describe('elastic force', () => {
  it('sums to zero over a gel blob away from walls (momentum is conserved)', () => {
    const sim = gridSim({
      fps: 30,
      gravity: [0, 0, 0],
      domain: { min: [0, 0, 0], max: [0.2, 0.2, 0.2], boundary: 'noslip' },
      materials: { gel: { kind: 'liquid', density: 1000, viscosity: { value: 1, unit: 'Pa.s' } } },
      bodies: [{ material: 'gel', shape: { type: 'sphere', center: [0.1, 0.1, 0.1], radius: 0.05 } }],
      grid: { cellSize: 0.01, tracking: 'markers' },
    });
    const ve = new Viscoelastic({ elasticModulus: 1000, elasticLimit: 1e9, yieldRate: 0, decay: 0 }, 1000);
    const s = sim.store;
    ve.E.sync(s);
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) - 0.5;
    for (let q = 0; q < 6; q++) for (let c = 0; c < s.count; c++) ve.E.data[q][c] = rand();
    ve.updateStrain(sim, 0); // Δt = 0: only extrapolation and the force's view of E
    const before = s.u.map((u) => u.slice(0, s.count));
    ve.applyForce(s, 0.01, sim.d.h);
    for (let a = 0; a < 3; a++) {
      let sum = 0, abs = 0;
      for (let c = 0; c < s.count; c++) { const du = s.u[a][c] - before[a][c]; sum += du; abs += Math.abs(du); }
      expect(abs).toBeGreaterThan(1);
      expect(Math.abs(sum)).toBeLessThan(1e-12 * abs);
    }
  });
});
