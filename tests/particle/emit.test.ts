/** Liquid bodies are sampled on the cell centres of a 2r lattice aligned to the body (emit.ts). */
import { describe, expect, it } from 'vitest';
import { particleSim, liquid } from './helpers.ts';

describe('liquid body sampling', () => {
  it('a box from 0 to L = 8 · 2r holds 8³ particles at x = r + 2r·i, its full volume', () => {
    const r = 0.002, L = 16 * r;
    const sim = particleSim({
      gravity: [0, 0, 0],
      materials: { w: liquid(1) },
      bodies: [{ material: 'w', shape: { type: 'box', center: [L / 2, L / 2, L / 2], size: [L, L, L] } }],
      particle: { radius: r },
    });
    const p = sim.fluidPoints();
    expect(p.count).toBe(512);
    let min = Infinity, max = -Infinity;
    for (let i = 0; i < p.count; i++) { min = Math.min(min, p.positions[3 * i]); max = Math.max(max, p.positions[3 * i]); }
    expect(min).toBeCloseTo(r, 6);
    expect(max).toBeCloseTo(L - r, 6);
  });

  it('a sphere of radius R gets its volume within 8 % (lattice roughness at R = 10 r), and a body smaller than a cell one particle', () => {
    const r = 0.002, R = 0.02;
    const sim = particleSim({ materials: { w: liquid(1) }, bodies: [{ material: 'w', shape: { type: 'sphere', center: [0.0013, 0, 0], radius: R } }], particle: { radius: r } });
    const volume = sim.fluidPoints().count * (2 * r) ** 3;
    expect(Math.abs(volume / ((4 / 3) * Math.PI * R ** 3) - 1)).toBeLessThan(0.08);
    const tiny = particleSim({ materials: { w: liquid(1) }, bodies: [{ material: 'w', shape: { type: 'sphere', center: [0.0013, 0, 0], radius: 0.0005 } }], particle: { radius: r } });
    expect(tiny.fluidPoints().count).toBe(1);
  });
});

describe('open domain faces', () => {
  /** A blob moving at `v` (m/s) inside a 10 cm box with slip walls, with the faces given open. */
  const blob = (v: [number, number, number], open: Record<string, 'open'>) =>
    particleSim({
      fps: 30,
      duration: 1,
      domain: { min: [-0.05, 0, -0.05], max: [0.05, 0.1, 0.05], boundary: 'slip', faces: open },
      materials: { w: liquid(0.5) },
      bodies: [{ material: 'w', velocity: v, shape: { type: 'box', center: [0.025, 0.011, 0], size: [0.02, 0.02, 0.02] } }],
      particle: { radius: 0.002, substeps: 2, moves: 2 },
    });

  it('removes liquid that leaves through an open side, where the closed floor would carry it on along its plane', () => {
    const sim = blob([1.5, 0, 0], { xmax: 'open' });
    let removed = sim.stepFrame().counters.removed ?? 0, farthest = -Infinity;
    const start = sim.fluidPoints().count + removed;
    expect(start).toBe(125);
    for (let f = 1; f < 12; f++) {
      removed += sim.stepFrame().counters.removed ?? 0;
      const p = sim.fluidPoints();
      for (let i = 0; i < p.count; i++) farthest = Math.max(farthest, p.positions[3 * i]);
    }
    // At 1.5 m/s the blob crosses x = 5 cm within a few frames; none of it is left beyond the face
    // by more than the liquid's reach plus one sub-timestep's travel.
    expect(removed).toBe(start - sim.fluidPoints().count);
    expect(removed, `${removed} of ${start} removed`).toBeGreaterThan(0.9 * start);
    expect(farthest).toBeLessThan(0.05 + 0.02 + 1.5 / 60);
  });

  it('keeps liquid thrown up through an open top: gravity brings it back', () => {
    const sim = blob([0, 2, 0], { ymax: 'open' });
    let highest = -Infinity, start = 0;
    for (let f = 0; f < 15; f++) {
      expect(sim.stepFrame().counters.removed ?? 0).toBe(0);
      const p = sim.fluidPoints();
      if (f === 0) start = p.count;
      for (let i = 0; i < p.count; i++) highest = Math.max(highest, p.positions[3 * i + 1]);
    }
    expect(start).toBe(125);
    // 2 m/s up from 1 cm rises about 20 cm, well past the top at 10 cm, and all of it comes back.
    expect(highest).toBeGreaterThan(0.15);
    expect(sim.fluidPoints().count).toBe(start);
  });
});

describe('spouts', () => {
  /** Honey from a 6 mm disk at 0.4 m/s, 8 cm above a floor, at 2 mm particles. */
  const pour = () =>
    particleSim({
      fps: 30,
      duration: 1,
      domain: { min: [-0.05, 0, -0.05], max: [0.05, 0.12, 0.05], boundary: 'noslip', faces: { ymax: 'open' } },
      materials: { honey: { ...liquid(5), density: 1420 } },
      sources: [{ material: 'honey', shape: 'disk', center: [0, 0.08, 0], direction: [0, -1, 0], radius: 0.006, speed: 0.4 }],
      particle: { radius: 0.002 },
    });

  it('lets out layers on the face lattice and on the lattice shifted by r, in turn, one layer of each every 2 pitches', () => {
    const sim = pour();
    const [a, b] = sim.emitters.spouts[0].layers;
    expect(a.length / 3).toBe(9); // (0, 0), (±4, 0), (0, ±4), (±4, ±4) mm within 6 mm
    expect(b.length / 3).toBe(4); // (±2, ±2) mm
    sim.stepFrame();
    // The last two layers let out (the highest ids), newest first: one of each lattice (to the mm: density correction has nudged them).
    const L = sim.ctx.liquid, s = sim.emitters.spouts[0];
    const byId = Array.from({ length: L.count }, (_, i) => i).sort((i, j) => L.id[j] - L.id[i]);
    const newest = s.layers[1 - s.next], before = s.layers[s.next];
    const inPlane = (ids: number[]) => ids.map((i) => `${Math.round(L.pos[3 * i] * 1e3)},${Math.round(L.pos[3 * i + 2] * 1e3)}`).sort();
    const lattice = (l: Float64Array) => Array.from({ length: l.length / 3 }, (_, k) => `${Math.round(l[3 * k] * 1e3)},${Math.round(l[3 * k + 2] * 1e3)}`).sort();
    expect(inPlane(byId.slice(0, newest.length / 3))).toEqual(lattice(newest));
    expect(inPlane(byId.slice(newest.length / 3, (newest.length + before.length) / 3))).toEqual(lattice(before));
  });

  it('holds the liquid within the nozzle (the liquid reach below the face) at the spout velocity, as a pipe does', () => {
    const sim = pour();
    for (let f = 0; f < 6; f++) sim.stepFrame();
    const p = sim.fluidPoints(), reach = sim.ctx.reach;
    let inside = 0, below = 0;
    for (let i = 0; i < p.count; i++) {
      const depth = 0.08 - p.positions[3 * i + 1];
      if (depth >= 0 && depth < reach) {
        inside++;
        expect(p.velocities[3 * i + 1]).toBeCloseTo(-0.4, 6);
        expect(Math.abs(p.velocities[3 * i])).toBeLessThan(1e-9);
      } else if (depth > 3 * reach && depth < 0.06) {
        below++;
        expect(p.velocities[3 * i + 1]).toBeLessThan(-0.41); // out of the nozzle, gravity takes over
      }
    }
    expect(inside).toBeGreaterThan(8);
    expect(below).toBeGreaterThan(8);
  });
});
