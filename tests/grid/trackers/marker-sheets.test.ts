/**
 * The marker tracker's sheet rule (src/grid/trackers/marker-sheets.ts): a cell of a sheet one cell
 * thick whose markers have all moved on, with the sheet's cells on either side of it, takes a
 * marker from a neighbour across it that holds two or more, or half of the only marker of one
 * that holds one (split in two); the markers' total weight, the volume, is unchanged. A surface
 * layer that has emptied over a bulk is not filled from the bulk below it.
 */
import { describe, expect, it } from 'vitest';
import type { GridSimulation } from '../../../src/grid/step.ts';
import { FLUID } from '../../../src/grid/store.ts';
import { MarkerTracker } from '../../../src/grid/trackers/markers.ts';
import { MIN_WEIGHT } from '../../../src/grid/trackers/marker-sheets.ts';
import { createSimulation, parseScene, restoreSimulation } from '../../../src/index.ts';
import type { GridEngineSimulation } from '../../../src/grid/simulation.ts';
import { gridSim } from '../helpers.ts';

const h = 0.01;

const slabScene = (height: number, markersPerCell: number) => ({
  domain: { min: [0, 0, 0], max: [0.1, 0.1, 0.1], boundary: 'noslip' },
  materials: { honey: { kind: 'liquid', density: 1420, viscosity: { value: 5, unit: 'Pa.s' } } },
  bodies: [{ material: 'honey', shape: { type: 'box', center: [0.05, height / 2, 0.05], size: [0.08, height, 0.08] } }],
  grid: { cellSize: h, tracking: 'markers', markersPerCell },
});

/** A closed 10 cm box with a liquid box of `height` m resting on its floor, `markersPerCell` markers a cell (8). */
function slab(height: number, markersPerCell = 8): GridSimulation {
  return gridSim(slabScene(height, markersPerCell));
}

/** Σ weights of the markers in cell (i, j, k). */
function weightIn(t: MarkerTracker, i: number, j: number, k: number): number {
  const p = t.markers.pos;
  let w = 0;
  for (let q = 0; q < t.markers.count; q++) if (Math.floor(p[3 * q] / h) === i && Math.floor(p[3 * q + 1] / h) === j && Math.floor(p[3 * q + 2] / h) === k) w += t.markers.weight[q];
  return w;
}

/** Markers in cell (i, j, k). */
function inCell(t: MarkerTracker, i: number, j: number, k: number): number {
  const p = t.markers.pos;
  let n = 0;
  for (let q = 0; q < t.markers.count; q++) if (Math.floor(p[3 * q] / h) === i && Math.floor(p[3 * q + 1] / h) === j && Math.floor(p[3 * q + 2] / h) === k) n++;
  return n;
}

describe('markers: the sheet rule', () => {
  it('fills a hole in a sheet one cell thick from the sheet, keeping the marker count', () => {
    const sim = slab(h);
    const t = sim.tracker as MarkerTracker;
    expect(sim.store.type[sim.store.find(5, 0, 5)]).toBe(FLUID);
    // The markers of one cell in the middle of the sheet move on (here: taken away).
    t.markers.filter((x, y, z) => !(Math.floor(x / h) === 5 && Math.floor(y / h) === 0 && Math.floor(z / h) === 5));
    const count = t.markers.count;
    const moved = t.sheets!.keep(sim.store, sim.d, t.markers);
    expect(moved).toBe(1);
    expect(inCell(t, 5, 0, 5)).toBe(1);
    expect(t.markers.count).toBe(count);
    // Without the rule the cell stays empty: the hole Cline et al.'s markers leave.
    const bare = slab(h), tb = bare.tracker as MarkerTracker;
    tb.markers.filter((x, y, z) => !(Math.floor(x / h) === 5 && Math.floor(y / h) === 0 && Math.floor(z / h) === 5));
    tb.sheets = null;
    bare.stepFrame();
    expect(bare.store.type[bare.store.find(5, 0, 5)]).not.toBe(FLUID);
  });

  it('does not hold a surface layer that has emptied over the bulk', () => {
    const sim = slab(4 * h);
    const t = sim.tracker as MarkerTracker;
    // The whole top layer (j = 3) drains: none of its cells has liquid on either side within the layer.
    t.markers.filter((_x, y) => Math.floor(y / h) !== 3);
    const below = inCell(t, 5, 2, 5);
    expect(t.sheets!.keep(sim.store, sim.d, t.markers)).toBe(0);
    expect(inCell(t, 5, 3, 5)).toBe(0);
    expect(inCell(t, 5, 2, 5)).toBe(below);
  });

  it('splits the only marker of a neighbour in two halves, keeping the volume', () => {
    // One marker a cell: Cline et al.'s markers, and the rule that only moves markers, cannot fill the hole.
    const sim = slab(h, 1);
    const t = sim.tracker as MarkerTracker;
    const volume = t.volume(sim);
    t.markers.filter((x, y, z) => !(Math.floor(x / h) === 5 && Math.floor(y / h) === 0 && Math.floor(z / h) === 5));
    const count = t.markers.count, after = t.volume(sim);
    expect(after).toBeCloseTo(volume - h ** 3, 12);
    t.sheets!.splits = false;
    expect(t.sheets!.keep(sim.store, sim.d, t.markers)).toBe(0);
    t.sheets!.splits = true;
    expect(t.sheets!.keep(sim.store, sim.d, t.markers)).toBe(1);
    expect(t.sheets!.split).toBe(1);
    expect(t.markers.count).toBe(count + 1);
    expect(inCell(t, 5, 0, 5)).toBe(1);
    expect(weightIn(t, 5, 0, 5)).toBe(0.5);
    expect(t.volume(sim)).toBeCloseTo(after, 12);
    // A stepped run keeps the volume its markers carry, split or not.
    sim.stepFrame();
    expect(t.volume(sim)).toBeCloseTo(after, 12);
    expect(t.expectedVolume(sim)).toBeCloseTo(volume, 12);
  });

  it('does not split a marker lighter than twice the least weight', () => {
    const sim = slab(h, 1);
    const t = sim.tracker as MarkerTracker;
    for (let q = 0; q < t.markers.count; q++) t.markers.weight[q] = 1.9 * MIN_WEIGHT;
    t.markers.filter((x, y, z) => !(Math.floor(x / h) === 5 && Math.floor(y / h) === 0 && Math.floor(z / h) === 5));
    expect(t.sheets!.keep(sim.store, sim.d, t.markers)).toBe(0);
    expect(inCell(t, 5, 0, 5)).toBe(0);
  });

  it('carries split weights through a checkpoint', () => {
    const engine = createSimulation(parseScene(slabScene(h, 1)), 'grid') as GridEngineSimulation, sim = engine.sim;
    const t = sim.tracker as MarkerTracker;
    t.markers.filter((x, y, z) => !(Math.floor(x / h) === 5 && Math.floor(y / h) === 0 && Math.floor(z / h) === 5));
    t.sheets!.keep(sim.store, sim.d, t.markers);
    const volume = t.volume(sim);
    const bytes = engine.save();
    const back = restoreSimulation(bytes) as GridEngineSimulation;
    const tb = back.sim.tracker as MarkerTracker;
    expect(tb.markers.count).toBe(t.markers.count);
    expect(Array.from(tb.markers.weight.subarray(0, tb.markers.count))).toEqual(Array.from(t.markers.weight.subarray(0, t.markers.count)));
    expect(tb.volume(back.sim)).toBe(volume);
  });

  it('merges split markers where a cell holds more than its share, keeping the volume', () => {
    const sim = slab(h, 1);
    const t = sim.tracker as MarkerTracker;
    // Cell (5, 0, 5) gathers four quarter markers besides its own: five where one a cell is the share.
    const c = [0.055, 0.005, 0.055];
    for (let q = 0; q < 4; q++) t.markers.add(c[0] + 0.001 * q, c[1], c[2], 0, 0.25);
    const volume = t.volume(sim), count = t.markers.count;
    t.sheets!.keep(sim.store, sim.d, t.markers);
    expect(t.sheets!.merged).toBe(3);
    expect(t.markers.count).toBe(count - 3);
    expect(inCell(t, 5, 0, 5)).toBe(2);
    expect(weightIn(t, 5, 0, 5)).toBe(2);
    expect(t.volume(sim)).toBe(volume);
  });

  it('does not split for a cell of a film two cells thick', () => {
    // A cell of the upper layer empties: a marker lies below it, and along x and z beside it, so it
    // is no cell of a sheet one cell thick, and splitting there would thicken the film.
    const sim = slab(2 * h, 1);
    const t = sim.tracker as MarkerTracker;
    t.markers.filter((x, y, z) => !(Math.floor(x / h) === 5 && Math.floor(y / h) === 1 && Math.floor(z / h) === 5));
    const count = t.markers.count;
    expect(t.sheets!.keep(sim.store, sim.d, t.markers)).toBe(0);
    expect(t.markers.count).toBe(count);
  });

  it('gathers split markers left inside a pool into a neighbour, keeping the volume', () => {
    // Cell (5, 1, 5) of a pool three cells deep holds only an eighth of a marker: it gives it to a
    // face neighbour and empties, so split markers that leave a sheet do not keep cells liquid.
    const sim = slab(3 * h, 1);
    const t = sim.tracker as MarkerTracker;
    t.markers.filter((x, y, z) => !(Math.floor(x / h) === 5 && Math.floor(y / h) === 1 && Math.floor(z / h) === 5));
    t.markers.add(0.055, 0.015, 0.055, 0, MIN_WEIGHT);
    const volume = t.volume(sim), count = t.markers.count;
    t.sheets!.keep(sim.store, sim.d, t.markers);
    expect(t.sheets!.gathered).toBe(1);
    expect(inCell(t, 5, 1, 5)).toBe(0);
    expect(t.markers.count).toBe(count - 1);
    expect(t.volume(sim)).toBeCloseTo(volume, 12);
    let gained = 0;
    for (const [i, j, k] of [[4, 1, 5], [6, 1, 5], [5, 0, 5], [5, 2, 5], [5, 1, 4], [5, 1, 6]]) gained += weightIn(t, i, j, k) - 1;
    expect(gained).toBeCloseTo(MIN_WEIGHT, 12);
  });

  it('does not gather a light cell of a sheet one cell thick', () => {
    // The same eighth in a film one cell thick on the floor (no marker above it nor below it): kept.
    const sim = slab(h, 1);
    const t = sim.tracker as MarkerTracker;
    t.markers.filter((x, y, z) => !(Math.floor(x / h) === 5 && Math.floor(y / h) === 0 && Math.floor(z / h) === 5));
    t.markers.add(0.055, 0.005, 0.055, 0, MIN_WEIGHT);
    t.sheets!.keep(sim.store, sim.d, t.markers);
    expect(t.sheets!.gathered).toBe(0);
    expect(weightIn(t, 5, 0, 5)).toBe(MIN_WEIGHT);
  });

  it('splits in a sheet at a slant to the grid, told by a diagonal', () => {
    // A sheet with normal (1, 0, 1)/√2, 1.2 cells thick: its cells are a staircase i + k ∈ {9, 10}
    // (j 3–6), so each holds a marker beside it along every axis and the axes alone see no sheet
    // (the slits of honey-drop-grid's bell at the grid's diagonals). Along the diagonal (1, 0, 1)
    // it has none: a hole there is filled by a split across the vertical pair.
    const scene = {
      ...slabScene(h, 1),
      bodies: [{ material: 'honey', shape: { type: 'box', center: [0.055, 0.05, 0.05], size: [0.06, 0.04, 0.012], rotation: [0, 45, 0] } }],
    };
    const fill = (diagonals: boolean) => {
      const sim = gridSim(scene), t = sim.tracker as MarkerTracker, s = sim.store;
      for (const [i, k, liquid] of [[4, 5, true], [5, 5, true], [4, 6, true], [5, 6, false], [3, 4, false]] as const) {
        expect(s.find(i, 5, k) >= 0 && s.type[s.find(i, 5, k)] === FLUID).toBe(liquid);
      }
      t.markers.filter((x, y, z) => !(Math.floor(x / h) === 4 && Math.floor(y / h) === 5 && Math.floor(z / h) === 5));
      t.sheets!.diagonalSheets = diagonals;
      const volume = t.volume(sim), moved = t.sheets!.keep(s, sim.d, t.markers);
      expect(t.volume(sim)).toBeCloseTo(volume, 12);
      return { moved, split: t.sheets!.split, filled: inCell(t, 4, 5, 5) };
    };
    expect(fill(false)).toEqual({ moved: 0, split: 0, filled: 0 });
    expect(fill(true)).toEqual({ moved: 1, split: 1, filled: 1 });
  });

  it('fills a cell of a slanting curtain from two neighbours that are not opposite, keeping the volume', () => {
    // One horizontal layer (j = 5) of a curtain whose cells step in x–z: (3, 5), (4, 5), (5, 6), (6, 6)
    // in (i, k), a marker at each centre. Cell (4, 5) empties: its neighbours along the curtain sit at
    // (−1, 0, 0) and (1, 0, 1), no opposite pair holds liquid (nothing above or below), and the segment
    // between their markers passes through it.
    const fill = (slant: boolean) => {
      const sim = slab(h, 1), t = sim.tracker as MarkerTracker;
      t.markers.filter(() => false);
      for (const [i, k] of [[3, 5], [4, 5], [5, 6], [6, 6]]) t.markers.add((i + 0.5) * h, 5.5 * h, (k + 0.5) * h, 0, 1);
      sim.updateGrid();
      expect(sim.store.type[sim.store.find(4, 5, 5)]).toBe(FLUID);
      t.markers.filter((x, y, z) => !(Math.floor(x / h) === 4 && Math.floor(z / h) === 5));
      t.sheets!.slantPairs = slant;
      const volume = t.volume(sim), moved = t.sheets!.keep(sim.store, sim.d, t.markers);
      expect(t.volume(sim)).toBeCloseTo(volume, 12);
      return { moved, split: t.sheets!.split, filled: inCell(t, 4, 5, 5), weight: weightIn(t, 4, 5, 5) };
    };
    expect(fill(false)).toEqual({ moved: 0, split: 0, filled: 0, weight: 0 });
    expect(fill(true)).toEqual({ moved: 1, split: 1, filled: 1, weight: 0.5 });
  });
});
