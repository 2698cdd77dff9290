/**
 * The outline measure of tests/grid/rim-outline.ts on footprints drawn by hand: a disc is smooth
 * (no roughness, no spikes, no excess length beyond the raster's), and the same disc with a
 * notch a cell deep every 4 cells of rim (soap-pour's crenellated pool, honey-coil's spiked pile)
 * reads its notches, its depth and its extra length.
 */
import { describe, expect, it } from 'vitest';
import { rimOutline } from './rim-outline.ts';

/** A flat fan of triangles round (0, 0) on the floor whose rim is radius(θ), in 2 000 directions. */
function fan(radius: (t: number) => number): { positions: Float32Array; indices: Uint32Array } {
  const n = 2000;
  const positions = new Float32Array(3 * (n + 1));
  const indices = new Uint32Array(3 * n);
  for (let q = 0; q < n; q++) {
    const t = (2 * Math.PI * q) / n, r = radius(t);
    positions.set([r * Math.cos(t), 0, r * Math.sin(t)], 3 * (q + 1));
    indices.set([0, q + 1, ((q + 1) % n) + 1], 3 * q);
  }
  return { positions, indices };
}

describe('rim outline', () => {
  const h = 0.004, R = 0.05;
  it('a disc is smooth: roughness and extra length below what a raster of h/16 makes', () => {
    const o = rimOutline(fan(() => R), { h });
    expect(o.rim).toBeGreaterThan(R - h / 8);
    expect(o.rim).toBeLessThan(R + h / 16);
    expect(o.roughness).toBeLessThan(0.03);
    expect(o.spikes + o.notches).toBe(0);
    expect(o.excessLength).toBeLessThan(0.01);
  });

  it('notches a cell deep every 4 cells of rim are counted, and lengthen the outline', () => {
    const period = (4 * h) / R; // radians between notches
    const notched = (t: number) => {
      const u = ((t % period) + period) % period / period; // 0..1 within a period
      return R - h * Math.max(0, 1 - Math.abs(u - 0.5) / 0.125); // a V a cell deep, a cell wide
    };
    const o = rimOutline(fan(notched), { h });
    const expected = 0.1 / (4 * h); // notches per 10 cm
    console.log(`notched: roughness ${o.roughness.toFixed(3)} h, ${o.notches.toFixed(1)} notches / 10 cm (drawn ${expected.toFixed(1)}), length +${(100 * o.excessLength).toFixed(1)} %`);
    expect(o.notches).toBeGreaterThan(0.8 * expected);
    expect(o.notches).toBeLessThan(1.2 * expected);
    expect(o.roughness).toBeGreaterThan(0.2);
    expect(o.excessLength).toBeGreaterThan(0.1);
  });

  it('a speck lying apart beyond the rim is not the rim', () => {
    const disc = fan(() => R);
    const speck = fan(() => h / 2);
    for (let v = 0; v < speck.positions.length; v += 3) speck.positions[v] += R + 3 * h;
    const positions = new Float32Array(disc.positions.length + speck.positions.length);
    positions.set(disc.positions); positions.set(speck.positions, disc.positions.length);
    const off = disc.positions.length / 3;
    const indices = new Uint32Array(disc.indices.length + speck.indices.length);
    indices.set(disc.indices); indices.set(speck.indices.map((i) => i + off), disc.indices.length);
    const o = rimOutline({ positions, indices }, { h });
    expect(o.spikes).toBe(0);
    expect(o.roughness).toBeLessThan(0.03);
  });
});
