/**
 * The implicit viscosity (particle.viscositySolver "implicit", src/particle/viscosity-weiler.ts):
 * the viscosity asked for in a decaying shear flow and in plane Poiseuille down a 2 cm slot between
 * no-slip walls (src/compare/validate/particle-viscosity.ts), where the momentum exchange falls
 * short; the solve conserves the liquid's momentum away from walls and runs the same on two
 * threads. The full-size validation (1 mm particles, ν 0.001 and 0.01 m²/s: minutes) runs with
 * VISCID_LONG=1.
 */
import { describe, expect, it } from 'vitest';
import '../../src/index.ts';
import { measureShearDecay, measureSlot, shearDecay, slotPoiseuille } from '../../src/compare/validate/particle-viscosity.ts';
import { formatResults, runCase } from '../../src/compare/validate.ts';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { applyImplicitViscosity } from '../../src/particle/viscosity-weiler.ts';
import { lcg, particleSim } from './helpers.ts';
import { restoreSimulation } from '../../src/index.ts';
import { describeLong } from '../long.ts';

describe('implicit viscosity, 1 mm radius (2 mm spacing)', () => {
  // Measured 9.01e-3 (−9.9 %; at 0.5 mm radius −5.4 %: docs/decisions.md). The bound fails if the
  // walls, the operator or its lattice constant get worse.
  it('a decaying shear flow between no-slip walls at ν = 0.01 m²/s decays at 0.85–1.1 of its viscosity', () => {
    const m = measureShearDecay(0.01, 0.001);
    expect(m.r2).toBeGreaterThan(0.99);
    expect(m.nu / 0.01).toBeGreaterThan(0.85);
    expect(m.nu / 0.01).toBeLessThan(1.1);
  });

  it('plane Poiseuille in the slot at ν = 0.01 m²/s: curvature within 10 %, where the exchange falls 30 % or more short', () => {
    const m = measureSlot(0.01, 0.001);
    expect(Math.abs(m.nuCurvature / 0.01 - 1)).toBeLessThan(0.1);
    expect(m.iterationsPerSolve).toBeGreaterThan(0);
    const e = measureSlot(0.01, 0.001, 'exchange');
    expect(e.nuMean / 0.01).toBeLessThan(0.7);
  });
});

describe('implicit viscosity: the solve', () => {
  it('conserves the momentum of a free liquid block (no walls, no objects) to round-off and damps its relative motion', () => {
    const sim = particleSim({
      gravity: [0, 0, 0],
      materials: { m: { kind: 'liquid', density: 1000, viscosity: { value: 0.005, unit: 'm2/s' } } },
      bodies: [{ material: 'm', shape: { type: 'box', center: [0, 0, 0], size: [0.03, 0.03, 0.03] } }],
      particle: { radius: 0.002 },
    });
    const ctx = sim.ctx, L = ctx.liquid, n = L.count, rnd = lcg(7);
    for (let o = 0; o < 3 * n; o++) L.vel[o] = rnd() - 0.5;
    ctx.cells.buildSorted(L);
    computeAdhesion(ctx);
    const momentum = (): number[] => {
      const p = [0, 0, 0];
      for (let o = 0; o < 3 * n; o++) p[o % 3] += L.vel[o];
      return p;
    };
    const energy = (): number => L.vel.subarray(0, 3 * n).reduce((s, v) => s + v * v, 0);
    const p0 = momentum(), e0 = energy(), scale = L.vel.subarray(0, 3 * n).reduce((s, v) => s + Math.abs(v), 0);
    applyImplicitViscosity(ctx, 1 / 120);
    const p1 = momentum();
    // The CG iterate alone would miss it by its tolerance; the uniform shift of the residual's
    // sum (viscosity-weiler-solve.ts) puts it back to round-off.
    for (let k = 0; k < 3; k++) expect(Math.abs(p1[k] - p0[k])).toBeLessThan(1e-10 * scale);
    expect(energy()).toBeLessThan(0.2 * e0);
    expect(ctx.counters.viscosityIterations).toBeGreaterThan(0);
  });
});

describe('implicit viscosity: checkpoints', () => {
  it('a run resumed from a checkpoint continues bit for bit (the warm start is saved)', () => {
    const input = {
      materials: { honey: { kind: 'liquid' as const, density: 1400, viscosity: { value: 7, unit: 'Pa.s' as const } } },
      domain: { min: [-0.03, 0, -0.03] as [number, number, number], max: [0.03, 0.06, 0.03] as [number, number, number], boundary: 'noslip' as const },
      bodies: [{ material: 'honey', shape: { type: 'sphere' as const, center: [0, 0.02, 0] as [number, number, number], radius: 0.012 } }],
      particle: { radius: 0.002, viscositySolver: 'implicit' as const },
    };
    const a = particleSim(input);
    for (let f = 0; f < 2; f++) a.stepFrame();
    const saved = a.save();
    for (let f = 0; f < 2; f++) a.stepFrame();
    const b = restoreSimulation(saved);
    for (let f = 0; f < 2; f++) b.stepFrame();
    const pa = a.fluidPoints(), pb = b.fluidPoints();
    expect(pb.count).toBe(pa.count);
    expect(Array.from(pb.positions)).toEqual(Array.from(pa.positions));
    expect(Array.from(pb.velocities)).toEqual(Array.from(pa.velocities));
  });
});

describeLong(import.meta, 'implicit viscosity, 1 mm particles (VISCID_LONG=1)', () => {
  for (const c of [slotPoiseuille, shearDecay]) {
    it(`${c.name} passes at full size`, () => {
      const r = runCase(c, 'particle', 'full');
      expect(r.passed, `${r.detail}\n${formatResults([r])}`).toBe(true);
    }, 3_600_000);
  }
});
