/**
 * The speed paths of the pair stages give bit-identical results to the plain 27-cell scans they
 * replace: viscosity over the recorded pair list with per-pair weights precomputed once per
 * sub-timestep (viscosity.ts), and the density pair listing with slot-ordered positions and cell
 * box culling (density.ts). The references below are the former implementations (for viscosity:
 * the 27-cell scan, with the sweep count, per-sweep fraction, pair weight cap and m̄/m of today's
 * scheme, calibration.ts).
 */
import { describe, expect, it } from 'vitest';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { exchangeSubcycles, PAIR_WEIGHT_MAX, viscositySweeps } from '../../src/particle/calibration.ts';
import type { StepContext } from '../../src/particle/context.ts';
import { listDensityPairs } from '../../src/particle/density.ts';
import { applyViscosity, materialTables, uniformExchange } from '../../src/particle/viscosity.ts';
import { lcg, liquid, particleSim } from './helpers.ts';

/**
 * One liquid, two liquids (different masses and kernel supports) or two liquids alike but for
 * their colour (the uniform exchange, viscosity.ts uniformExchange), strongly jittered, random
 * velocities.
 */
type Blend = 'one liquid' | 'two liquids: mixed masses and supports' | 'two liquids alike but for colour';
function blob(blend: Blend) {
  const alike = blend === 'two liquids alike but for colour';
  const sim = particleSim({
    gravity: [0, 0, 0],
    materials: {
      a: liquid(30, { particle: { kernelSupport: 4 } }),
      b: alike ? { ...liquid(30, { particle: { kernelSupport: 4 } }), color: '#2a4fc8' } : { ...liquid(8, { particle: { kernelSupport: 6 } }), density: 1600 },
    },
    bodies: [
      { material: 'a', shape: { type: 'sphere', center: [-0.01, 0.02, -0.03], radius: 0.03 } },
      { material: blend === 'one liquid' ? 'a' : 'b', shape: { type: 'sphere', center: [0.035, -0.005, -0.03], radius: 0.02 } },
    ],
    particle: { radius: 0.003 },
  });
  const L = sim.ctx.liquid, rnd = lcg(7);
  for (let o = 0; o < 3 * L.count; o++) {
    L.pos[o] += (rnd() - 0.5) * 0.012;
    L.vel[o] = rnd() - 0.5;
  }
  sim.ctx.cells.buildSorted(L);
  return sim;
}

/** The former applyViscosity: every sweep re-scans the 27 neighbour cells. */
function referenceViscosity(ctx: StepContext, dt: number): void {
  let vmax = 0;
  for (let m = 0; m < ctx.exchangeRate.length; m++) vmax = Math.max(vmax, ctx.exchangeRate[m]);
  const n = viscositySweeps(vmax, dt), ns = exchangeSubcycles(vmax, dt);
  const sumK = ctx.liquid.scalar;
  for (let i = 0; i < ctx.liquid.count; i++) sumK[i] = sumK[i] > 0 ? 0.5 / sumK[i] : 0;
  for (let s = 0; s < n; s++) referenceSweep(ctx, dt / ns, ns / n);
}

/** One sweep moving `share` of the exchange 1 − exp(−v dt) of a sub-cycle of length dt. */
function referenceSweep(ctx: StepContext, dt: number, share: number): void {
  const L = ctx.liquid;
  const pos = L.pos, vel = L.vel, halfInv = L.scalar, mat = L.material;
  const mass = ctx.mass, ks = ctx.kernelSupport, rate = ctx.exchangeRate;
  const nm = mass.length;
  const frac = new Float64Array(nm * nm), inv2 = new Float64Array(nm * nm);
  const toI = new Float64Array(nm * nm), toJ = new Float64Array(nm * nm);
  for (let a = 0; a < nm; a++) {
    for (let b = 0; b < nm; b++) {
      const e = a * nm + b;
      frac[e] = 1 - Math.exp(-0.5 * (rate[a] + rate[b]) * dt);
      if (share !== 1) frac[e] *= share;
      const h = a === b ? ks[a] : 0.5 * (ks[a] + ks[b]);
      inv2[e] = h > 0 ? 1 / (h * h) : 0;
      const mbar = mass[a] + mass[b] > 0 ? (2 * mass[a] * mass[b]) / (mass[a] + mass[b]) : 0;
      // m̄ = m exactly for equal masses.
      toI[e] = mass[a] === mass[b] ? 1 : mbar / mass[a];
      toJ[e] = mass[a] === mass[b] ? 1 : mbar / mass[b];
    }
  }
  const g = ctx.cells.grid, start = g.start, cnt = g.count, first = ctx.cells.first, cells = ctx.cells.cells;
  for (let c = 0; c < g.cellCount; c++) {
    const i0 = start[c], i1 = i0 + cnt[c];
    for (let i = i0; i < i1; i++) {
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const row = mat[i] * nm, hi = halfInv[i];
      let vxi = vel[3 * i], vyi = vel[3 * i + 1], vzi = vel[3 * i + 2];
      for (let q = first[c]; q < first[c + 1]; q++) {
        const c2 = cells[q];
        const j1 = start[c2] + cnt[c2];
        for (let j = c2 === c ? i + 1 : start[c2]; j < j1; j++) {
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          const e = row + mat[j];
          const q2 = (dx * dx + dy * dy + dz * dz) * inv2[e];
          if (q2 >= 1) continue;
          const s = 1 - q2;
          // Stored in single precision by viscosity.ts (listExchangePairs).
          const w = Math.fround(Math.min(frac[e] * s * s * s * (hi + halfInv[j]), PAIR_WEIGHT_MAX));
          const ux = w * (vel[3 * j] - vxi), uy = w * (vel[3 * j + 1] - vyi), uz = w * (vel[3 * j + 2] - vzi);
          const fi = toI[e], fj = toJ[e];
          vxi += fi * ux; vyi += fi * uy; vzi += fi * uz;
          vel[3 * j] -= fj * ux; vel[3 * j + 1] -= fj * uy; vel[3 * j + 2] -= fj * uz;
        }
      }
      vel[3 * i] = vxi; vel[3 * i + 1] = vyi; vel[3 * i + 2] = vzi;
    }
  }
}

/** The former listDensityPairs: plain 27-cell scan through grid.order. */
function referenceDensityPairs(ctx: StepContext): { start: number[]; j: number[] } {
  const L = ctx.liquid, n = L.count, pos = L.pos, dc = ctx.densityCells;
  dc.build(pos, n);
  const g = dc.grid, start = g.start, cnt = g.count, order = g.order, first = dc.first, cells = dc.cells;
  const h2 = ctx.densityH * ctx.densityH;
  const out = { start: new Array<number>(n + 1), j: [] as number[] };
  for (let c = 0; c < g.cellCount; c++) {
    for (let a = start[c]; a < start[c] + cnt[c]; a++) {
      out.start[a] = out.j.length;
      const i = order[a];
      for (let q = first[c]; q < first[c + 1]; q++) {
        const c2 = cells[q];
        for (let b = c2 === c ? a + 1 : start[c2]; b < start[c2] + cnt[c2]; b++) {
          const j = order[b];
          const dx = pos[3 * j] - pos[3 * i], dy = pos[3 * j + 1] - pos[3 * i + 1], dz = pos[3 * j + 2] - pos[3 * i + 2];
          if (dx * dx + dy * dy + dz * dz < h2) out.j.push(j);
        }
      }
    }
  }
  out.start[n] = out.j.length;
  return out;
}

describe('fast pair paths are bit-identical to the plain scans', () => {
  for (const blend of ['one liquid', 'two liquids: mixed masses and supports', 'two liquids alike but for colour'] as const) {
    it(`viscosity over the recorded pairs (${blend})`, () => {
      const sim = blob(blend), ctx = sim.ctx, L = ctx.liquid, n = L.count;
      if (blend !== 'one liquid') expect(new Set(L.material.subarray(0, n)).size).toBe(2);
      // The form the sweeps take: single-material unless the liquids differ in mass or kernel.
      const uniform = uniformExchange(L.material, n, ctx.mass.length, materialTables(ctx, 1 / 120, 1));
      expect(uniform).toBe(blend !== 'two liquids: mixed masses and supports');
      expect(n).toBeGreaterThan(300);
      const dt = 1 / 120;
      expect(viscositySweeps(Math.max(...ctx.exchangeRate), dt)).toBeGreaterThan(1);
      const vel0 = L.vel.slice(0, 3 * n);
      computeAdhesion(ctx);
      const sumK = L.scalar.slice(0, n);
      referenceViscosity(ctx, dt);
      const want = L.vel.slice(0, 3 * n);
      L.vel.set(vel0);
      L.scalar.set(sumK);
      applyViscosity(ctx, dt);
      let differ = 0, moved = 0;
      for (let o = 0; o < 3 * n; o++) {
        if (!Object.is(L.vel[o], want[o])) differ++;
        if (L.vel[o] !== vel0[o]) moved++;
      }
      expect(moved).toBeGreaterThan(n); // the exchange did something
      expect(differ).toBe(0);
      // Momentum conserved to round-off (absolute, kg·m/s; |p| per particle ~ 1e-4).
      for (let k = 0; k < 3; k++) {
        let p0 = 0, p1 = 0;
        for (let i = 0; i < n; i++) {
          const m = ctx.mass[L.material[i]];
          p0 += m * vel0[3 * i + k];
          p1 += m * L.vel[3 * i + k];
        }
        expect(Math.abs(p1 - p0)).toBeLessThan(1e-12);
      }
    });
  }

  it('density pair listing (slot-ordered copy, box culling): same pairs, same order', () => {
    const sim = blob('two liquids: mixed masses and supports'), ctx = sim.ctx, n = ctx.liquid.count;
    const want = referenceDensityPairs(ctx);
    expect(want.j.length).toBeGreaterThan(5 * n);
    listDensityPairs(ctx);
    const list = ctx.densityPairs;
    expect(list.length).toBe(want.j.length);
    expect(Array.from(list.start.subarray(0, n + 1))).toEqual(want.start);
    // j holds slots of densityCells.grid.order; the reference lists particles.
    const order = ctx.densityCells.grid.order;
    expect(Array.from(list.j.subarray(0, list.length), (b) => order[b])).toEqual(want.j);
  });
});
