/**
 * The particle level set's minimum sheet thickness (src/grid/trackers/pls-cells.ts `keepSheets`): a
 * sheet thinner than a cell, at a slant to the grid, with escaped liquid particles in every cell its
 * middle passes through, becomes a whole layer of liquid cells (the cells a plane passes through
 * are face-connected): φ at the centres alone holds 10 of those 83 cells; the crease test on the
 * cell alone kept 52 (the cells the middle clips at a corner stayed air), with the face neighbours
 * all 83. Cells just outside a thick body's flat surface keep their φ.
 */
import { describe, expect, it } from 'vitest';
import type { GridSimulation } from '../../../src/grid/step.ts';
import { SOLID } from '../../../src/grid/store.ts';
import { keepSheets } from '../../../src/grid/trackers/pls-cells.ts';
import { trackingSim } from './rotation.ts';

const n = 32, h = 1 / n;
const normal = (() => { const v = [1, 2.3, 0.6], l = Math.hypot(...v); return v.map((x) => x / l); })();
const offset = (x: number, y: number, z: number) => normal[0] * (x - 0.35) + normal[1] * (y - 0.35) + normal[2] * (z - 0.35);
/** Half the extent of a cell along the normal: the plane passes through a cell whose centre is within it. */
const reach = 0.5 * h * (Math.abs(normal[0]) + Math.abs(normal[1]) + Math.abs(normal[2]));

/** Flags the inner cells (0.25–0.45 on each axis, away from the edges of the seeded box) the midplane passes through. */
function flagCrossed(sim: GridSimulation): { flags: Uint8Array; cells: number[] } {
  const s = sim.store, flags = new Uint8Array(s.count), cells: number[] = [];
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === SOLID) continue;
    const ijk = [s.ci[c], s.cj[c], s.ck[c]];
    if (!ijk.every((i) => i >= 0.25 * n && i < 0.45 * n)) continue;
    const x = (ijk[0] + 0.5) * h, y = (ijk[1] + 0.5) * h, z = (ijk[2] + 0.5) * h;
    if (Math.abs(offset(x, y, z)) <= reach) { flags[c] = 1; cells.push(c); }
  }
  return { flags, cells };
}

describe('particle level set: the minimum sheet thickness', () => {
  it('keeps a slanted sheet a fifth of a cell thick as a whole layer of liquid cells', () => {
    const sim = trackingSim('levelset', n, false, (x, y, z) => Math.abs(offset(x, y, z)) - 0.1 * h);
    const { flags, cells } = flagCrossed(sim);
    const phi = sim.store.phi;
    const before = cells.filter((c) => phi[c] < 0).length;
    keepSheets(sim.store, flags, -0.1 * h, h);
    const after = cells.filter((c) => phi[c] < 0).length;
    console.log(`slanted sheet 0.2 h thick: ${cells.length} cells crossed by its middle, ${before} liquid at their centres, ${after} with the rule`);
    expect(cells.length).toBeGreaterThan(60);
    expect(before).toBeLessThan(0.5 * cells.length);
    expect(after).toBe(cells.length);
  });

  it("leaves the cells just outside a thick body's flat surface as they were", () => {
    const sim = trackingSim('levelset', n, false, (x, y, z) => offset(x, y, z) - 0.1 * h);
    const { flags, cells } = flagCrossed(sim);
    const phi = sim.store.phi, was = cells.map((c) => phi[c]);
    keepSheets(sim.store, flags, -0.1 * h, h);
    expect(cells.length).toBeGreaterThan(60);
    expect(cells.map((c) => phi[c])).toEqual(was);
  });
});
