/**
 * A pool on the cubic lattice, at the depth asked (issue 26, "Rest at any size").
 *
 * A pool whose footprint is a whole number of cells keeps the cubic lattice (start-packing.ts), and
 * it stands in whole rows: where the depth is not a whole number of cells its level (pool-level.ts
 * poolLevel) is off by up to r (5 cm at 4 mm: 6.25 rows, 6 of them centred in the box, 48 mm standing
 * 1 mm off the floor, which dropped in the first frames: 0.045 √(g h) on the 20 and 40 cm slices),
 * and a lattice stretched to the depth would not read ρ0. So the rows
 * are set on the floor, their wall row s/2 from it where its mirror image continues the lattice
 * (density-walls.ts), as many whole rows as the depth holds, N = ⌊depth / s⌋, and one row more with
 * the fraction depth / s − N of its sites taken: the level reads the depth asked, and every site
 * taken is one of the lattice, whose bulk rests as it did (the shear test, start-packing.ts
 * latticeGivesWay). The partial row's sites are spread evenly: a site (i, k) of the row is taken
 * where frac(i α₁ + k α₂) < the fraction, α the two-dimensional golden ratios (Roberts' R2
 * sequence: 1/φ₂, 1/φ₂², φ₂ the plastic number), which leaves no stripe or clump at any fraction.
 * start-settle.ts then settles it undisplaced (the part row finds its place; the bulk keeps its sites).
 * That is now the fallback: where a lattice drawn together to the depth asked holds (drawnRows), the
 * pool starts on it instead.
 */
import type { PoolFloorSpec } from './pool-level.ts';
import { densityShearDrop } from './start-packing.ts';

/** Roberts' R2 sequence's constants: 1/φ₂ and 1/φ₂², φ₂ = 1.32471795724… (the plastic number). */
const A1 = 0.7548776662466927, A2 = 0.5698402909980532;

/**
 * The pool's lattice `pos` (rows along `p.axis`) set on its floor at the depth asked: whole rows
 * and an evenly taken part of one more (above). Returns a new array; `pos` where it has one row.
 */
export function rowsToLevel(pos: Float64Array, p: PoolFloorSpec): Float64Array {
  const n = pos.length / 3, a = p.axis, b = (a + 1) % 3, c = (a + 2) % 3;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < n; i++) { lo = Math.min(lo, pos[3 * i + a]); hi = Math.max(hi, pos[3 * i + a]); }
  // The rows' spacing: the distinct heights, from the lowest (the lattice's rows are exact).
  const heights = new Set<number>();
  for (let i = 0; i < n; i++) heights.add(Math.round((pos[3 * i + a] - lo) * 1e9));
  if (heights.size < 2) return pos;
  const s = (hi - lo) / (heights.size - 1), bottom = p.side < 0 ? lo : hi;
  // The floor row's sites (the two other coordinates), and their grid indices.
  const site: number[] = [];
  for (let i = 0; i < n; i++) if (Math.abs(pos[3 * i + a] - bottom) < 1e-6 * s) site.push(pos[3 * i + b], pos[3 * i + c]);
  const m = site.length / 2;
  let bmin = Infinity, cmin = Infinity;
  for (let k = 0; k < m; k++) { bmin = Math.min(bmin, site[2 * k]); cmin = Math.min(cmin, site[2 * k + 1]); }
  const spacingAcross = (axis: number): number => {
    let d = Infinity;
    for (let k = 1; k < m; k++) {
      const v = Math.abs(site[2 * k + axis] - site[axis]);
      if (v > 1e-6 * s) d = Math.min(d, v);
    }
    return Number.isFinite(d) ? d : s;
  };
  const sb = spacingAcross(0), sc = spacingAcross(1);
  const rows = p.asked / s, whole = Math.floor(rows + 1e-9), part = rows - whole;
  const taken: number[] = [];
  for (let k = 0; k < m; k++) {
    const i = Math.round((site[2 * k] - bmin) / sb), j = Math.round((site[2 * k + 1] - cmin) / sc);
    const u = i * A1 + j * A2;
    if (u - Math.floor(u) < part) taken.push(k);
  }
  const out = new Float64Array(3 * (m * whole + taken.length));
  let o = 0;
  const put = (k: number, row: number): void => {
    out[o + a] = p.floor - p.side * (s / 2 + row * s);
    out[o + b] = site[2 * k];
    out[o + c] = site[2 * k + 1];
    o += 3;
  };
  for (let row = 0; row < whole; row++) for (let k = 0; k < m; k++) put(k, row);
  for (const k of taken) put(k, whole);
  return out;
}

/**
 * The most columns drawnRows adds on each axis across, and the most it stretches or draws any axis
 * (a factor of 1.05): the measured lattices (0.96 · 2r columns, 1.04 rows) lie within it; spread
 * columns (20 × 13 cm: 24 for 25 cells, rows 0.96 · 2r) passed the shear test but did not rest
 * (a frame of 0.0195 √(g h) settled, 0.0056 as started).
 */
const MOST_COLUMNS = 3, MOST_STRETCH = Math.log(1.05);

/**
 * A pool on the cubic lattice whose whole rows stand off the depth asked, on a lattice that holds
 * at that depth: one or both axes across drawn together to N + k whole columns from wall
 * to wall, the rows stretched by the inverse of their product, so that each particle still holds
 * the volume (2r)³ that ρ0 stands for, as fitBodyToWalls fits a body between walls
 * (start-packing.ts), and as many rows as fill the depth, the floor row and each wall's column half
 * their spacing from it (their mirror images continue the lattice: density-walls.ts). Of the
 * choices whose level (pool-level.ts poolLevel: the top row + r) lies within `tolerance` of the depth
 * asked and whose lattice holds (densityShearDrop ≤ 0 at kernel support h: no shear of it lowers the
 * density the pressure reads, start-packing.ts latticeGivesWay), the least stretched. The 20 and 40 ×
 * 5 cm slices at 4 mm: 26 or 52 columns for 25 or 50 cells (0.962 · 2r), 6 rows of 1.04 · 2r, the
 * level 49.76 mm. A partial row on the whole ones (rowsToLevel), settled, sank into the lattice below
 * and the lattice gave way from the top and the walls inwards over the next 4 s, the liquid compacting
 * 1.9 % as it went (docs/decisions.md "A still pool rests at any size"). start-settle.ts settles it
 * undisplaced: the top row's columns, drawn together, slide along them where the surface's cohesion
 * pushes them apart (from round-off alone without cohesion, by 1.4 s), which the settle's zeroing
 * takes up before frame 0. Null where no choice is within the tolerance and holds.
 */
export function drawnRows(p: PoolFloorSpec, r: number, h: number, tolerance: number): { positions: Float64Array; spacing: number[] } | null {
  const a = p.axis, b = (a + 1) % 3, c = (a + 2) % 3, d = 2 * r;
  const spanB = p.max[b] - p.min[b], spanC = p.max[c] - p.min[c];
  const nb0 = Math.round(spanB / d), nc0 = Math.round(spanC / d);
  let best: number[] | null = null, bestCost = Infinity;
  for (let kb = 0; kb <= MOST_COLUMNS; kb++) {
    for (let kc = 0; kc <= MOST_COLUMNS; kc++) {
      const nb = nb0 + kb, nc = nc0 + kc;
      const s = [0, 0, 0];
      s[b] = spanB / nb; s[c] = spanC / nc; s[a] = (d * d * d) / (s[b] * s[c]);
      const rows = Math.round(p.asked / s[a]);
      if (rows < 1 || Math.abs(((rows - 0.5) * s[a] + r) / p.asked - 1) > tolerance) continue;
      const cost = Math.max(...s.map((x) => Math.abs(Math.log(x / d))));
      if (cost > MOST_STRETCH || cost >= bestCost || densityShearDrop(s, h) > 0) continue;
      best = [s[0], s[1], s[2], nb, nc, rows];
      bestCost = cost;
    }
  }
  if (best === null) return null;
  const spacing = best.slice(0, 3), nb = best[3], nc = best[4], rows = best[5];
  const out = new Float64Array(3 * nb * nc * rows);
  let o = 0;
  for (let row = 0; row < rows; row++) {
    for (let i = 0; i < nb; i++) {
      for (let k = 0; k < nc; k++) {
        out[o + a] = p.floor - p.side * (row + 0.5) * spacing[a];
        out[o + b] = p.min[b] + (i + 0.5) * spacing[b];
        out[o + c] = p.min[c] + (k + 0.5) * spacing[c];
        o += 3;
      }
    }
  }
  return { positions: out, spacing };
}
