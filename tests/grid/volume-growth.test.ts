/**
 * The particle level set's volume correction (volume-growth.ts; Kim et al. 2007 §4) and what it
 * holds the liquid to (trackers/levelset.ts, levelset-volume.ts openFaceInflow).
 *  - Lost liquid goes back through the divergence, each body by its own volume's share. The
 *    uniform shift of φ it replaces gave each body its area's share: a thin sheet held in the air
 *    grew many times faster than a pool, and spout-fill grew sheets up its walls and a stream
 *    under its lid after the spout had stopped (issue 27, docs/decisions.md).
 *  - Liquid gained (a negative error) is taken back from the bulk, not from every cell alike: a sheet
 *    one or two cells thick keeps its liquid (removalWeight; docs/decisions.md "The sheet rule's volume").
 *  - Liquid leaving the box through an open face is not lost: the expected volume follows it.
 */
import { describe, expect, it } from 'vitest';
import { cellLiquidFraction, levelSetVolume } from '../../src/grid/levelset-volume.ts';
import type { GridSimulation } from '../../src/grid/step.ts';
import type { LevelSetTracker } from '../../src/grid/trackers/levelset.ts';
import type { ParticleLevelSetTracker } from '../../src/grid/trackers/particle-levelset.ts';
import { gridSim } from './helpers.ts';

/** Liquid volume (m³) of the cells whose centres lie above (or at or below) height y. */
function volumeAbove(sim: GridSimulation, y: number, above = true): number {
  const s = sim.store, h = sim.d.h;
  let v = 0;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === 2 || s.wall[c] !== 0 || ((s.cj[c] + 0.5) * h > y) !== above) continue;
    v += cellLiquidFraction(s, c, h);
  }
  return v * h * h * h;
}

/**
 * A pool 4 cm deep and a sheet 2.5 cm thick held in the air above it, on 1 cm cells, with no
 * gravity: the liquid stays where it is, and only the correction changes it.
 */
function poolAndSheet(): GridSimulation {
  return gridSim({
    fps: 30,
    gravity: [0, 0, 0],
    domain: { min: [0, 0, 0], max: [0.12, 0.16, 0.12], boundary: 'noslip' },
    materials: { syrup: { kind: 'liquid', density: 1300, viscosity: { value: 0.05, unit: 'Pa.s' } } },
    bodies: [
      { material: 'syrup', shape: { type: 'box', center: [0.06, 0.02, 0.06], size: [0.12, 0.04, 0.12] } },
      { material: 'syrup', shape: { type: 'box', center: [0.06, 0.12, 0.06], size: [0.08, 0.025, 0.08] } },
    ],
    grid: { cellSize: 0.01 },
  });
}

describe('the volume correction', () => {
  it('gives lost liquid back to a pool and a sheet in the air by their volumes, not their areas', () => {
    // No gravity: the liquid stays where it is, and only the correction changes it.
    const sim = poolAndSheet();
    const tracker = sim.tracker as LevelSetTracker;
    expect(tracker.name).toBe('particle-levelset');
    sim.stepFrame();
    const pool0 = volumeAbove(sim, 0.08, false), sheet0 = volumeAbove(sim, 0.08);
    // 2.5 % of the liquid taken from the account: the divergence alone puts it back (the shift of φ,
    // its backstop beyond a 2 % error, is the area's share again).
    (tracker as ParticleLevelSetTracker).volumeControl.backstop = 1;
    tracker.expected = 1.025 * levelSetVolume(sim.store, sim.d.h);
    for (let f = 0; f < 8; f++) sim.stepFrame();
    const pool = volumeAbove(sim, 0.08, false) / pool0 - 1, sheet = volumeAbove(sim, 0.08) / sheet0 - 1;
    console.log(`volume correction of 2.5 %: the pool (${(1e6 * pool0).toFixed(0)} cm³) gained ${(100 * pool).toFixed(1)} %, the sheet (${(1e6 * sheet0).toFixed(0)} cm³) ${(100 * sheet).toFixed(1)} %`);
    // Measured: pool 2.3 %, sheet 7.4 % (about 5 % of it the sheet's own drift with no deficit);
    // with the uniform shift, pool 0.7 %, sheet 9.8 %.
    expect(pool).toBeGreaterThan(0.015);
    expect(sheet).toBeLessThan(5 * pool);
  });

  it('takes a gain back from the bulk: a thin sheet keeps its liquid while the pool gives it up', () => {
    // The same pool and sheet, with 2.5 % too much liquid in the account's eyes. Every liquid cell
    // alike (Kim et al.) takes as much from each of the sheet's cells as from the pool's; by depth
    // (removalWeight) the sheet, two and a half cells thick, gives from its middle cells only.
    // Measured: from the bulk, pool −5.1 %, sheet +4.2 %; alike, pool −4.6 %, sheet +2.1 %.
    const run = (fromBulk: boolean) => {
      const sim = poolAndSheet();
      const tracker = sim.tracker as ParticleLevelSetTracker;
      sim.stepFrame();
      const pool0 = volumeAbove(sim, 0.08, false), sheet0 = volumeAbove(sim, 0.08);
      tracker.volumeControl.backstop = 1;
      tracker.volumeControl.fromBulk = fromBulk;
      tracker.expected = 0.975 * levelSetVolume(sim.store, sim.d.h);
      for (let f = 0; f < 8; f++) sim.stepFrame();
      return { pool: volumeAbove(sim, 0.08, false) / pool0 - 1, sheet: volumeAbove(sim, 0.08) / sheet0 - 1 };
    };
    const bulk = run(true), alike = run(false);
    console.log(`volume correction of −2.5 %: from the bulk, pool ${(100 * bulk.pool).toFixed(1)} %, sheet ${(100 * bulk.sheet).toFixed(1)} %; from every cell alike, pool ${(100 * alike.pool).toFixed(1)} %, sheet ${(100 * alike.sheet).toFixed(1)} %`);
    expect(bulk.pool).toBeLessThan(-0.015);
    // The sheet's own drift (about +5 % over these frames) is in both; what the uniform rule took from it is not.
    expect(bulk.sheet - alike.sheet).toBeGreaterThan(0.01);
    expect(bulk.pool).toBeLessThan(alike.pool);
  });

  it('counts what flows out through an open face: a channel draining keeps its account', () => {
    // The grid's Poiseuille case: a channel open at both ends, driven along x by a body force.
    const h = 0.01, H = 0.08, L = 0.16, W = 0.02;
    const sim = gridSim({
      fps: 30,
      gravity: [0.5, 0, 0],
      domain: { min: [0, 0, 0], max: [L, H, W], boundary: 'noslip', faces: { xmin: 'open', xmax: 'open', zmin: 'slip', zmax: 'slip' } },
      materials: { oil: { kind: 'liquid', density: 1000, viscosity: { value: 0.01, unit: 'm2/s' } } },
      bodies: [{ material: 'oil', shape: { type: 'box', center: [L / 2, H / 2, W / 2], size: [L, H, W] } }],
      grid: { cellSize: h, maxDt: 1 / 60 },
    });
    const tracker = sim.tracker as LevelSetTracker;
    const v0 = tracker.volume(sim);
    for (let f = 0; f < 12; f++) sim.stepFrame();
    const v = tracker.volume(sim);
    console.log(`open channel, 0.4 s: ${(100 * (1 - v / v0)).toFixed(1)} % of the liquid left the box; volume ${(1e6 * v).toFixed(1)} cm³, expected ${(1e6 * tracker.expected).toFixed(1)}`);
    // Measured: 5.4 % left, the volume within 0.2 % of the expected (without the account, 5 % below it).
    expect(1 - v / v0).toBeGreaterThan(0.02);
    expect(Math.abs(v / tracker.expected - 1)).toBeLessThan(0.01);
  });
});
