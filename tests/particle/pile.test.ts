/**
 * tests/particle/pile.ts, the particle pile's column map, on built piles: a flat round pool of
 * particles on a lattice reads flat, as high as its top layer's top, and as wide as its particles' disk (within 2r);
 * the same pool with a ridge on one side reads the ridge's height as relief; a lump held over the
 * floor by a gap ends its column at the gap.
 */
import { describe, expect, it } from 'vitest';
import type { FluidPoints } from '../../src/types/geometry.ts';
import { measureParticlePile } from './pile.ts';

const r = 0.002, min = [-0.1, 0, -0.1], max = [0.1, 0.25, 0.1];

function points(list: number[][]): FluidPoints {
  const positions = new Float32Array(3 * list.length);
  list.forEach((p, i) => positions.set(p, 3 * i));
  return { count: list.length, positions, velocities: new Float32Array(3 * list.length), materials: new Uint16Array(list.length) };
}

/** A round pool `layers` particles deep, radius `R`, on a lattice of spacing 2r. */
function pool(R: number, layers: number): number[][] {
  const out: number[][] = [];
  for (let x = -R; x <= R; x += 2 * r) for (let z = -R; z <= R; z += 2 * r) {
    if (Math.hypot(x, z) > R) continue;
    for (let l = 0; l < layers; l++) out.push([x, r + 2 * r * l, z]);
  }
  return out;
}

describe('the particle pile', () => {
  it('a flat pool reads flat: its top layer\'s top, no relief, its particles\' disk', () => {
    const p = measureParticlePile(points(pool(0.05, 3)), r, min, max);
    expect(p.height).toBeCloseTo(6 * r, 6);
    expect(p.relief).toBeLessThan(0.0002);
    expect(Math.abs(p.radius - 0.05)).toBeLessThan(2 * r);
  });

  it('a ridge 4 layers high on one side reads as relief of millimetres', () => {
    const list = pool(0.05, 3);
    for (let x = 0.03; x <= 0.04; x += 2 * r) for (let z = -0.01; z <= 0.01; z += 2 * r) for (let l = 3; l < 7; l++) list.push([x, r + 2 * r * l, z]);
    const p = measureParticlePile(points(list), r, min, max);
    expect(p.height).toBeCloseTo(14 * r, 6);
    expect(p.relief).toBeGreaterThan(0.003);
  });

  it('a lump over a gap of more than r ends its column at the gap (the fold\'s underside)', () => {
    const list = pool(0.05, 1);
    for (let x = 0.03; x <= 0.036; x += 2 * r) for (let z = -0.004; z <= 0.004; z += 2 * r) list.push([x, 0.02, z]);
    const p = measureParticlePile(points(list), r, min, max);
    expect(p.height).toBeCloseTo(2 * r, 6);
  });
});
