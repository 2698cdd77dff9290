/**
 * The marker tracker's sheet rule: markers spread over a thin sheet or thread so that it stays
 * whole while it has markers to spare. Cline et al. (§4 step 4) make a cell liquid where a marker
 * lies; a sheet one cell thick that stretches keeps its markers but not their spacing, and a cell
 * of it whose last marker moves on becomes a hole although the cells on either side of it still
 * hold liquid (the honey drop's film on the grid, scenes/honey-drop-grid.json, was a lace of
 * 68–87 pieces of liquid cells at 0.4–0.5 s; docs/decisions.md, "Markers that keep a sheet
 * whole"). After the markers move, a cell that was liquid this step, holds no marker now, and lies
 * between two cells that do (one of the 13 opposite pairs of its 26 neighbours) takes the nearest
 * marker of the neighbour on such a pair that holds the most, if that one holds two or more, moved
 * to the nearest point of the cell. The marker count, and so the volume, is unchanged: a sheet is
 * kept whole only as far as its own markers cover it, and a surface that recedes from a bulk is
 * not held (the bulk below a surface cell is not across it from another liquid cell).
 */
import type { GridDomain } from '../domain.ts';
import type { Markers } from '../markers.ts';
import { FLUID as FLUID_, type GridStore } from '../store.ts';
// Imported bindings are getters under tsx's module transform: copied to constants for hot loops.
const FLUID = FLUID_;

/** The 13 directions of the opposite pairs through a cell (the other neighbour is at minus it). */
const PAIRS: readonly (readonly [number, number, number])[] = [
  [1, 0, 0], [0, 1, 0], [0, 0, 1],
  [1, 1, 0], [1, -1, 0], [1, 0, 1], [1, 0, -1], [0, 1, 1], [0, 1, -1],
  [1, 1, 1], [1, 1, -1], [1, -1, 1], [-1, 1, 1],
];

export class MarkerSheets {
  /** Markers per stored cell; the head of each cell's list of markers, and the next marker in it. */
  private count = new Int32Array(0);
  private had = new Uint8Array(0);
  private head = new Int32Array(0);
  private next = new Int32Array(0);
  /** Markers moved into emptied cells by the last `keep`. */
  moved = 0;

  /** Applies the rule to the markers after a move (store `s` still typed from this step's rebuild); returns the markers moved. */
  keep(s: GridStore, d: GridDomain, m: Markers): number {
    const n = s.count, inv = 1 / d.h, p = m.pos, { ci, cj, ck, type } = s;
    if (this.count.length < n) {
      this.count = new Int32Array(Math.ceil(n * 1.3));
      this.had = new Uint8Array(this.count.length);
      this.head = new Int32Array(this.count.length);
    }
    if (this.next.length < m.count) this.next = new Int32Array(Math.ceil(m.count * 1.3));
    const count = this.count, had = this.had, head = this.head, next = this.next;
    count.fill(0, 0, n);
    head.fill(-1, 0, n);
    for (let q = 0; q < m.count; q++) {
      const c = s.find(Math.floor((p[3 * q] - d.origin[0]) * inv), Math.floor((p[3 * q + 1] - d.origin[1]) * inv), Math.floor((p[3 * q + 2] - d.origin[2]) * inv));
      if (c < 0) continue;
      count[c]++;
      next[q] = head[c];
      head[c] = q;
    }
    // Whether a pair holds liquid is read from the markers as they moved, not as cells are filled,
    // so that one pass fills holes one cell wide and does not creep across wider ones.
    for (let c = 0; c < n; c++) had[c] = count[c] > 0 ? 1 : 0;
    let moved = 0;
    for (let c = 0; c < n; c++) {
      if (type[c] !== FLUID || count[c] > 0) continue;
      const i = ci[c], j = cj[c], k = ck[c];
      let donor = -1, most = 1;
      for (let e = 0; e < PAIRS.length; e++) {
        const [dx, dy, dz] = PAIRS[e];
        const a = s.find(i + dx, j + dy, k + dz);
        if (a < 0 || had[a] === 0) continue;
        const b = s.find(i - dx, j - dy, k - dz);
        if (b < 0 || had[b] === 0) continue;
        if (count[a] > most) { most = count[a]; donor = a; }
        if (count[b] > most) { most = count[b]; donor = b; }
      }
      if (donor < 0) continue;
      // The donor's marker nearest the cell's centre, moved to the nearest point of the cell.
      const x0 = d.origin[0] + d.h * i, y0 = d.origin[1] + d.h * j, z0 = d.origin[2] + d.h * k;
      const cx = x0 + 0.5 * d.h, cy = y0 + 0.5 * d.h, cz = z0 + 0.5 * d.h;
      let best = -1, prevBest = -1, bestD = Infinity;
      for (let q = head[donor], prev = -1; q >= 0; prev = q, q = next[q]) {
        const dd = (p[3 * q] - cx) ** 2 + (p[3 * q + 1] - cy) ** 2 + (p[3 * q + 2] - cz) ** 2;
        if (dd < bestD) { bestD = dd; best = q; prevBest = prev; }
      }
      if (prevBest < 0) head[donor] = next[best];
      else next[prevBest] = next[best];
      count[donor]--;
      const eps = 1e-3 * d.h;
      p[3 * best] = Math.min(x0 + d.h - eps, Math.max(x0 + eps, p[3 * best]));
      p[3 * best + 1] = Math.min(y0 + d.h - eps, Math.max(y0 + eps, p[3 * best + 1]));
      p[3 * best + 2] = Math.min(z0 + d.h - eps, Math.max(z0 + eps, p[3 * best + 2]));
      count[c] = 1;
      head[c] = best;
      next[best] = -1;
      moved++;
    }
    return (this.moved = moved);
  }
}
