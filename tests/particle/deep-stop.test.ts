/**
 * The pressure solve's stop rule in deep water (src/particle/pressure.ts depthTolerance,
 * stopTolerance): a solve stopped at a mean residual η a sub-timestep leaves a column motion up to
 * about η h / δt, so the rule takes η ≤ REST_BOUNCE √(g/h) δt where that is under
 * PRESSURE_TOLERANCE, h read from the largest stored pressure of the filtered (water-like) liquid.
 * The column's vertical mode (bench/column-mode.ts: 4.8 × 20 cm of water on its lattice, the heights
 * squashed by 0.3 %, one sub-timestep of 1/240 s a frame): at PRESSURE_TOLERANCE its mean vertical
 * velocity swings to 20.8 mm/s (0.015 √(g h)) and keeps 0.76 of it a cycle; with the rule the
 * largest swing is 4.9 mm/s (docs/decisions.md "A stop rule that does not grow with depth").
 * The rule applies only while the filtered liquid is near rest (still-water.ts stillWater: its largest
 * speed under REST_ENTER √(g h), until it passes REST_LEAVE √(g h)): a collapsing column keeps
 * PRESSURE_TOLERANCE and its passes, PBF feeds the stored pressure only near rest (feedsWarmStart), and
 * the state (SolveState.stillWater) rides in the checkpoint.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulation, parseScene, restoreSimulation } from '../../src/index.ts';
import { DEEP_PASSES, PRESSURE_TOLERANCE, REST_BOUNCE, stopTolerance } from '../../src/particle/pressure.ts';
import { feedsWarmStart, gatePressure, pbfLeftOver, REST_ENTER, REST_LEAVE, stillWater, stillWaterOf } from '../../src/particle/still-water.ts';
import { densityTolerance } from '../../src/particle/solve-setup.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { poolScene, sim } from './physics-cases.ts';

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

describe('the pressure stop rule in deep water', () => {
  it('is PRESSURE_TOLERANCE in shallow liquid and REST_BOUNCE √(g/h) δt where that is less', () => {
    const g = 9.81;
    // 5 cm at 1/120 s: REST_BOUNCE √(g/h) δt = 2.3e-4, over PRESSURE_TOLERANCE.
    expect(stopTolerance(g, 1 / 120, g * 0.05)).toBe(PRESSURE_TOLERANCE);
    // 20 cm at 1/240 s: 5.8e-5.
    expect(stopTolerance(g, 1 / 240, g * 0.2)).toBeCloseTo(REST_BOUNCE * Math.sqrt(g / 0.2) / 240, 12);
    expect(stopTolerance(g, 1 / 240, g * 0.2)).toBeLessThan(PRESSURE_TOLERANCE / 3);
    // No stored pressure (a run's start, a liquid the filter does not damp), or no gravity.
    expect(stopTolerance(g, 1 / 240, 0)).toBe(PRESSURE_TOLERANCE);
    expect(stopTolerance(0, 1 / 240, 2)).toBe(PRESSURE_TOLERANCE);
    expect(DEEP_PASSES).toBeGreaterThan(1);
  });

  it('leaves a squashed 20 cm water column a swing of its mean vertical velocity under 0.005 √(g h) (20.8 mm/s, 0.015, at PRESSURE_TOLERANCE)', () => {
    const depth = 0.2, width = 0.048, r = 0.004, fps = 240, squash = 0.003;
    const s = sim(poolScene({ r, depth, width, nu: 1e-6, fps, duration: 1, adhesion: 'default', particle: { radius: r, substeps: 1 } }));
    open.push(s);
    const L = s.ctx.liquid, n = L.count;
    let floor = Infinity;
    for (let i = 0; i < n; i++) floor = Math.min(floor, L.pos[3 * i + 1]);
    for (let i = 0; i < n; i++) L.pos[3 * i + 1] = floor + (L.pos[3 * i + 1] - floor) * (1 - squash);
    let swing = 0, deep = 0;
    // 0.25 s: the first cycle and a half of the mode at PRESSURE_TOLERANCE (4.6 Hz, its first peak at 0.08 s).
    for (let f = 0; f < 60; f++) {
      const st = s.stepFrame();
      deep += st.counters.pressureDeep ?? 0;
      let v = 0;
      for (let i = 0; i < n; i++) v += L.vel[3 * i + 1];
      swing = Math.max(swing, Math.abs(v / n));
    }
    expect(deep).toBeGreaterThan(0);
    expect(swing / Math.sqrt(9.81 * depth)).toBeLessThan(0.005);
  });

  it('is taken near rest only: under REST_ENTER √(g h) to enter, over REST_LEAVE √(g h) to leave', () => {
    const p = 9.81 * 0.2, u = Math.sqrt(p);
    expect(REST_LEAVE).toBeGreaterThan(REST_ENTER);
    const between = 0.5 * (REST_ENTER + REST_LEAVE) * u;
    expect(stillWater(false, 0.9 * REST_ENTER * u, p)).toBe(true);
    expect(stillWater(false, between, p)).toBe(false);
    expect(stillWater(true, between, p)).toBe(true);
    expect(stillWater(true, 1.1 * REST_LEAVE * u, p)).toBe(false);
    // No filtered pressure (a run's start, honey): the state stays.
    expect(stillWater(true, 10, 0)).toBe(true);
    expect(stillWater(false, 0, 0)).toBe(false);
    // PBF feeds the warm start while still: a run's start is moving, and so takes no feed, unless
    // PBF is left with compression where no liquid is filtered.
    expect(feedsWarmStart(true)).toBe(true);
    expect(feedsWarmStart(false)).toBe(false);
    expect(feedsWarmStart(false, true)).toBe(true);
  });

  it('reads every liquid where none is filtered: a jello cube takes no PBF feed from its fall through its rebound, a honey pool at rest takes it', () => {
    // scenes/jello-drop.json as shipped, 2 mm (1 Pa·s: the filter leaves it alone, filteredPressure 0; at 4 mm its
    // springs cut a sub-timestep into 5 pieces, δt 1.7 ms, short enough for the filter to act, gel.ts): fed
    // in flight and on impact it sprang back to 1.30 of its rest height at 2 mm (docs/decisions.md
    // "Liquid in motion takes no PBF feed"). Frames 1–8: the fall (3), the impact (4) and the rebound.
    const jello = JSON.parse(readFileSync(new URL('../../scenes/jello-drop.json', import.meta.url), 'utf8'));
    jello.particle = { ...jello.particle, radius: 0.002 };
    const j = createSimulation(parseScene(jello), 'particle') as ParticleSimulation;
    open.push(j);
    let pressed = 0;
    for (let f = 0; f < 8; f++) {
      j.stepFrame();
      expect(j.ctx.solve!.filteredPressure).toBe(0);
      // PBF takes the impact within its passes (4–6 at 2 mm, never its cap): not left with compression.
      expect(feedsWarmStart(stillWaterOf(j.ctx), pbfLeftOver(j.ctx, densityTolerance(j.ctx))), `frame ${f + 1}`).toBe(false);
      pressed = Math.max(pressed, gatePressure(j.ctx));
    }
    // The gate read the gel's own pressure (p/ρ0 past g times its 5.5 cm on impact).
    expect(pressed).toBeGreaterThan(9.81 * 0.055);
    // A 5 cm pool of a liquid as viscous as thin honey (ν 0.01 m²/s, unfiltered) still from its start: the feed opens.
    const r = 0.004, honey = sim(poolScene({ r, depth: 0.05, width: 0.048, nu: 0.01, fps: 240, duration: 1, adhesion: 'default', particle: { radius: r, substeps: 1 } }));
    open.push(honey);
    for (let f = 0; f < 4; f++) honey.stepFrame();
    expect(honey.ctx.solve!.filteredPressure).toBe(0);
    expect(feedsWarmStart(stillWaterOf(honey.ctx))).toBe(true);
  });

  it('feeds a viscous pool settling from its lattice while PBF is left with compression: it sinks under 1 % of its depth, not 2.7 %', () => {
    // The hydrostatic validation's pool (src/compare/validate/hydrostatic.ts, full size: 8 × 8 cm,
    // 4.8 cm deep, 2.5 mm particles, ν 1e-3 m²/s, unfiltered, no cohesion). Its start's pressure
    // (the cold solve from the lattice) is short of its weight, it falls into PBF at its cap (1.5–2.5 %
    // of mean compression in frame 1) and moves past REST_LEAVE √(g h); unfed while it moved, it sank
    // 3.6 % of its depth in frame 1 and 2.7 % by 1 s (docs/decisions.md "The feed where PBF is left
    // with compression"). Fed while PBF is left with compression: back within 1 % by frame 6.
    const L = 0.08, d = 0.048;
    const pool = createSimulation(parseScene({
      name: 'settling', fps: 30, duration: 0.2, domain: { min: [0, 0, 0], max: [L, 1.5 * d, L], boundary: 'noslip' },
      materials: { liquid: { kind: 'liquid', density: 1000, viscosity: { value: 1e-3, unit: 'm2/s' } } },
      adhesion: [{ between: ['liquid', 'liquid'], type: 'attract', strength: 0 }],
      bodies: [{ material: 'liquid', shape: { type: 'box', center: [L / 2, d / 2, L / 2], size: [L, d, L] } }],
      particle: { radius: 0.0025 },
    }), 'particle') as ParticleSimulation;
    open.push(pool);
    const P = pool.ctx.liquid;
    const height = (): number => {
      let y = 0;
      for (let i = 0; i < P.count; i++) y += P.pos[3 * i + 1];
      return y / P.count;
    };
    const y0 = height();
    let fedMoving = 0;
    for (let f = 0; f < 6; f++) {
      pool.stepFrame();
      if (!stillWaterOf(pool.ctx) && feedsWarmStart(false, pbfLeftOver(pool.ctx, densityTolerance(pool.ctx)))) fedMoving++;
    }
    expect(pool.ctx.solve!.filteredPressure).toBe(0);
    expect(fedMoving).toBeGreaterThan(0);
    expect(Math.abs(height() - y0) / d).toBeLessThan(0.01);
  });

  it('leaves a collapsing 60 cm water column (the dam break at 2 cm particles) at PRESSURE_TOLERANCE, and a still pool\'s state resumes from a checkpoint', () => {
    const dam = JSON.parse(readFileSync(new URL('../../scenes/dam-break.json', import.meta.url), 'utf8'));
    dam.particle = { ...dam.particle, radius: 0.02 };
    const d = createSimulation(parseScene(dam), 'particle') as ParticleSimulation;
    open.push(d);
    let deep = 0, passes = 0, subs = 0;
    for (let f = 0; f < 3; f++) {
      const c = d.stepFrame().counters;
      if (f > 0) { deep += c.pressureDeep ?? 0; passes += c.pressurePasses ?? 0; subs += c.substeps ?? 0; }
    }
    expect(stillWaterOf(d.ctx)).toBe(false);
    expect(d.ctx.solve!.filteredPressure).toBeGreaterThan(0);
    expect(feedsWarmStart(stillWaterOf(d.ctx))).toBe(false);
    expect(deep).toBe(0);
    // Two solves a sub-timestep at 2 and 1 passes at most (not DEEP_PASSES times them).
    expect(passes / subs).toBeLessThanOrEqual(3);

    const depth = 0.2, width = 0.048, r = 0.004;
    const a = sim(poolScene({ r, depth, width, nu: 1e-6, fps: 240, duration: 1, adhesion: 'default', particle: { radius: r, substeps: 1 } }));
    open.push(a);
    for (let f = 0; f < 4; f++) a.stepFrame();
    expect(stillWaterOf(a.ctx)).toBe(true);
    const bytes = a.save();
    for (let f = 0; f < 3; f++) a.stepFrame();
    const b = restoreSimulation(bytes) as ParticleSimulation;
    open.push(b);
    expect(stillWaterOf(b.ctx)).toBe(true);
    for (let f = 0; f < 3; f++) b.stepFrame();
    const n = a.ctx.liquid.count;
    expect(Buffer.from(b.ctx.liquid.pos.buffer, 0, 24 * n).equals(Buffer.from(a.ctx.liquid.pos.buffer, 0, 24 * n))).toBe(true);
    expect(Buffer.from(b.ctx.liquid.vel.buffer, 0, 24 * n).equals(Buffer.from(a.ctx.liquid.vel.buffer, 0, 24 * n))).toBe(true);
  });
});
