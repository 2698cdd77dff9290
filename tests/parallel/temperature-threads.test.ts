/**
 * Temperature (src/particle/temperature.ts) on a thread team: heat conduction's two jobs and the
 * exchange with per-particle viscosity run on the team at T = 2; two runs repeat bit for bit, and
 * one conduction step matches one thread's to round-off (the threads' sums are added in another
 * order).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { conductHeat } from '../../src/particle/temperature.ts';
import { teamWork } from '../../src/particle/work.ts';
import { lcg, teamKernels, threadedSim } from './helpers.ts';

// The scene is smaller than the engine's threshold for the conduction jobs: run them threaded anyway.
teamWork.minParticles = 256;

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

const honey = (initial: number) => ({
  kind: 'liquid' as const, density: 1400, viscosity: { value: 2, unit: 'Pa.s' as const },
  grid: { viscosityModel: 'variable' as const, temperature: { initial, reference: 20, coefficient: 0.05, diffusivity: 2e-4 } },
});

/** A hot and a cold block side by side in a closed box (1 280 particles: above VISCOSITY_MIN_PARTICLES). */
const SCENE: SceneInput = {
  fps: 30,
  domain: { min: [0, 0, 0], max: [0.064, 0.04, 0.02], boundary: 'noslip' },
  materials: { cold: honey(20), hot: honey(70) },
  bodies: [
    { material: 'cold', shape: { type: 'box', center: [0.016, 0.016, 0.01], size: [0.032, 0.032, 0.02] } },
    { material: 'hot', shape: { type: 'box', center: [0.048, 0.016, 0.01], size: [0.032, 0.032, 0.02] } },
  ],
  particle: { radius: 0.001, substeps: 2, densitySolver: 'steele', densityIterations: 3, viscositySolver: 'exchange' },
};

function sim(workers: number): ParticleSimulation {
  const s = threadedSim(SCENE, workers);
  open.push(s);
  return s;
}

describe('temperature on 2 threads', () => {
  it('runs conduction and the exchange on the team and repeats bit for bit', async () => {
    const a = sim(2), b = sim(2);
    await a.ready();
    await b.ready();
    const jobs = teamKernels(a);
    teamKernels(b);
    a.stepFrame();
    b.stepFrame();
    for (const name of ['heat-pairs', 'heat-flux', 'viscosity']) expect(jobs.has(name)).toBe(true);
    const n = a.ctx.liquid.count;
    expect(b.ctx.liquid.count).toBe(n);
    expect(Array.from(b.ctx.temperature!.T.subarray(0, n))).toEqual(Array.from(a.ctx.temperature!.T.subarray(0, n)));
    expect(Array.from(b.ctx.liquid.pos.subarray(0, 3 * n))).toEqual(Array.from(a.ctx.liquid.pos.subarray(0, 3 * n)));
    expect(Array.from(b.ctx.liquid.vel.subarray(0, 3 * n))).toEqual(Array.from(a.ctx.liquid.vel.subarray(0, 3 * n)));
    // Heat has crossed between the blocks.
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < n; i++) {
      lo = Math.min(lo, a.ctx.temperature!.T[i]);
      hi = Math.max(hi, a.ctx.temperature!.T[i]);
    }
    expect(lo).toBeGreaterThanOrEqual(20);
    expect(hi).toBeLessThanOrEqual(70);
  });

  it('conducts as one thread does, to round-off', async () => {
    const one = sim(1), two = sim(2);
    await two.ready();
    const jobs = teamKernels(two);
    for (const s of [one, two]) {
      const ctx = s.ctx, L = ctx.liquid, rnd = lcg(3);
      for (let o = 0; o < 3 * L.count; o++) L.pos[o] += (rnd() - 0.5) * ctx.r;
      ctx.cells.buildSorted(L);
      computeAdhesion(ctx);
      // A long sub-timestep: the conduction takes several explicit steps.
      conductHeat(ctx, 0.05);
    }
    expect(jobs.has('heat-flux')).toBe(true);
    const n = one.ctx.liquid.count, ta = one.ctx.temperature!.T, tb = two.ctx.temperature!.T;
    let moved = 0;
    for (let i = 0; i < n; i++) {
      expect(Math.abs(ta[i] - tb[i])).toBeLessThan(1e-9);
      moved = Math.max(moved, Math.abs(ta[i] - (one.ctx.liquid.material[i] === 1 ? 70 : 20)));
    }
    expect(moved).toBeGreaterThan(1);
  });
});
