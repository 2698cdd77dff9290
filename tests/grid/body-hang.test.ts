/**
 * Liquid under a body's underside falls (issue 27: "no liquid standing in mid-air"). The pressure
 * solve held liquid pulled at a solid face by a negative pressure, and the separating wall
 * (pressure.ts releaseTension; Chentanez & Müller 2012) was applied under the domain's lid only, so
 * water under an object hung there: a slab at rest under a plate body left a column standing from
 * the plate to the floor, and a splash thrown up against it spread into a sheet that clung to the
 * underside for the whole run. Now a row under any solid, over a column that ends in air, is
 * released where the liquid's Galilei number at the cell size is above 1 (water); a viscous coat
 * (honey, gel, paint at the shipped scenes' cells) keeps the plain solve under objects. The scenes:
 * tests/grid/body-hang.ts (2.5 cm cells; bench/grid-body-hang.ts prints them).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene, restoreSimulation } from '../../src/index.ts';
import { GridSimulation } from '../../src/grid/step.ts';
import { bodyHangScene, hangMeasure, UNDERSIDE } from './body-hang.ts';

const h = 0.025;

function run(kind: string): GridSimulation {
  const sim = new GridSimulation(parseScene(bodyHangScene(kind, h)));
  sim.initialize();
  return sim;
}

describe('grid: water under a body\'s underside', () => {
  it('a slab at rest under a plate leaves it and falls at g', () => {
    const sim = run('rest'), g = 9.81;
    let at5 = hangMeasure(sim), released = 0;
    for (let f = 1; f <= 9; f++) {
      released += sim.stepFrame().counters.releasedCells ?? 0;
      if (f === 3) at5 = hangMeasure(sim);
    }
    const end = hangMeasure(sim), t0 = 0.05, t1 = 0.15;
    const fall = at5.mean - end.mean, free = 0.5 * g * (t1 * t1 - t0 * t0);
    console.log(`slab under a plate at 0.15 s: top ${(100 * end.top).toFixed(2)} cm, ${end.touching} cells at the underside, fall from 0.05 s ${(100 * fall).toFixed(1)} cm against ${(100 * free).toFixed(1)} (${(fall / free).toFixed(2)}), ${released} cells released`);
    // The slab's bottom (20 cm up) meets the floor at 0.2 s: the fall is read before. Before: the
    // liquid cells' mean fell 7.0 cm (0.71), 16 cells stayed at the underside at 0.15 s and 4 in every
    // frame after (a column standing from the plate to the floor), the top liquid cell the row under the plate.
    expect(released).toBeGreaterThan(0);
    expect(end.touching).toBe(0);
    expect(end.top).toBeLessThan(UNDERSIDE - h);
    expect(fall / free).toBeGreaterThan(0.85);
    expect(fall / free).toBeLessThan(1.1);
  });

  it('a splash thrown up against a plate leaves the underside and reaches the floor', () => {
    const sim = run('throw');
    const volume0 = sim.tracker.volume(sim);
    let hit = 0, at35 = hangMeasure(sim);
    for (let f = 1; f <= 36; f++) {
      sim.stepFrame();
      const m = hangMeasure(sim);
      hit = Math.max(hit, m.touching);
      if (f === 21) at35 = m;
    }
    const end = hangMeasure(sim), volume = sim.tracker.volume(sim);
    console.log(`splash on a plate: at most ${hit} cells at the underside; at 0.35 s ${at35.touching}, top ${(100 * at35.top).toFixed(2)} cm; at 0.6 s top ${(100 * end.top).toFixed(2)} cm, volume ${(100 * (volume / volume0 - 1)).toFixed(1)} %`);
    // It does reach the underside and spread there (at most 68 cells of the 144 under the plate; 92 before).
    expect(hit).toBeGreaterThan(30);
    // Before: 65 cells still at the underside at 0.35 s, 25 at 0.5 s, the top at the row under the plate.
    expect(at35.touching).toBe(0);
    expect(at35.top).toBeLessThan(UNDERSIDE - 2 * h);
    // On the floor by 0.6 s (the lowest row's centre at 1.25 cm). Its volume: on these 2.5 cm cells the
    // splash is a sheet thinner than a cell, whose φ the transport loses 20–60 % of in a step (all of it
    // by frame 3 with the correction off); each step's correction puts it back, found as the root of the
    // volume estimator (levelset-volume.ts correctVolume). One Newton step from no shift overshot on the
    // sheet (its slope undercounts there) and left frame 36 at +0.3 to +16.6 % over six draws
    // (bench/grid-body-hang-draws.ts 0-5, the block moved 0.1 mm); the root holds 0.0 % at every sixth
    // frame to 60 on the same six draws (docs/decisions.md, branch vol12).
    expect(end.top).toBeLessThan(0.1);
    expect(Math.abs(volume / volume0 - 1)).toBeLessThan(0.01);
  });

  it('a run restored while the sheet comes away from the underside continues bit for bit', () => {
    // Frames 10–14 of the splash: rows released under the plate every step, the gaps opened by the
    // level set (its exact-φ flags are in the checkpoint).
    const a = createSimulation(parseScene(bodyHangScene('throw', h)), 'grid');
    for (let f = 0; f < 10; f++) a.stepFrame();
    const b = restoreSimulation(a.save());
    let released = 0;
    for (let f = 0; f < 4; f++) {
      released += a.stepFrame().counters.releasedCells ?? 0;
      b.stepFrame();
    }
    expect(released).toBeGreaterThan(0);
    const pa = a.fluidPoints(), pb = b.fluidPoints();
    expect(pb.count).toBe(pa.count);
    expect(Array.from(pb.positions)).toEqual(Array.from(pa.positions));
    expect(Array.from(pb.velocities)).toEqual(Array.from(pa.velocities));
    expect(Array.from(b.save())).toEqual(Array.from(a.save()));
  });

  it('releases under objects where the liquid\'s Galilei number at the cell is above 1: water, not the shipped viscous coats', () => {
    const ga = (name: string) => {
      const json = JSON.parse(readFileSync(new URL(`../../scenes/${name}.json`, import.meta.url), 'utf8'));
      const sim = new GridSimulation(parseScene(json));
      return sim.pressure.releaseObjects;
    };
    // g h³ / ν²: honey (5 Pa·s) on 5 mm cells 0.099, on 4 mm 0.051; gel 0.030; paint 0.011; water on 2.5 cm 1.5e8.
    // Released, honey-drop's coat at 4 s covered 69 % of the ball (upper half 70 %) against 92 / 87 %
    // (tests/grid/honey-drop.test.ts asks 80 %).
    for (const name of ['honey-drop', 'honey-drop-grid', 'honey-on-spinner', 'cup-pour', 'gel-fan', 'paint-drops']) expect(ga(name)).toBe(false);
    expect(ga('floating-box')).toBe(true);
    expect(new GridSimulation(parseScene(bodyHangScene('rest', h))).pressure.releaseObjects).toBe(true);
    // Honey on 2.5 cm cells (g h³ / ν² = 12) is released: a layer a cell thick falls by its weight there.
    const honey = bodyHangScene('rest', h) as { materials: Record<string, unknown> };
    honey.materials.water = { kind: 'liquid', density: 1420, viscosity: { value: 5, unit: 'Pa.s' } };
    expect(new GridSimulation(parseScene(honey)).pressure.releaseObjects).toBe(true);
  });
});
