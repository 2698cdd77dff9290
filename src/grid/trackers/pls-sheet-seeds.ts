/**
 * Liquid particles added where a sheet thinner than a cell has stretched past its particles (after
 * Ando & Tsuruno 2011, "A particle-based method for preserving fluid sheets", SCA: particles are
 * inserted where the sheet's particles have spread apart). A sheet cell (pls-cells.ts inSheet, φ
 * between −h/2 and +h/2 at its centre) that holds no liquid particle, and lies between two cells
 * that do (any of the 13 opposite pairs of its 26 neighbours), takes one on the segment between the
 * two particles of that pair nearest its centre, at the segment's point nearest the centre, where
 * that point lies in it (on the sheet where it is flat); its radius is r_min.
 * The sheet rule then holds the cell while the particle is there (keepSheets). On by default
 * (`ParticleLevelSet.sheetSeeds`; docs/decisions.md, "The honey drop's draped sheet on the grid").
 */
import type { GridSimulation } from '../step.ts';
import { SOLID } from '../store.ts';
import { cellAt, inSheet } from './pls-cells.ts';

interface Particles { count: number; pos: Float64Array; radius: Float64Array; add(x: number, y: number, z: number, r: number): void }

/** One of each opposite pair of the 26 neighbour offsets (the 13 after (0, 0, 0) in lexicographic order). */
const HALF = (() => {
  const out: number[] = [];
  for (let di = -1; di <= 1; di++) for (let dj = -1; dj <= 1; dj++) for (let dk = -1; dk <= 1; dk++) if (di > 0 || (di === 0 && (dj > 0 || (dj === 0 && dk > 0)))) out.push(di, dj, dk);
  return Int32Array.from(out);
})();

let first = new Int32Array(0), next = new Int32Array(0);

/** Adds the sheet's particles (see above); returns how many. */
export function seedSheets(sim: GridSimulation, pls: Particles): number {
  const s = sim.store, d = sim.d, h = d.h, inv = 1 / h, o = d.origin, n = s.count;
  if (first.length < n) first = new Int32Array(Math.ceil(n * 1.3));
  if (next.length < pls.count) next = new Int32Array(Math.ceil(pls.count * 1.3));
  first.fill(-1, 0, n);
  const g = new Float64Array(3), P = pls.pos, count = pls.count;
  for (let q = 0; q < count; q++) {
    if (!(pls.radius[q] < 0)) continue;
    g[0] = (P[3 * q] - o[0]) * inv; g[1] = (P[3 * q + 1] - o[1]) * inv; g[2] = (P[3 * q + 2] - o[2]) * inv;
    const c = cellAt(s, g);
    if (c < 0) continue;
    next[q] = first[c]; first[c] = q;
  }
  let added = 0;
  for (let c = 0; c < n; c++) {
    if (first[c] >= 0 || s.type[c] === SOLID || !(Math.abs(s.phi[c]) < 0.5 * h) || !inSheet(s, c, h)) continue;
    const i = s.ci[c], j = s.cj[c], k = s.ck[c];
    const cx = o[0] + h * (i + 0.5), cy = o[1] + h * (j + 0.5), cz = o[2] + h * (k + 0.5);
    for (let e = 0; e < 13; e++) {
      const di = HALF[3 * e], dj = HALF[3 * e + 1], dk = HALF[3 * e + 2];
      const m1 = s.find(i + di, j + dj, k + dk), m2 = s.find(i - di, j - dj, k - dk);
      if (m1 < 0 || m2 < 0 || first[m1] < 0 || first[m2] < 0) continue;
      const p1 = nearest(P, first[m1], cx, cy, cz), p2 = nearest(P, first[m2], cx, cy, cz);
      // The point of the segment between them nearest the cell's centre (on the sheet where it is flat).
      const ex = P[3 * p2] - P[3 * p1], ey = P[3 * p2 + 1] - P[3 * p1 + 1], ez = P[3 * p2 + 2] - P[3 * p1 + 2], l2 = ex * ex + ey * ey + ez * ez;
      const t = l2 > 0 ? Math.min(1, Math.max(0, ((cx - P[3 * p1]) * ex + (cy - P[3 * p1 + 1]) * ey + (cz - P[3 * p1 + 2]) * ez) / l2)) : 0.5;
      const mx = P[3 * p1] + t * ex, my = P[3 * p1 + 1] + t * ey, mz = P[3 * p1 + 2] + t * ez;
      if (Math.floor((mx - o[0]) * inv) !== i || Math.floor((my - o[1]) * inv) !== j || Math.floor((mz - o[2]) * inv) !== k) continue;
      pls.add(mx, my, mz, -0.1 * h);
      added++;
      break;
    }
  }
  return added;
}

/** The particle of the cell's list starting at `q` nearest (x, y, z). */
function nearest(P: Float64Array, q: number, x: number, y: number, z: number): number {
  let best = q, bd = Infinity;
  for (; q >= 0; q = next[q]) {
    const d2 = (P[3 * q] - x) ** 2 + (P[3 * q + 1] - y) ** 2 + (P[3 * q + 2] - z) ** 2;
    if (d2 < bd) { bd = d2; best = q; }
  }
  return best;
}
