/**
 * Pair forces: the adhesion matrix is symmetric, and adhesion and viscosity conserve total
 * momentum to round-off (zero gravity, no objects).
 */
import { describe, expect, it } from 'vitest';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { applyViscosity } from '../../src/particle/viscosity.ts';
import { buildAdhesionMatrix, namedAdhesion, LJ_REPULSION_CAP } from '../../src/particle/adhesion-matrix.ts';
import { parseScene } from '../../src/index.ts';
import { latticeFaceDeficit } from '../../src/math/kernels.ts';
import { lcg, liquid, particleSim } from './helpers.ts';

/**
 * A jittered blob of two liquids with different densities and random velocities, its densities
 * ρ̂ drawn from 0.8 to 1.05 (the cohesion share adhesion.ts gives a pair: exposed, partly exposed
 * and interior particles), or all `dens` where given.
 */
function blob(dens?: number, densitySolver: 'pbf' | 'steele' = 'pbf', cohesionShare?: 'band' | 'linear' | 'every-pair') {
  const sim = particleSim({
    gravity: [0, 0, 0],
    materials: { a: liquid(3), b: { ...liquid(8), density: 1600 } },
    adhesion: [
      { between: ['a', 'a'], type: 'lennard-jones', strength: 20 },
      { between: ['a', 'b'], type: 'repel', strength: 7 },
      { between: ['b', 'b'], points: [[0, 30], [2, -5], [3.5, 0]] },
    ],
    bodies: [
      { material: 'a', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.03 } },
      { material: 'b', shape: { type: 'sphere', center: [0.05, 0, 0], radius: 0.025 } },
    ],
    particle: { radius: 0.003, densitySolver, ...(cohesionShare ? { cohesionShare } : {}) },
  });
  const L = sim.ctx.liquid, rnd = lcg(7);
  for (let o = 0; o < 3 * L.count; o++) {
    L.pos[o] += (rnd() - 0.5) * 0.002;
    L.vel[o] = (rnd() - 0.5) * 0.4;
  }
  for (let i = 0; i < L.count; i++) L.density[i] = dens ?? 0.8 + 0.25 * rnd();
  sim.ctx.cells.buildSorted(L);
  return sim;
}

function momentum(sim: ReturnType<typeof blob>, useAcc = false): [number, number, number, number] {
  const L = sim.ctx.liquid, v = useAcc ? L.acc : L.vel;
  const p = [0, 0, 0];
  let scale = 0;
  for (let i = 0; i < L.count; i++) {
    const m = sim.ctx.mass[L.material[i]];
    for (let k = 0; k < 3; k++) {
      p[k] += m * v[3 * i + k];
      scale += Math.abs(m * v[3 * i + k]);
    }
  }
  return [p[0], p[1], p[2], scale];
}

describe('particle pair forces', () => {
  it('adhesion matrix is symmetric, including defaults for unlisted pairs', () => {
    const scene = parseScene({
      materials: { a: liquid(1), b: liquid(2), wall: { kind: 'solid' } },
      adhesion: [{ between: ['b', 'a'], type: 'attract', strength: 5 }],
    });
    const M = buildAdhesionMatrix(scene);
    for (let a = 0; a < 3; a++) {
      for (let b = 0; b < 3; b++) {
        for (let d = 0; d <= 5; d += 0.125) expect(M.at(a, b, d)).toBe(M.at(b, a, d));
      }
    }
    expect(M.at(0, 1, 1)).toBe(-5); // listed
    expect(M.at(0, 0, 1)).toBeGreaterThan(0); // default lennard-jones: repulsive inside 2 radii
    expect(M.at(2, 2, 1)).toBe(0); // solids never act on each other
  });

  it('lennard-jones caps repulsion at 10x the peak attraction', () => {
    const f = namedAdhesion('lennard-jones', 4, 4);
    expect(Math.max(...f.ys)).toBe(LJ_REPULSION_CAP * 4);
    expect(Math.min(...f.ys)).toBe(-4);
  });

  it('adhesion conserves momentum: sum of m·a is zero to round-off', () => {
    const sim = blob();
    computeAdhesion(sim.ctx);
    const [px, py, pz, scale] = momentum(sim, true);
    expect(scale).toBeGreaterThan(0);
    for (const p of [px, py, pz]) expect(Math.abs(p)).toBeLessThan(1e-12 * scale);
  });

  it('cohesion between liquid particles: none between two at the rest density, the paper\'s in full where one is as exposed as a flat face\'s outer row', () => {
    // The outer row of a flat face of the rest lattice (spacing 2r, cubic spline over 4r) reads ρ̂ 0.850.
    expect(latticeFaceDeficit(2, 4)).toBeCloseTo(0.1497, 4);
    const interior = blob(1);
    computeAdhesion(interior.ctx);
    expect(interior.ctx.liquid.acc.subarray(0, 3 * interior.ctx.liquid.count).every((a) => a === 0)).toBe(true);
    // Every particle exposed: the same accelerations, bit for bit, as the paper's form ("steele", no share).
    const exposed = blob(0.8), paper = blob(0.8, 'steele');
    computeAdhesion(exposed.ctx);
    computeAdhesion(paper.ctx);
    const n = exposed.ctx.liquid.count;
    expect(momentum(exposed, true)[3]).toBeGreaterThan(0);
    expect(exposed.ctx.liquid.acc.subarray(0, 3 * n)).toEqual(paper.ctx.liquid.acc.subarray(0, 3 * n));
  });

  it('cohesion\'s share by rule: "band" none below half a face row\'s deficit, "linear" in proportion, "every-pair" the paper\'s', () => {
    const face = latticeFaceDeficit(2, 4);
    const acc = (dens: number, rule: 'band' | 'linear' | 'every-pair') => {
      const sim = blob(dens, 'pbf', rule);
      computeAdhesion(sim.ctx);
      return sim.ctx.liquid.acc.slice(0, 3 * sim.ctx.liquid.count);
    };
    const paper = blob(1, 'steele');
    computeAdhesion(paper.ctx);
    const full = paper.ctx.liquid.acc.slice(0, 3 * paper.ctx.liquid.count);
    // Within the band (a deficit of 0.45 face rows) "band" takes none, "linear" 0.45 of the force.
    const inBand = 1 - 0.45 * face;
    expect(acc(inBand, 'band').every((a) => a === 0)).toBe(true);
    // (ρ̂ is stored in single precision: the share to 1e-6 of the largest force.)
    const big = Math.max(...full.map(Math.abs)), off = (a: Float64Array, k: number) => Math.max(...a.map((v, o) => Math.abs(v - k * full[o])));
    expect(off(acc(inBand, 'linear'), 0.45)).toBeLessThan(1e-6 * big);
    // Three quarters of a face row's deficit: "band" half the force; a face row's: both in full.
    expect(off(acc(1 - 0.75 * face, 'band'), 0.5)).toBeLessThan(1e-6 * big);
    expect(acc(1 - face, 'band')).toEqual(full);
    // "every-pair": the paper's at any density.
    expect(acc(1, 'every-pair')).toEqual(full);
  });

  it('viscosity conserves momentum to round-off and reduces kinetic energy', () => {
    const sim = blob();
    const before = momentum(sim);
    const ke = () => sim.metrics().kineticEnergy;
    const ke0 = ke();
    computeAdhesion(sim.ctx); // sums the weights Σk
    applyViscosity(sim.ctx, 1 / 120);
    const after = momentum(sim);
    for (let k = 0; k < 3; k++) expect(Math.abs(after[k] - before[k])).toBeLessThan(1e-12 * before[3]);
    expect(ke()).toBeLessThan(0.9 * ke0);
  });

  it('whole frames without density correction conserve momentum to round-off (zero gravity)', () => {
    // Adhesion, viscosity, moves and liquid–liquid contacts are all pairwise; density correction
    // (positions plus a one-sided velocity filter) is switched off here.
    const sim = blob();
    sim.scene.particle.densityIterations = 0;
    const before = momentum(sim);
    for (let f = 0; f < 2; f++) sim.stepFrame();
    const after = momentum(sim);
    for (let k = 0; k < 3; k++) expect(Math.abs(after[k] - before[k])).toBeLessThan(1e-10 * before[3]);
  });
});
