/**
 * PBF's one-thread measure (pbf-measure.ts pbfMeasureOne) against the pressure stage's measure over
 * each pair once (pressure-half.ts factorHalf) on one solve view: a squeezed, jittered block of
 * liquid resting on a sphere (object particles in the rows: their boundary terms), with equal
 * masses and with two liquids of different densities (the mass-weighted path): ρ̂, α, every pair's
 * slope and every object pair's slope the same bit for bit; the slots' neighbour counts, which PBF
 * does not read, left as they were.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseScene, createSimulation } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { prepareSolve } from '../../src/particle/solve-setup.ts';
import { factorHalf } from '../../src/particle/pressure-half.ts';
import { measuresAlone, pbfMeasureOne } from '../../src/particle/pbf-measure.ts';

const honey = (density = 1400) => ({ kind: 'liquid' as const, density, viscosity: { value: 5, unit: 'Pa.s' as const } });

const ON_BALL: SceneInput = {
  materials: { honey: honey(), steel: { kind: 'solid' as const } },
  bodies: [
    { material: 'honey', shape: { type: 'box', center: [0, 0.0235, 0], size: [0.03, 0.016, 0.03] } },
    { material: 'steel', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.015 } },
  ],
  particle: { radius: 0.0015 },
};

const MIXED: SceneInput = {
  ...ON_BALL,
  materials: { honey: honey(), syrup: honey(2200), steel: { kind: 'solid' as const } },
  bodies: [
    { material: 'honey', shape: { type: 'box', center: [-0.0075, 0.0235, 0], size: [0.015, 0.016, 0.03] } },
    { material: 'syrup', shape: { type: 'box', center: [0.0075, 0.0235, 0], size: [0.015, 0.016, 0.03] } },
    { material: 'steel', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.015 } },
  ],
};

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

const bytes = (a: Float64Array | Float32Array | Int32Array, len: number) => Buffer.from(a.buffer, a.byteOffset, len * a.BYTES_PER_ELEMENT).toString('base64');

/** Both measures on the scene's liquid, pressed down onto the sphere and jittered. */
function both(scene: SceneInput) {
  const sim = createSimulation(parseScene(scene), 'particle', { workers: 1 }) as ParticleSimulation;
  open.push(sim);
  // One frame first: the objects' cells and the liquid's contact flags as a step leaves them.
  sim.stepFrame();
  const ctx = sim.ctx, L = ctx.liquid, n = L.count;
  let s = 11;
  const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < n; i++) {
    L.pos[3 * i + 1] = 0.015 + (L.pos[3 * i + 1] - 0.015) * 0.93;
    for (let k = 0; k < 3; k++) L.pos[3 * i + k] += (rnd() - 0.5) * 0.3 * ctx.r;
  }
  ctx.adhesionPairsCurrent = false;
  const pr = prepareSolve(ctx), v = pr.v, hr = v.half!;
  const run = (f: () => void) => {
    v.dens.fill(Number.NaN); v.alpha.fill(Number.NaN); v.kg.fill(Number.NaN); v.bg.fill(Number.NaN);
    v.nb.fill(-7);
    f();
    let compressed = 0;
    for (let a = 0; a < n; a++) if (v.dens[a] > 1) compressed++;
    return {
      out: [bytes(v.dens, n), bytes(v.alpha, n), bytes(v.kg, v.ls[n]), bytes(v.bg, v.bs[n])],
      counts: Array.from(v.nb.subarray(0, n)),
      compressed,
    };
  };
  const half = run(() => factorHalf(v, 0, n, hr));
  const pbf = run(() => pbfMeasureOne(v, n, hr));
  return { half, pbf, n, alone: measuresAlone(v, 0, n, n, hr), objectEntries: v.bs[n], uniform: v.uniform };
}

describe('PBF measure on one thread (pbf-measure.ts)', () => {
  it.each([
    ['equal masses', ON_BALL, true],
    ['two densities', MIXED, false],
  ] as const)('gives factorHalf\'s ρ̂, α and slopes bit for bit: %s', (_name, scene, uniform) => {
    const r = both(scene);
    expect(r.uniform).toBe(uniform);
    expect(r.alone).toBe(true);
    // A real test: object pairs in the rows, and a good share of the slots compressed.
    expect(r.objectEntries).toBeGreaterThan(0.3 * r.n);
    expect(r.pbf.compressed).toBeGreaterThan(0.2 * r.n);
    expect(r.pbf.out).toEqual(r.half.out);
    // The counts: factorHalf wrote them, the PBF measure did not.
    expect(r.half.counts.some((k) => k > 0)).toBe(true);
    expect(r.pbf.counts.every((k) => k === -7)).toBe(true);
  });
});
