/**
 * The surface-particle test the engine runs (src/particle/surface.ts markSurface, Steele
 * "Rendering": the centroid test with θ and t_s over the density kernel's sphere): on lattice
 * blocks the faces are flagged with outward unit normals and the interior is not (round-off at
 * the sampling radius included), a lone particle is a surface particle with no normal, and a
 * larger θ flags at least as many particles.
 */
import { describe, expect, it } from 'vitest';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { markSurface } from '../../src/particle/surface.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { lcg, liquid, particleSim } from './helpers.ts';

const r = 0.005, spacing = 2 * r;

/** The flags and normals markSurface gives the particles at `positions` (or a lattice block of n³ at `center`), with lattice indices. */
function run(opts: { n?: number; center?: number; jitter?: number; positions?: number[]; theta?: number }) {
  const n = opts.n ?? 1, c = opts.center ?? 0;
  const input: SceneInput = {
    gravity: [0, 0, 0],
    materials: { w: liquid(1) },
    bodies: [{ material: 'w', shape: { type: 'box', center: [c, c, c], size: [n * spacing, n * spacing, n * spacing] } }],
    particle: { radius: r, surfaceAngle: opts.theta ?? 10 },
  };
  const sim = particleSim(input), ctx = sim.ctx, L = ctx.liquid;
  if (opts.positions) {
    L.count = 0;
    for (let k = 0; k < opts.positions.length; k += 3) L.add(opts.positions[k], opts.positions[k + 1], opts.positions[k + 2], 0, 0, 0, 0);
  }
  const count = L.count;
  // The lattice's corner, before any jitter (at most 0.2 spacings: rounding still finds the site).
  let x0 = Infinity;
  for (let o = 0; o < 3 * count; o++) x0 = Math.min(x0, L.pos[o]);
  if (opts.jitter) {
    const rnd = lcg(9);
    for (let o = 0; o < 3 * count; o++) L.pos[o] += 2 * opts.jitter * spacing * (rnd() - 0.5);
  }
  ctx.cells.buildSorted(L);
  computeAdhesion(ctx);
  const flagged = markSurface(ctx);
  const cells = Array.from({ length: count }, (_, i) => [0, 1, 2].map((a) => Math.round((L.pos[3 * i + a] - x0) / spacing)));
  return { flagged, count, cells, flags: L.surface.slice(0, count), normals: L.normal.slice(0, 3 * count), h: ctx.densityH };
}

describe('surface particles (markSurface)', () => {
  it('lattice block: faces flagged with outward unit normals, the interior not', () => {
    const n = 10, { flagged, count, cells, flags, normals, h } = run({ n });
    expect(count).toBe(n ** 3);
    const depth = Math.ceil(h / spacing); // deeper than the sampling radius: a full neighbourhood
    let onFaces = 0;
    for (let q = 0; q < count; q++) {
      const ijk = cells[q];
      const onFace = ijk.some((c) => c === 0 || c === n - 1);
      const interior = ijk.every((c) => c >= depth && c <= n - 1 - depth);
      if (onFace) {
        onFaces++;
        expect(flags[q]).toBe(1);
        // Outward: towards the faces the particle lies on (within ~30°: near an edge or corner the
        // neighbourhood is also cut by the faces the particle is close to but not on).
        const out = ijk.map((c) => (c === 0 ? -1 : c === n - 1 ? 1 : 0));
        const dot = out[0] * normals[3 * q] + out[1] * normals[3 * q + 1] + out[2] * normals[3 * q + 2];
        expect(dot / Math.hypot(...out)).toBeGreaterThan(0.85);
        expect(Math.hypot(normals[3 * q], normals[3 * q + 1], normals[3 * q + 2])).toBeCloseTo(1, 5);
      }
      if (interior) {
        expect(flags[q]).toBe(0);
        expect([normals[3 * q], normals[3 * q + 1], normals[3 * q + 2]]).toEqual([0, 0, 0]);
      }
    }
    expect(onFaces).toBe(n ** 3 - (n - 2) ** 3);
    expect(flagged).toBe(flags.reduce((a, b) => a + b, 0));
    expect(flagged).toBeGreaterThanOrEqual(onFaces);
  });

  it('the sampling radius exactly two spacings off round numbers: round-off does not flag the interior', () => {
    // Coordinates not exactly representable: neighbours at exactly h fall in or out by round-off, unevenly.
    const n = 16, { flagged } = run({ n, center: 0.0037 });
    expect(flagged).toBe(n ** 3 - (n - 2) ** 3);
  });

  it('jittered block: faces flagged, the deep interior not, the top face\'s normals up', () => {
    const n = 12, { cells, flags, normals } = run({ n, jitter: 0.1 });
    let faceFlagged = 0, faces = 0, deepFlagged = 0;
    for (let q = 0; q < cells.length; q++) {
      const ijk = cells[q];
      if (ijk.every((c) => c >= 3 && c <= n - 4)) deepFlagged += flags[q];
      if (ijk[1] === n - 1 && ijk[0] > 0 && ijk[0] < n - 1 && ijk[2] > 0 && ijk[2] < n - 1) {
        faces++;
        faceFlagged += flags[q];
        expect(normals[3 * q + 1]).toBeGreaterThan(0.8);
      }
    }
    expect(faces).toBe((n - 2) ** 2);
    expect(faceFlagged).toBe(faces);
    expect(deepFlagged).toBe(0);
  });

  it('a lone particle is a surface particle with a zero normal; a pair gives opposite normals', () => {
    const lone = run({ positions: [0, 0, 0, 1, 1, 1] });
    expect(lone.flagged).toBe(2);
    expect(Array.from(lone.normals.subarray(0, 3))).toEqual([0, 0, 0]);
    const pair = run({ positions: [0, 0, 0, 1.5 * spacing, 0, 0] });
    expect(pair.flagged).toBe(2);
    const nx = [pair.normals[0], pair.normals[3]].sort((a, b) => a - b);
    expect(nx[0]).toBeCloseTo(-1, 6);
    expect(nx[1]).toBeCloseTo(1, 6);
  });

  it('a larger θ flags at least as many particles (θ widens the centroid side)', () => {
    const counts = [0, 10, 30, 60].map((theta) => run({ n: 10, jitter: 0.2, theta }).flagged);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(counts[i - 1]);
    expect(counts[3]).toBeGreaterThan(counts[0]);
  });
});
