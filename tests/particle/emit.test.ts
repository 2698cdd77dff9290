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

  it('lets out the points of the face lattice and of the lattice shifted by r one at a time, each about the golden angle round the axis from the last', () => {
    const sim = pour();
    const s = sim.emitters.spouts[0], m = s.points.length / 3;
    // 9 of the face lattice, (0, 0), (±4, 0), (0, ±4), (±4, ±4) mm within 6 mm, and 4 of the shifted one, (±2, ±2) mm.
    expect(m).toBe(13);
    const mm = (l: ArrayLike<number>, k: number) => `${Math.round(l[3 * k] * 1e3)},${Math.round(l[3 * k + 2] * 1e3)}`;
    expect(Array.from({ length: m }, (_, k) => mm(s.points, k)).sort()).toEqual(
      ['-2,-2', '-2,2', '-4,-4', '-4,0', '-4,4', '0,-4', '0,0', '0,4', '2,-2', '2,2', '4,-4', '4,0', '4,4'].sort(),
    );
    // Each at least a quarter turn round the axis from the last (13 points, 12 of them on 8 rays: a
    // stride of 5 in angle order, about the golden angle's 137.5° on average).
    const angle = (k: number) => Math.atan2(s.points[3 * k + 2], s.points[3 * k]);
    for (let k = 1; k < m; k++) {
      if (Math.hypot(s.points[3 * k], s.points[3 * k + 2]) < 1e-9 || Math.hypot(s.points[3 * k - 3], s.points[3 * k - 1]) < 1e-9) continue;
      const turn = Math.abs(((angle(k) - angle(k - 1) + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
      expect(turn).toBeGreaterThanOrEqual(Math.PI / 2 - 1e-9);
    }
    // A particle a column step: (2r)³ over the disk's area.
    expect(s.step).toBeCloseTo(0.004 ** 3 / (Math.PI * 0.006 ** 2), 12);
    sim.stepFrame();
    // The last 13 let out (the highest ids) are every point once (within 1 mm: density correction
    // has nudged them), and each was let out a step after the one before it: the newest is nearest the
    // face, all within the nozzle, still at the spout's speed.
    const L = sim.ctx.liquid;
    const byId = Array.from({ length: L.count }, (_, i) => i).sort((i, j) => L.id[j] - L.id[i]).slice(0, m);
    const nearest = byId.map((i) => {
      let best = 0, bd = Infinity;
      for (let k = 0; k < m; k++) {
        const d = Math.hypot(L.pos[3 * i] - s.points[3 * k], L.pos[3 * i + 2] - s.points[3 * k + 2]);
        if (d < bd) { bd = d; best = k; }
      }
      expect(bd).toBeLessThan(0.001);
      return best;
    });
    expect(new Set(nearest).size).toBe(m);
    const depth = byId.map((i) => 0.08 - L.pos[3 * i + 1]);
    const spread = Math.max(...depth) - Math.min(...depth);
    expect(spread).toBeGreaterThan(0.5 * (m - 1) * s.step);
    expect(spread).toBeLessThan(1.5 * (m - 1) * s.step);
  });

  it("places each particle where the column puts it whatever the pieces' lengths, and a frame's end lets out what its last piece let out", () => {
    const sim = pour();
    const em = sim.emitters, ctx = sim.ctx, L = ctx.liquid, s = em.spouts[0];
    // Pieces of changing length, as particle.maxMove cuts sub-timesteps; each piece's moves carry the
    // liquid on at the nozzle's speed (no other stage runs here).
    const lengths = [1 / 240, 1 / 480, 1 / 480, 1 / 240, 1 / 720, 1 / 720, 1 / 720, 1 / 240];
    let t = 0;
    for (let rep = 0; rep < 4; rep++) {
      for (const dt of lengths) {
        em.apply(ctx, t, dt);
        for (let i = 0; i < 3 * L.count; i++) L.pos[i] += L.vel[i] * dt;
        t += dt;
      }
    }
    em.letOutColumn(ctx);
    // All the column let out by t, one particle a step of it: area × speed × time.
    expect(L.count).toBe(Math.floor((0.4 * t) / s.step + 1e-9));
    // The k-th let out left the face when the column was (k + 1) steps long: it stands that far
    // below the column's front, one step from the next (placed where it would be at the piece's end
    // and then moved on, it stood a piece's travel too far out: docs/decisions.md, emit62).
    for (let k = 0; k < L.count; k++) expect(0.08 - L.pos[3 * k + 1]).toBeCloseTo(0.4 * t - (k + 1) * s.step, 12);
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
