/**
 * The host side of the GPU's pressure Courant number (src/gpu/pressure-courant.ts), without a
 * device: each liquid's own filter strength in the parameters block (the CPU's pressure.ts
 * materialStrengths: none for a honey-like liquid), and the pieces a sub-timestep is split into
 * from the largest stored pressures, as the CPU's pressure.ts pressurePieces counts them.
 */
import { describe, expect, it } from 'vitest';
import { LiquidFilter, pressurePieces } from '../../src/gpu/pressure-courant.ts';
import { LIQUID_PARAMS, PARAM_BYTES } from '../../src/gpu/wgsl.ts';
import { ParamBlock, writeConstants, writeStepParams } from '../../src/gpu/params.ts';
import { PBF_WARM_SHARE } from '../../src/particle/pbf.ts';
import { feedsWarmStart } from '../../src/particle/still-water.ts';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { pressurePieces as cpuPieces } from '../../src/particle/pressure.ts';
import { FILTER, FILTER_REACH } from '../../src/particle/pressure-filter.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';

function scene(particle: Record<string, unknown> = {}): SceneInput {
  return {
    name: 'two liquids', fps: 30, duration: 1,
    domain: { min: [0, 0, 0], max: [0.04, 0.08, 0.04], boundary: 'noslip' },
    materials: {
      water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } },
      honey: { kind: 'liquid', density: 1400, viscosity: { value: 0.01, unit: 'm2/s' } },
      syrup: { kind: 'liquid', density: 1200, viscosity: { value: 2e-4, unit: 'm2/s' } },
    },
    bodies: [
      { material: 'water', shape: { type: 'box', center: [0.02, 0.01, 0.02], size: [0.04, 0.02, 0.04] } },
      { material: 'honey', shape: { type: 'box', center: [0.02, 0.03, 0.02], size: [0.016, 0.016, 0.016] } },
    ],
    particle: { radius: 0.004, ...particle },
  };
}

describe('the GPU filter strengths and the pressure split (pressure-courant.ts)', () => {
  it('writes each liquid its own strength, FILTER · max(0, 1 − ν δt/((2r)² FILTER_REACH)), and the largest into filterStrength', () => {
    const s = parseScene(scene()), data = new ArrayBuffer(PARAM_BYTES), f = new Float32Array(data);
    const r = 0.004, dt = 1 / 120, filter = new LiquidFilter(s, r, data);
    const largest = filter.write(dt);
    const expected = [1e-6, 0.01, 2e-4].map((nu) => Math.max(0, FILTER * (1 - (nu * dt) / (FILTER_REACH * 4 * r * r))));
    expect(expected[1]).toBe(0);
    expect(expected[2]).toBeGreaterThan(0);
    expect(expected[2]).toBeLessThan(expected[0]);
    for (let l = 0; l < 3; l++) expect(f[LIQUID_PARAMS + 4 * l + 2]).toBeCloseTo(expected[l], 6);
    expect(largest).toBeCloseTo(expected[0], 12);
    expect(f[35]).toBeCloseTo(expected[0], 6);
    // A shorter sub-timestep: the syrup's viscosity damps less of the particle scale, its strength grows.
    filter.write(dt / 4);
    expect(f[LIQUID_PARAMS + 10]).toBeGreaterThan(expected[2]);
  });

  it('writes no strength with one pressure solve (no position shift, no filter)', () => {
    const data = new ArrayBuffer(PARAM_BYTES), f = new Float32Array(data);
    expect(new LiquidFilter(parseScene(scene({ pressureAfterViscosity: false })), 0.004, data).write(1 / 120)).toBe(0);
    expect(f[LIQUID_PARAMS + 2]).toBe(0);
  });

  it('writes PBF\'s warm-start share into gravity\'s fourth word (Params.pbfWarm) only as feedsWarmStart gives it, gravity kept', () => {
    const s = parseScene(scene()), block = new ParamBlock(), r = 0.004, filter = new LiquidFilter(s, r, block.data);
    writeConstants(block.data, s, { r, h: 4 * r, hv: 4 * r, cell: 4 * r, count: 1, table: 1, capacity: 1, clearance: [r, r, r, r, r, r], restSpacing: 2 * r, cohesion: { scale: 0, offset: 0 } });
    const dt = 1 / 120;
    for (const [still, share] of [[false, 0], [true, PBF_WARM_SHARE]] as const) {
      writeStepParams(block, s, dt, 1, 2, 0, filter, false, undefined, feedsWarmStart(still));
      expect(block.f[19], `still ${still}`).toBe(share);
      // The water is filtered: where PBF is left with compression the gate's state alone decides (Params.pbfLeft).
      expect(block.f[27], `still ${still}`).toBe(share);
      for (let k = 0; k < 3; k++) expect(block.f[16 + k]).toBeCloseTo(s.gravity[k], 6);
    }
  });

  it('writes the share where PBF is left with compression (Params.pbfLeft, the upper corner\'s fourth word) where no liquid is filtered and the pressure stage runs, the corner kept', () => {
    // No liquid filtered: one pressure solve (no shift, no filter), the CPU's SolveState.gateEvery (pbf-feed.ts).
    const s = parseScene(scene({ pressureAfterViscosity: false })), block = new ParamBlock(), r = 0.004, filter = new LiquidFilter(s, r, block.data);
    writeConstants(block.data, s, { r, h: 4 * r, hv: 4 * r, cell: 4 * r, count: 1, table: 1, capacity: 1, clearance: [r, r, r, r, r, r], restSpacing: 2 * r, cohesion: { scale: 0, offset: 0 } });
    for (const still of [false, true]) {
      writeStepParams(block, s, 1 / 120, 1, 2, 0, filter, false, undefined, feedsWarmStart(still));
      expect([block.f[19], block.f[27]], `still ${still}`).toEqual([still ? PBF_WARM_SHARE : 0, PBF_WARM_SHARE]);
      // Without the pressure stage (no passes) nothing sets the gate's liquid to every liquid: the state alone.
      writeStepParams(block, s, 1 / 120, 1, 0, 0, filter, false, undefined, feedsWarmStart(still));
      expect(block.f[27], `still ${still}, no pressure passes`).toBe(still ? PBF_WARM_SHARE : 0);
      for (let k = 0; k < 3; k++) expect(block.f[24 + k]).toBeCloseTo(s.domain!.max[k], 6);
    }
  });

  it('splits a sub-timestep into the pieces the CPU engine takes for the same stored pressures', () => {
    for (const particle of [{}, { pressureCourant: 0.4 }]) {
      const sim = new ParticleSimulation(parseScene(scene(particle))), ctx = sim.ctx, L = ctx.liquid, n = L.count;
      const dt = 1 / 120, s = ctx.scene;
      for (const top of [0, 0.3, 0.8, 1.6, 5, 40]) {
        // p/ρ0 in m²/s²: the water's largest `top`, the honey's (not filtered) 4 × as much.
        L.lambda.fill(0);
        let filtered = 0, all = 0;
        for (let i = 0; i < n; i++) {
          const honey = s.materialNames[L.material[i]] === 'honey', lam = (honey ? 4 : 1) * top * ((i % 7) + 1) / 7;
          L.lambda[i] = lam;
          if (!honey && !L.nearObject[i]) filtered = Math.max(filtered, lam);
          all = Math.max(all, lam);
        }
        const gpu = pressurePieces(s, ctx.r, dt, { speed: 0, pressure: all, filtered, still: false }, ctx.restSpacing);
        expect(gpu, `${JSON.stringify(particle)} p/ρ0 up to ${top}`).toBe(cpuPieces(ctx, dt));
      }
      sim.dispose();
    }
  });
});
