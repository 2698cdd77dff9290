/**
 * The adhesion stage's object-cell look-ups, recorded per liquid cell (object-cells.ts
 * ObjectCellRecord), filtered for the narrower look-ups at the same positions: a honey blob draped
 * on a ball with adhesion reaching 8 radii (the honey drop's), after a frame. For every liquid
 * cell with particles flagged near the ball, at the solves' h, the viscosity's 5 r and the
 * record's own reach, and for the cell's box and the box of its flagged particles, the filtered
 * cells are the look-up's, in its order; the solves' boundary rows and the viscosity's object rows
 * listed from the record are those listed without it, entry for entry; the record serves neither
 * a wider reach nor positions that moved (the sheet shift, a new sub-timestep).
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { NeighbourList } from '../../src/particle/neighbours.ts';
import { recordedCellsNearAt, recordFor } from '../../src/particle/object-cells.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { listBoundaryRows } from '../../src/particle/solve-boundary-rows.ts';
import { listObjectRows } from '../../src/particle/viscosity-weiler-boundary.ts';
import type { SceneInput } from '../../src/scene/schema.ts';

function draped(): ParticleSimulation {
  const input: SceneInput = {
    gravity: [0, -9.81, 0],
    materials: {
      honey: { kind: 'liquid', density: 1420, viscosity: { value: 5, unit: 'Pa.s' } },
      ball: { kind: 'solid', friction: 0.8 },
    },
    adhesion: [{ between: ['honey', 'ball'], type: 'attract', strength: 20, support: 8 }],
    domain: { min: [-0.05, -0.05, -0.05], max: [0.05, 0.05, 0.05], boundary: 'open' },
    bodies: [
      { material: 'ball', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.02 } },
      { material: 'honey', shape: { type: 'sphere', center: [0, 0.03, 0], radius: 0.012 } },
    ],
    particle: { radius: 0.002, viscositySolver: 'implicit' },
  };
  const s = createSimulation(parseScene(input), 'particle', { workers: 1 }) as ParticleSimulation;
  s.stepFrame();
  return s;
}

function rows(list: NeighbourList, n: number): number[][] {
  return Array.from({ length: n }, (_, i) => Array.from(list.j.subarray(list.start[i], list.start[i + 1])));
}

describe('the adhesion stage\'s object-cell record', () => {
  it('gives the narrower look-ups\' cells and rows, and serves only where it may', () => {
    const s = draped(), ctx = s.ctx, L = ctx.liquid, n = L.count, c = ctx.cells, g = c.grid, nc = g.cellCount, r = ctx.r;
    computeAdhesion(ctx);
    const rec = recordFor(ctx, nc, ctx.densityH);
    expect(rec).not.toBeNull();
    expect(recordFor(ctx, nc, rec!.reach * 1.01)).toBeNull();
    c.box = new Float64Array(6 * nc);
    c.updateBoxes(L.pos);
    const near = L.nearObject, q = new Float64Array(2), fbox = new Float64Array(6), into = { nearObjectCells: new Int32Array(8) };
    let looked = 0, dropped = 0;
    for (let cc = 0; cc < nc; cc++) {
      const i0 = g.start[cc], i1 = i0 + g.count[cc];
      fbox.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
      for (let i = i0; i < i1; i++) {
        if (!near[i]) continue;
        for (let d = 0; d < 3; d++) {
          fbox[d] = Math.min(fbox[d], L.pos[3 * i + d]);
          fbox[3 + d] = Math.max(fbox[3 + d], L.pos[3 * i + d]);
        }
      }
      if (fbox[0] > fbox[3]) continue;
      for (const [box, b] of [[c.box, 6 * cc], [fbox, 0]] as const) {
        for (const reach of [ctx.densityH, 5 * r, rec!.reach]) {
          q[1] = reach;
          const m = ctx.objectCellsNearAt(box, b, q), want = Array.from(ctx.nearObjectCells.subarray(0, m));
          const k = recordedCellsNearAt(into, rec!, cc, box, b, q);
          expect(Array.from(into.nearObjectCells.subarray(0, k))).toEqual(want);
          looked++;
          dropped += rec!.start[cc + 1] - rec!.start[cc] - k;
        }
      }
    }
    expect(looked).toBeGreaterThan(30);
    expect(dropped).toBeGreaterThan(0);
    // The rows listed through the record and without it.
    const listed = (): [number[][], number[][]] => {
      const bl = new NeighbourList(), vl = new NeighbourList();
      bl.reset(n);
      listBoundaryRows(ctx, c, L.pos, n, bl);
      bl.start[n] = bl.length;
      vl.reset(n);
      const nm = ctx.mass.length, ph2 = new Float64Array(nm * nm).fill((5 * r) ** 2);
      listObjectRows(ctx, ph2, 5 * r, ctx.objectSlotPos, n, vl);
      vl.start[n] = vl.length;
      return [rows(bl, n), rows(vl, n)];
    };
    const withRecord = listed();
    expect(withRecord[0].flat().length).toBeGreaterThan(100);
    expect(withRecord[1].flat().length).toBeGreaterThan(withRecord[0].flat().length);
    rec!.valid = false;
    expect(recordFor(ctx, nc, ctx.densityH)).toBeNull();
    expect(listed()).toEqual(withRecord);
    // Positions that moved (the pair list no longer current) are not served.
    rec!.valid = true;
    ctx.adhesionPairsCurrent = false;
    expect(recordFor(ctx, nc, ctx.densityH)).toBeNull();
    s.dispose();
  });
});
