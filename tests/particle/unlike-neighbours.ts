/**
 * How mixed the paints of a multi-liquid particle run are, at the particle scale: for each liquid
 * particle, its neighbours within h (the density kernel's support), those of another liquid, and
 * those of one chosen liquid. A particle is a stray when most of its neighbours are another paint
 * (counted among particles with at least `minNeighbours` of them, so that drips and the thin edge
 * of a coat do not count). tests/particle/paint-drops.test.ts holds the share of strays;
 * bench/paint-colours.ts reports it with the blue particles among mostly yellow ones.
 */
import { HashGrid } from '../../src/spatial/hash-grid.ts';

export interface NeighbourCounts {
  /** Neighbours within h, per particle. */
  all: Int32Array;
  /** Those of another liquid than the particle's own. */
  unlike: Int32Array;
  /** Those of liquid `of` (zero when none was named). */
  of: Int32Array;
}

/** Neighbour counts of the first n particles (positions xyz, liquid index per particle) within h. */
export function neighbourCounts(pos: ArrayLike<number>, material: ArrayLike<number>, n: number, h: number, of = -1): NeighbourCounts {
  const h2 = h * h, grid = new HashGrid(h);
  grid.build(pos, n);
  const cells = new Int32Array(27);
  const all = new Int32Array(n), unlike = new Int32Array(n), ofCount = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2], mi = material[i];
    const m = grid.cellsNear(x, y, z, cells, 1);
    for (let q = 0; q < m; q++) {
      for (let s = grid.start[cells[q]], e = s + grid.count[cells[q]]; s < e; s++) {
        const j = grid.order[s];
        if (j === i) continue;
        const dx = pos[3 * j] - x, dy = pos[3 * j + 1] - y, dz = pos[3 * j + 2] - z;
        if (dx * dx + dy * dy + dz * dz >= h2) continue;
        all[i]++;
        if (material[j] !== mi) unlike[i]++;
        if (material[j] === of) ofCount[i]++;
      }
    }
  }
  return { all, unlike, of: ofCount };
}

/**
 * The share of particles most of whose neighbours are another liquid, among those with at least
 * `minNeighbours`; with `among`, of the particles that liquid `among` names, those most of whose
 * neighbours are liquid `of` (the counts' own), instead.
 */
export function strayShare(c: NeighbourCounts, material?: ArrayLike<number>, among = -1, minNeighbours = 6): { share: number; counted: number } {
  let counted = 0, stray = 0;
  for (let i = 0; i < c.all.length; i++) {
    if (c.all[i] < minNeighbours) continue;
    if (among >= 0) {
      if (material![i] !== among) continue;
      counted++;
      if (c.of[i] > c.all[i] / 2) stray++;
    } else {
      counted++;
      if (c.unlike[i] > c.all[i] / 2) stray++;
    }
  }
  return { share: counted ? stray / counted : 0, counted };
}
