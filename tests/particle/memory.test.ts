/**
 * Metrics.memoryBytes: the typed arrays a simulation holds, each buffer counted once at its
 * capacity (src/engines.ts heldBytes), which `viscid bench` reports as bytes per point.
 */
import { describe, expect, it } from 'vitest';
import { heldBytes } from '../../src/engines.ts';
import { particleSim, liquid } from './helpers.ts';

describe('heldBytes', () => {
  it('counts each buffer once, through objects, arrays and Maps, and skips what it is told to', () => {
    const shared = new Float64Array(100);
    const skipped = { big: new Uint8Array(1 << 20) };
    const root = {
      a: shared,
      view: new Float32Array(shared.buffer, 0, 4),
      list: [new Int32Array(10), { deep: new Uint8Array(3) }],
      map: new Map<string, unknown>([['k', new Float32Array(5)]]),
      // A bare buffer (a stage scratch that hands out views), and a view of it counted with it.
      bare: new ArrayBuffer(64),
      self: null as unknown,
      skipped,
    };
    root.self = root;
    (root as Record<string, unknown>).bareView = new Uint8Array(root.bare, 8, 8);
    expect(heldBytes(root, [skipped])).toBe(800 + 40 + 3 + 20 + 64);
  });
});

describe('particle engine memory', () => {
  it('reports the arrays it holds, growing with the particles and including stage scratch', () => {
    const make = (size: number) =>
      particleSim({
        gravity: [0, -9.81, 0],
        materials: { w: liquid(1) },
        bodies: [{ material: 'w', shape: { type: 'box', center: [0, 0, 0], size: [size, size, size] } }],
        particle: { radius: 0.004 },
      });
    const small = make(0.04), large = make(0.08);
    const before = small.metrics().memoryBytes!;
    small.stepFrame();
    large.stepFrame();
    const a = small.metrics(), b = large.metrics();
    // Stepping allocates the cells, pair lists and scratch: more than the particle arrays alone.
    expect(a.memoryBytes!).toBeGreaterThan(before);
    expect(small.ctx.solve).toBeDefined(); // the default densitySolver "pbf" (solve-setup.ts)
    expect(small.ctx.viscositySolve).toBeDefined(); // the default implicit viscosity (viscosity-weiler.ts)
    // Per particle it is about the same at 8× the particles (no per-scene constant dominates).
    const perA = a.memoryBytes! / a.pointCount, perB = b.memoryBytes! / b.pointCount;
    expect(b.pointCount).toBeGreaterThan(7 * a.pointCount);
    expect(perB / perA).toBeGreaterThan(0.5);
    expect(perB / perA).toBeLessThan(1.5);
    // Positions, velocities and accelerations alone are 72 bytes a particle.
    expect(perB).toBeGreaterThan(72);
  });
});
