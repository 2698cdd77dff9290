/**
 * The particle level set (Enright et al. 2002) against the plain level set, both without the
 * volume correction (so each shows its own error), on every case where both run:
 *  - Zalesak's slotted disk turned once on 50² cells (2-D slice; Enright et al. §6.1 use 100²):
 *    volume change and shape error (cells of the wrong sign);
 *  - a sphere of 6 cells carried once around a circle (3-D, prescribed rotation);
 *  - a viscous blob slumping on a no-slip floor (the full solver, 10 frames);
 * and the parts of the method: particles of both signs, radii within [0.1 h, 0.5 h], escaped
 * particles correcting φ, reseeding around the surface.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../../src/index.ts';
import type { GridEngineSimulation } from '../../../src/grid/simulation.ts';
import type { GridSimulation } from '../../../src/grid/step.ts';
import { ParticleLevelSetTracker } from '../../../src/grid/trackers/particle-levelset.ts';
import { carry, rotation, trackingSim, zalesak } from './rotation.ts';

const noCorrection = { volumeCorrection: false };

function particlesOf(sim: GridSimulation) {
  return (sim.tracker as ParticleLevelSetTracker).particles;
}

describe('particle level set', () => {
  it("keeps Zalesak's disk closer to its shape and volume than the plain level set", () => {
    // The particle level set as published (no minimum sheet thickness), then as the engine runs it.
    const runs = (['levelset', 'particle-levelset', 'particle-levelset'] as const).map((tracking, q) => {
      const sim = trackingSim(tracking, 50, true, (x, y) => zalesak(x, y), noCorrection);
      if (q === 1) particlesOf(sim).sheetDepth = 0;
      return { tracking, sim, r: carry(sim, rotation(1), 1, 2 * Math.PI * 0.45, 0.5) };
    });
    const [ls, pls, sheets] = runs.map(({ r }) => ({ dv: r.v1 / r.v0 - 1, shape: r.mismatch / r.v0 }));
    const pct = (v: number) => (100 * v).toFixed(2);
    console.log(`Zalesak 50²: level set ΔV ${pct(ls.dv)} %, shape error ${pct(ls.shape)} %; particle level set ΔV ${pct(pls.dv)} %, shape error ${pct(pls.shape)} %; with the minimum sheet thickness ΔV ${pct(sheets.dv)} %, shape error ${pct(sheets.shape)} %`);
    // Measured (c42087f and after): level set +2.9 % and 20.7 %, particle level set +2.3 % and 8.3 % (+3.1 % and
    // 8.3 % with the fast march's ties accepted together, branch film11); with
    // the minimum sheet thickness +4.7 % and 10.3 %: it rounds up the cells about the slot's corners,
    // where the particles escape too (docs/decisions.md, "Sheets thinner than a cell").
    // The volume change on 50² cells is a draw of where the disk lies on the cells (bench/grid-zalesak-draws.ts,
    // the disk moved by fractions of a cell, six draws): level set 2.2–4.2 %, particle level set 2.0–3.2 %,
    // the particle level set's the smaller on 4 of 6 (3 of 6 with the fast march's ties accepted together;
    // this draw, on a mirror plane: 3.09 % against 2.86), its mean 2.7–2.9 % against 3.1 %. Asked here:
    // not more than the level set's and 0.5 % (under a cell's area) on this draw.
    expect(Math.abs(pls.dv)).toBeLessThan(Math.abs(ls.dv) + 0.005);
    expect(pls.shape).toBeLessThan(0.6 * ls.shape);
    expect(pls.shape).toBeLessThan(0.1);
    expect(Math.abs(sheets.dv)).toBeLessThan(0.05);
    expect(sheets.shape).toBeLessThan(0.6 * ls.shape);
    const particles = particlesOf(runs[2].sim);
    let negative = 0, positive = 0, rmin = Infinity, rmax = 0;
    for (let q = 0; q < particles.count; q++) {
      const r = particles.radius[q];
      if (r < 0) negative++; else positive++;
      rmin = Math.min(rmin, Math.abs(r)); rmax = Math.max(rmax, Math.abs(r));
    }
    expect(negative).toBeGreaterThan(500);
    expect(positive).toBeGreaterThan(500);
    const h = runs[2].sim.d.h;
    expect(rmin).toBeGreaterThanOrEqual(0.1 * h - 1e-12);
    expect(rmax).toBeLessThanOrEqual(0.5 * h + 1e-12);
    expect(runs[2].sim.counters.plsEscaped).toBeGreaterThan(0);
  });

  it('loses less of a rotating sphere than the plain level set', () => {
    const h = 1 / 32;
    const sphere = (x: number, y: number, z: number) => Math.hypot(x - 0.5, y - 0.75, z - 0.5) - 6 * h;
    const loss = (['levelset', 'particle-levelset'] as const).map((tracking) => {
      const sim = trackingSim(tracking, 32, false, sphere, noCorrection);
      const r = carry(sim, rotation(2), 2, (2 * Math.PI * 0.3) / 2, 0.6);
      return Math.abs(r.v1 / r.v0 - 1);
    });
    console.log(`sphere of 6 cells, one turn: level set |ΔV| ${(100 * loss[0]).toFixed(2)} %, particle level set ${(100 * loss[1]).toFixed(2)} %`);
    expect(loss[1]).toBeLessThan(loss[0]);
  });

  it('loses less of a slumping viscous blob than the plain level set', () => {
    const change = (['levelset', 'particle-levelset'] as const).map((tracking) => {
      const sim = createSimulation(parseScene({
        fps: 20,
        domain: { min: [0, 0, 0], max: [0.12, 0.06, 0.12], boundary: 'slip', faces: { ymin: 'noslip', ymax: 'open' } },
        materials: { honey: { kind: 'liquid', density: 1000, viscosity: { value: 0.01, unit: 'm2/s' } } },
        bodies: [{ material: 'honey', shape: { type: 'cylinder', center: [0, 0.02, 0], radius: 0.04, height: 0.04 } }],
        grid: { cellSize: 0.005, tracking, ...noCorrection },
      }), 'grid') as GridEngineSimulation;
      const v0 = sim.metrics().fluidVolume;
      for (let f = 0; f < 10; f++) sim.stepFrame();
      if (tracking === 'particle-levelset') expect(particlesOf(sim.sim).count).toBeGreaterThan(1000);
      return sim.metrics().fluidVolume / v0 - 1;
    });
    console.log(`slumping blob, 0.5 s: level set ΔV ${(100 * change[0]).toFixed(2)} %, particle level set ${(100 * change[1]).toFixed(2)} %`);
    expect(Math.abs(change[1])).toBeLessThan(Math.abs(change[0]));
  });
});
