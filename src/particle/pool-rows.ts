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
 */
import type { PoolFloorSpec } from './pool-level.ts';

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
