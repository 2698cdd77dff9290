/**
 * The marker tracker's sheet rule: markers spread over a thin sheet or thread so that it stays
 * whole while it thins. Cline et al. (§4 step 4) make a cell liquid where a marker lies; a sheet
 * one cell thick that stretches keeps its markers but not their spacing, and a cell of it whose
 * last marker moves on becomes a hole although the cells on either side of it still hold liquid
 * (the honey drop's film on the grid, scenes/honey-drop-grid.json, was a lace of 68–87 pieces of
 * liquid cells at 0.4–0.5 s; docs/decisions.md, "Markers that keep a sheet whole"). After the
 * markers move, a cell that was liquid this step, holds no marker now, and lies between two cells
 * that do (one of the 13 opposite pairs of its 26 neighbours) takes liquid from the neighbour on
 * such a pair that holds the most (by weight, the markers' volume): that neighbour's marker
 * nearest the cell if it holds two or more, moved to the nearest point of the cell; if it holds
 * one, that marker splits into two of half its weight, one of them placed so (FLIP solvers keep
 * thin sheets by adding particles where a sheet would open, Ando & Tsuruno 2011, "A particle-based
 * method for preserving fluid sheets"; here the new marker takes half the weight of the one it
 * splits off, so the volume is kept: markers.ts). A marker splits only within a sheet one cell
 * thick: the emptied cell and both cells of the pair have no marker in either neighbour along one
 * direction at right angles to the pair (air, a solid or outside the grid on both sides), one of
 * the 13 directions of the axes and the face and corner diagonals, so that splitting does not
 * thicken a film or a pool (without it the honey drop's floor film grew into a slab several cells
 * deep). A sheet at a slant to the grid is a staircase of cells that holds a marker along every
 * axis, but not along the diagonal of its normal's signs: the face-connected cells of a plane of
 * integer normal (a, b, c) take |a| + |b| + |c| successive values of a i + b j + c k, and the
 * direction (sign a, sign b, sign c) steps over all of them. So the diagonals let a slanted sheet
 * split where the axes alone refused it (honey-drop-grid's bell opened its slits at the grid's
 * diagonals; docs/decisions.md, "honey-drop-grid's slits"). A marker lighter than 2 MIN_WEIGHT is
 * not split: a sheet is held down to MIN_WEIGHT / markersPerCell of a cell's volume a cell, 1/64
 * at 8 a cell, and below that it opens. The total weight, and so the volume, is unchanged; a surface that recedes from a bulk is
 * not held (the bulk below a surface cell is not across it from another liquid cell). Where a film
 * gathers back (a pool), a cell holding more than markersPerCell markers merges its split markers
 * two by two (weights adding up to at most 1, at their weighted mean position) until it holds
 * markersPerCell, so the count does not keep the splits a sheet once needed. Split markers that
 * leave a sheet go back into the liquid: a cell holding less than one seeded marker's weight
 * (GATHER_BELOW) with markers in five or six of its face neighbours (in a pool or a pile, on its
 * flat top) gives its weight to the heaviest of them and empties. A marker makes its whole cell
 * liquid (Cline et al. §4), so without it the split markers that land in the pool each keep a cell
 * liquid: the honey drop's pool on the floor was 6 cells deep at 3 s against the base's 3, and its
 * surface mesh enclosed 1 120 cm³ against 542 (249.8 cm³ poured; docs/decisions.md).
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

/** The lightest marker a split leaves, in lattice markers. */
export const MIN_WEIGHT = 1 / 8;

/**
 * A cell that is not part of a sheet one cell thick and holds less than this weight (in lattice
 * markers: less than one seeded marker's volume, so only split markers) gives it to a neighbour.
 */
export const GATHER_BELOW = 1;

/** Why the sheet rule left a liquid cell empty (MarkerSheets.probe). */
export const OPEN_EDGE = 0, OPEN_THICK = 1, OPEN_LIGHT = 2;

/** The 6 face directions. */
const FACES: readonly (readonly [number, number, number])[] = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];

/**
 * The directions (bit e for PAIRS[e]) along which neither neighbour of cell (i, j, k) holds a
 * marker, over the first `dirs` of PAIRS (3: the axes only; 13: the face, edge and corner
 * diagonals too).
 */
function thinDirections(s: GridStore, had: Uint8Array, i: number, j: number, k: number, dirs: number): number {
  let mask = 0;
  for (let e = 0; e < dirs; e++) {
    const [dx, dy, dz] = PAIRS[e];
    const a = s.find(i + dx, j + dy, k + dz), b = s.find(i - dx, j - dy, k - dz);
    if ((a < 0 || had[a] === 0) && (b < 0 || had[b] === 0)) mask |= 1 << e;
  }
  return mask;
}

/** For each pair direction e, the directions of PAIRS at right angles to it (bit t: PAIRS[t] · PAIRS[e] = 0). */
const ACROSS: readonly number[] = PAIRS.map((e) => PAIRS.reduce((m, t, b) => (t[0] * e[0] + t[1] * e[1] + t[2] * e[2] === 0 ? m | (1 << b) : m), 0));

export class MarkerSheets {
  /** Markers per stored cell, their weight; the head of each cell's list of markers, and the next marker in it. */
  private count = new Int32Array(0);
  private weight = new Float64Array(0);
  private had = new Uint8Array(0);
  private head = new Int32Array(0);
  private next = new Int32Array(0);
  /** Whether markers are split (false: moved only, the rule before markers carried weights). */
  splits = true;
  /**
   * Whether a sheet one cell thick is told by the face, edge and corner diagonals as well as the
   * axes (true), or by the axes only (false: the rule before, which missed sheets at a slant to
   * the grid, whose staircase of cells has a marker along every axis).
   */
  diagonalSheets = true;
  /** The lightest marker a split leaves (MIN_WEIGHT). */
  minWeight = MIN_WEIGHT;
  /** Markers moved into emptied cells by the last `keep`. */
  moved = 0;
  /** Of those, the markers that were split off a cell's only marker. */
  split = 0;
  /** Markers merged into another by the last `keep`. */
  merged = 0;
  /** Cells gathered into a neighbour by the last `keep` (their markers' weight given to it). */
  gathered = 0;
  /** A cell outside any one-cell sheet holding less weight than this gives it to a neighbour (GATHER_BELOW; 0: off). */
  gatherBelow = GATHER_BELOW;
  /**
   * Called for each liquid cell the rule leaves empty (a bench's probe; null in a run): why, as
   * OPEN_EDGE (no pair of neighbours across it holds markers), OPEN_THICK (a pair does, but every
   * donor holds one marker and the cell is not in a sheet one cell thick) or OPEN_LIGHT (a split
   * was allowed, but the marker is under 2 minWeight).
   */
  probe: ((cell: number, reason: number) => void) | null = null;

  /** perCell: the scene's markers a cell (grid.markersPerCell), the count a cell may keep its split markers down to. */
  constructor(private readonly perCell: number) {}

  /** Applies the rule to the markers after a move (store `s` still typed from this step's rebuild); returns the markers moved or split off. */
  keep(s: GridStore, d: GridDomain, m: Markers): number {
    const n = s.count, inv = 1 / d.h, { ci, cj, ck, type } = s;
    let p = m.pos, wt = m.weight;
    if (this.count.length < n) {
      this.count = new Int32Array(Math.ceil(n * 1.3));
      this.weight = new Float64Array(this.count.length);
      this.had = new Uint8Array(this.count.length);
      this.head = new Int32Array(this.count.length);
    }
    // Room for every marker and one split off each cell.
    if (this.next.length < m.count + n) this.next = new Int32Array(Math.ceil((m.count + n) * 1.3));
    const count = this.count, weight = this.weight, had = this.had, head = this.head, next = this.next;
    count.fill(0, 0, n);
    weight.fill(0, 0, n);
    head.fill(-1, 0, n);
    for (let q = 0; q < m.count; q++) {
      const c = s.find(Math.floor((p[3 * q] - d.origin[0]) * inv), Math.floor((p[3 * q + 1] - d.origin[1]) * inv), Math.floor((p[3 * q + 2] - d.origin[2]) * inv));
      if (c < 0) continue;
      count[c]++;
      weight[c] += wt[q];
      next[q] = head[c];
      head[c] = q;
    }
    const merged = this.merge(n, p, wt);
    // Whether a pair holds liquid is read from the markers as they moved, not as cells are filled,
    // so that one pass fills holes one cell wide and does not creep across wider ones.
    for (let c = 0; c < n; c++) had[c] = count[c] > 0 ? 1 : 0;
    const gathered = this.gatherBelow > 0 ? this.gather(s, n, wt) : 0;
    if (gathered > 0) for (let c = 0; c < n; c++) if (count[c] < 0) had[c] = 0;
    let moved = 0, split = 0;
    for (let c = 0; c < n; c++) {
      // count −1: a cell gathered into its neighbour this step, left empty.
      if (type[c] !== FLUID || count[c] !== 0) continue;
      const i = ci[c], j = cj[c], k = ck[c];
      // A split only in a sheet one cell thick here: along some direction neither neighbour holds a
      // marker (air, a solid or outside the grid), so that splitting never thickens a film or a pool.
      const dirs = this.diagonalSheets ? PAIRS.length : 3;
      const sheet = this.splits ? thinDirections(s, had, i, j, k, dirs) : 0;
      let donor = -1, most = 0, why = OPEN_EDGE;
      for (let e = 0; e < PAIRS.length; e++) {
        const [dx, dy, dz] = PAIRS[e];
        const a = s.find(i + dx, j + dy, k + dz);
        if (a < 0 || had[a] === 0) continue;
        const b = s.find(i - dx, j - dy, k - dz);
        if (b < 0 || had[b] === 0) continue;
        // A split across this pair: the cell and both ends thin along a direction at right angles to the pair.
        const across = sheet & ACROSS[e];
        const splits = across !== 0 && (across & thinDirections(s, had, i + dx, j + dy, k + dz, dirs) & thinDirections(s, had, i - dx, j - dy, k - dz, dirs)) !== 0;
        if (weight[a] > most && (count[a] > 1 || (splits && wt[head[a]] >= 2 * this.minWeight))) { most = weight[a]; donor = a; }
        if (weight[b] > most && (count[b] > 1 || (splits && wt[head[b]] >= 2 * this.minWeight))) { most = weight[b]; donor = b; }
        why = splits ? OPEN_LIGHT : Math.max(why, OPEN_THICK);
      }
      if (donor < 0) {
        if (this.probe) this.probe(c, why);
        continue;
      }
      // The donor's marker nearest the cell's centre, moved (or its half, split off) to the nearest point of the cell.
      const x0 = d.origin[0] + d.h * i, y0 = d.origin[1] + d.h * j, z0 = d.origin[2] + d.h * k;
      const cx = x0 + 0.5 * d.h, cy = y0 + 0.5 * d.h, cz = z0 + 0.5 * d.h;
      let best = -1, prevBest = -1, bestD = Infinity;
      for (let q = head[donor], prev = -1; q >= 0; prev = q, q = next[q]) {
        const dd = (p[3 * q] - cx) ** 2 + (p[3 * q + 1] - cy) ** 2 + (p[3 * q + 2] - cz) ** 2;
        if (dd < bestD) { bestD = dd; best = q; prevBest = prev; }
      }
      const eps = 1e-3 * d.h;
      const x = Math.min(x0 + d.h - eps, Math.max(x0 + eps, p[3 * best]));
      const y = Math.min(y0 + d.h - eps, Math.max(y0 + eps, p[3 * best + 1]));
      const z = Math.min(z0 + d.h - eps, Math.max(z0 + eps, p[3 * best + 2]));
      let q = best;
      if (count[donor] > 1) {
        if (prevBest < 0) head[donor] = next[best];
        else next[prevBest] = next[best];
        count[donor]--;
        weight[donor] -= wt[best];
        p[3 * best] = x; p[3 * best + 1] = y; p[3 * best + 2] = z;
        weight[c] = wt[best];
      } else {
        const half = 0.5 * wt[best];
        wt[best] = half;
        weight[donor] = half;
        q = m.count;
        m.add(x, y, z, m.material[best], half);
        p = m.pos;
        wt = m.weight;
        weight[c] = half;
        split++;
      }
      count[c] = 1;
      head[c] = q;
      next[q] = -1;
      moved++;
    }
    this.split = split;
    this.merged = merged;
    this.gathered = gathered;
    if (merged > 0 || gathered > 0) m.dropWeightless();
    return (this.moved = moved);
  }

  /**
   * Split markers that have left a sheet go back into the liquid: a cell holding markers, less
   * weight than gatherBelow, and markers in at least five of its six face neighbours (inside a
   * pile, on the flat surface of a pool or of a film two cells deep; not in a sheet one cell
   * thick, flat or slanting, nor in a film on a solid, which have two faces without markers)
   * gives its weight to the face neighbour holding the most, of at least gatherBelow, added to
   * that cell's first marker; its markers are left at weight 0 (for `dropWeightless`) and the cell
   * empty, marked count −1 so that the fill does not take liquid back into it this step. Decided
   * from `had` (the markers as they moved), so the order of cells does not matter; a receiving
   * cell holds at least gatherBelow and so never gives.
   */
  private gather(s: GridStore, n: number, wt: Float64Array): number {
    const count = this.count, weight = this.weight, had = this.had, head = this.head, next = this.next, ci = s.ci, cj = s.cj, ck = s.ck;
    let gathered = 0;
    for (let c = 0; c < n; c++) {
      if (count[c] <= 0 || weight[c] >= this.gatherBelow) continue;
      const i = ci[c], j = cj[c], k = ck[c];
      let to = -1, most = this.gatherBelow, open = 0;
      for (let e = 0; e < 6; e++) {
        const [dx, dy, dz] = FACES[e];
        const a = s.find(i + dx, j + dy, k + dz);
        if (a < 0 || had[a] === 0) open++;
        else if (weight[a] >= most) { most = weight[a]; to = a; }
      }
      if (to < 0 || open > 1) continue;
      wt[head[to]] += weight[c];
      weight[to] += weight[c];
      for (let q = head[c]; q >= 0; q = next[q]) wt[q] = 0;
      weight[c] = 0;
      count[c] = -1;
      head[c] = -1;
      gathered++;
    }
    return gathered;
  }

  /**
   * In each cell holding more than perCell markers, merges markers lighter than 1 two by two (the
   * second into the first: summed weight, weighted mean position; the second left at weight 0,
   * unlinked from the cell's list, for `dropWeightless`) while their weights add up to at most 1.
   */
  private merge(n: number, p: Float64Array, wt: Float64Array): number {
    const count = this.count, head = this.head, next = this.next, perCell = this.perCell;
    let merged = 0;
    for (let c = 0; c < n; c++) {
      if (count[c] <= perCell) continue;
      let open = -1;
      for (let q = head[c], prev = -1; q >= 0 && count[c] > perCell; ) {
        const after = next[q];
        if (wt[q] < 1 && open >= 0 && wt[open] + wt[q] <= 1) {
          const wa = wt[open], wb = wt[q], w = wa + wb;
          for (let a = 0; a < 3; a++) p[3 * open + a] = (wa * p[3 * open + a] + wb * p[3 * q + a]) / w;
          wt[open] = w;
          wt[q] = 0;
          if (prev < 0) head[c] = after;
          else next[prev] = after;
          count[c]--;
          merged++;
          if (w >= 1) open = -1;
        } else {
          if (wt[q] < 1 && (open < 0 || wt[q] < wt[open])) open = q;
          prev = q;
        }
        q = after;
      }
    }
    return merged;
  }
}
