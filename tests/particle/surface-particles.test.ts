import { describe, expect, it } from 'vitest';
import { findSurfaceParticles } from '../../src/particle/surface-particles.ts';
import { HashGrid } from '../../src/spatial/hash-grid.ts';
import { rng } from '../scene/geometry-helpers.ts';

const spacing = 0.01;

/** An n × n × n lattice block with corner at the origin, optionally jittered by ±jitter·spacing. */
function block(n: number, jitter = 0, seed = 1): Float64Array {
  const rand = rng(seed);
  const p = new Float64Array(3 * n * n * n);
  let o = 0;
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    p[o++] = (i + 2 * jitter * (rand() - 0.5)) * spacing;
    p[o++] = (j + 2 * jitter * (rand() - 0.5)) * spacing;
    p[o++] = (k + 2 * jitter * (rand() - 0.5)) * spacing;
  }
  return p;
}

function run(positions: Float64Array | Float32Array, radius: number, cellSize: number, theta = 10, ratio = 0.5) {
  const count = positions.length / 3;
  const grid = new HashGrid(cellSize);
  grid.build(positions, count);
  const flags = new Uint8Array(count), normals = new Float32Array(3 * count);
  const n = findSurfaceParticles(grid, positions, count, radius, theta, ratio, flags, normals);
  return { n, flags, normals };
}

describe('findSurfaceParticles (Steele "Rendering": centroid test with θ and t_s)', () => {
  const n = 10;
  for (const radius of [1.5 * spacing, 2 * spacing, 2.5 * spacing]) {
    it(`lattice block, radius ${radius / spacing} spacings: faces flagged with outward normals, interior not`, () => {
      const p = block(n);
      const { n: flagged, flags, normals } = run(p, radius, radius);
      const depth = Math.ceil(radius / spacing); // deeper than the sampling radius: a full neighbourhood
      for (let q = 0; q < n * n * n; q++) {
        const ijk = [Math.round(p[3 * q] / spacing), Math.round(p[3 * q + 1] / spacing), Math.round(p[3 * q + 2] / spacing)];
        const onFace = ijk.some((c) => c === 0 || c === n - 1);
        const interior = ijk.every((c) => c >= depth && c <= n - 1 - depth);
        if (onFace) {
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
      expect(flagged).toBe(flags.reduce((a, b) => a + b, 0));
      expect(flagged).toBeGreaterThanOrEqual(n ** 3 - (n - 2) ** 3);
    });
  }

  it('radius exactly two spacings: round-off on the sphere boundary does not flag the interior', () => {
    // Offset so that coordinates are not exactly representable: neighbours at exactly the radius
    // fall in or out by round-off, unevenly.
    const p = block(16).map((x) => x + 0.0037);
    const { n: flagged } = run(p, 2 * spacing, 2 * spacing);
    expect(flagged).toBe(16 ** 3 - 14 ** 3);
  });

  it('jittered block: faces flagged, deep interior not, and normals roughly outward', () => {
    const p = block(12, 0.1, 9);
    const { flags, normals } = run(new Float32Array(p), 2.5 * spacing, 1.3 * spacing);
    let faceFlagged = 0, faces = 0, deepFlagged = 0;
    for (let q = 0; q < 12 ** 3; q++) {
      const ijk = [0, 1, 2].map((a) => Math.round(p[3 * q + a] / spacing));
      if (ijk.every((c) => c >= 3 && c <= 8)) deepFlagged += flags[q];
      if (ijk[1] === 11 && ijk[0] > 0 && ijk[0] < 11 && ijk[2] > 0 && ijk[2] < 11) {
        faces++;
        faceFlagged += flags[q];
        expect(normals[3 * q + 1]).toBeGreaterThan(0.8); // top face: +y
      }
    }
    expect(faceFlagged).toBe(faces);
    expect(deepFlagged).toBe(0);
  });

  it('does not depend on the cell size or the order of the particles', () => {
    const p = block(8, 0.15, 4);
    const count = p.length / 3;
    const ref = run(p, 2 * spacing, 2 * spacing);
    for (const cell of [spacing, 1.1 * spacing, 4 * spacing]) {
      const r = run(p, 2 * spacing, cell);
      expect(r.flags).toEqual(ref.flags);
      expect(r.normals).toEqual(ref.normals);
    }
    // Reversed order: same flags per particle.
    const rev = new Float64Array(p.length);
    for (let q = 0; q < count; q++) rev.set(p.subarray(3 * q, 3 * q + 3), 3 * (count - 1 - q));
    const r = run(rev, 2 * spacing, 2 * spacing);
    for (let q = 0; q < count; q++) expect(r.flags[count - 1 - q]).toBe(ref.flags[q]);
  });

  it('a lone particle is a surface particle with a zero normal; a pair gives opposite normals', () => {
    const lone = run(new Float64Array([0, 0, 0, 1, 1, 1]), 0.1, 0.1);
    expect(lone.n).toBe(2);
    expect([...lone.normals.subarray(0, 3)]).toEqual([0, 0, 0]);
    const pair = run(new Float64Array([0, 0, 0, 0.05, 0, 0]), 0.1, 0.1);
    expect(pair.n).toBe(2);
    expect(pair.normals[0]).toBeCloseTo(-1, 6);
    expect(pair.normals[3]).toBeCloseTo(1, 6);
  });

  it('a larger θ flags at least as many particles (θ extends the centroid side)', () => {
    const p = block(10, 0.2, 2);
    const counts = [0, 10, 30, 60].map((theta) => run(p, 2.5 * spacing, 2.5 * spacing, theta).n);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(counts[i - 1]);
  });
});
