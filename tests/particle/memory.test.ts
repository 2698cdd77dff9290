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

describe('storage the stages lend each other', () => {
  // A drop onto a resting ball: adhesion, both pressure solves, the implicit viscosity with its
  // object rows, the object contact lists and PBF all run; no body moves and no gel.
  const scene = {
    gravity: [0, -9.81, 0] as [number, number, number],
    materials: { honey: liquid(5, { density: 1400 }), ball: { kind: 'solid' as const, friction: 0.5 } },
    adhesion: [{ between: ['honey', 'ball'] as [string, string], type: 'attract' as const, strength: 10 }],
    bodies: [
      { material: 'ball', shape: { type: 'sphere' as const, center: [0, 0, 0] as [number, number, number], radius: 0.02 } },
      { material: 'honey', shape: { type: 'sphere' as const, center: [0, 0.031, 0] as [number, number, number], radius: 0.011 } },
    ],
    particle: { radius: 0.0012 },
  };

  it('holds no copy or array between stages that another array stands for', () => {
    const sim = particleSim(scene);
    for (let f = 0; f < 3; f++) sim.stepFrame();
    const ctx = sim.ctx;
    // (Twice the liquid's count of 32-bit words in LiquidParticles.scalar: room for the object cells' build.)
    expect(2 * ctx.liquid.count).toBeGreaterThan(ctx.objects.count);
    // The liquid touches the ball: there are object contact lists and object rows to have lent storage.
    expect(ctx.objectLists!.length).toBeGreaterThan(0);
    expect(ctx.viscositySolve!.boundary.length).toBeGreaterThan(0);
    // No body moves: no object velocities (the readers take 0), and the contact lists read the
    // objects' own positions by rank (no rank-ordered copy).
    expect(ctx.objects.anyMoving).toBe(false);
    expect(ctx.objects.vel.length).toBe(0);
    expect('pos' in ctx.objectLists!).toBe(false);
    // Without gel the liquid cells keep no cell per particle; the object cells and PBF's density
    // cells keep none either, and the density cells' order went back to the liquid contacts.
    expect(ctx.cells.grid.pointCell.length).toBe(0);
    expect(ctx.objectCells.grid.pointCell.length).toBe(0);
    expect(ctx.densityCells.grid.pointCell.length).toBe(0);
    expect(ctx.densityCells.grid.order.length).toBe(0);
    // The liquid cells' boxes live within the stages that read them; the viscosity's boundary
    // starts within its call.
    expect(ctx.cells.box.length).toBe(0);
    expect(ctx.viscositySolve!.boundary.start.length).toBe(0);
    // Its boundary entries and their coefficients, and the ghosts' starts, in the stage buffer past
    // the call's pair codes (viscosity-weiler-boundary.ts CallRoom); PBF's density cells' dense
    // block in the liquid contacts' room past the cells' point order, given back at its end.
    expect(ctx.viscositySolve!.boundary.j.length).toBe(0);
    expect(ctx.viscositySolve!.bcoef.length).toBe(0);
    expect(ctx.viscositySolve!.ghosts.start.length).toBe(0);
    expect(ctx.densityCells.denseBlock()).toBeNull();
  });

  it('steps a scene where a body moves, whose objects keep their velocities, to a liquid that stays finite', () => {
    const sim = particleSim({
      ...scene,
      bodies: [
        { ...scene.bodies[0], motion: { type: 'linear', velocity: [0, 0.05, 0] } },
        scene.bodies[1],
      ],
    } as never);
    for (let f = 0; f < 2; f++) sim.stepFrame();
    expect(sim.ctx.objects.anyMoving).toBe(true);
    expect(sim.ctx.objects.vel.length).toBe(3 * sim.ctx.objects.count);
    const vel = sim.ctx.liquid.vel.subarray(0, 3 * sim.ctx.liquid.count);
    expect(vel.every(Number.isFinite)).toBe(true);
  });
});
