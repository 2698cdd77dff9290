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
 * diagonals; docs/decisions.md, "honey-drop-grid's slits"). A cell no opposite pair brackets takes
 * liquid from two neighbours that are not opposite where the segment between their markers nearest
 * its centre passes through it (slantDonor): a curtain round a vertical axis is a digital circle in
 * each horizontal plane, whose cells' neighbours along it sit at offsets such as (−1, 0, 0) and
 * (1, 0, 1), so a vertical run of emptied cells had no pair to refill from and opened into the
 * slits of honey-drop-grid's curtain (docs/decisions.md, "honey-drop-grid's curtain without
 * holes"). A marker moved or split off goes to the point of its pair's segment nearest the cell's
 * centre (on the sheet) where that lies in the cell, else to the nearest point of the cell. A
 * marker lighter than 2 MIN_WEIGHT is not split: a sheet is held down to MIN_WEIGHT /
 * markersPerCell of a cell's volume a cell, 1/128 at 8 a cell, and below that it opens. The total weight, and so the volume, is unchanged; a surface that recedes from a bulk is
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

/** The lightest marker a split leaves, in lattice markers (1/8 left a thinning curtain opening where its markers reached it). */
export const MIN_WEIGHT = 1 / 16;

/**
 * A cell that is not part of a sheet one cell thick and holds less than this weight (in lattice
 * markers: less than one seeded marker's volume, so only split markers) gives it to a neighbour.
 */
export const GATHER_BELOW = 1;

/** Why the sheet rule left a liquid cell empty (MarkerSheets.probe). */
export const OPEN_EDGE = 0, OPEN_THICK = 1, OPEN_LIGHT = 2;

/** The 26 neighbour offsets, ordered so that offset e and offset 25 − e are opposite. */
const NEIGHBOURS = (() => {
  const out: number[] = [];
  for (let di = -1; di <= 1; di++) for (let dj = -1; dj <= 1; dj++) for (let dk = -1; dk <= 1; dk++) if (di || dj || dk) out.push(di, dj, dk);
  return Int32Array.from(out);
})();

/** The marker of cell `c`'s list nearest (x, y, z). */
function nearestIn(head: Int32Array, next: Int32Array, p: Float64Array, c: number, x: number, y: number, z: number): number {
  let best = head[c], bd = Infinity;
  for (let q = head[c]; q >= 0; q = next[q]) {
    const dd = (p[3 * q] - x) ** 2 + (p[3 * q + 1] - y) ** 2 + (p[3 * q + 2] - z) ** 2;
    if (dd < bd) { bd = dd; best = q; }
  }
  return best;
}

/** Whether the point of the segment between markers q1 and q2 nearest cell (i, j, k)'s centre lies in that cell; the point in `out`. */
function segmentInCell(p: Float64Array, q1: number, q2: number, d: GridDomain, i: number, j: number, k: number, out: Float64Array): boolean {
  const h = d.h, o = d.origin, inv = 1 / h;
  const cx = o[0] + h * (i + 0.5), cy = o[1] + h * (j + 0.5), cz = o[2] + h * (k + 0.5);
  const ex = p[3 * q2] - p[3 * q1], ey = p[3 * q2 + 1] - p[3 * q1 + 1], ez = p[3 * q2 + 2] - p[3 * q1 + 2], l2 = ex * ex + ey * ey + ez * ez;
  if (!(l2 > 0)) return false;
  const t = Math.min(1, Math.max(0, ((cx - p[3 * q1]) * ex + (cy - p[3 * q1 + 1]) * ey + (cz - p[3 * q1 + 2]) * ez) / l2));
  out[0] = p[3 * q1] + t * ex; out[1] = p[3 * q1 + 1] + t * ey; out[2] = p[3 * q1 + 2] + t * ez;
  return Math.floor((out[0] - o[0]) * inv) === i && Math.floor((out[1] - o[1]) * inv) === j && Math.floor((out[2] - o[2]) * inv) === k;
}

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
  /** Whether a cell no opposite pair brackets may take liquid from two neighbours whose markers span a segment through it (slantDonor). */
  slantPairs = true;
  private readonly nb = new Int32Array(26);
  private readonly near = new Int32Array(26);
  private readonly at = new Float64Array(3);
  private readonly seg = new Float64Array(3);
  /** Whether a marker moved or split across an opposite pair goes to the point of the segment between the pair's markers nearest the cell's centre, where it lies in the cell (false: the nearest point of the cell to the donor's marker). */
  pairOnSheet = true;
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
      let donor = -1, other = -1, most = 0, why = OPEN_EDGE;
      for (let e = 0; e < PAIRS.length; e++) {
        const [dx, dy, dz] = PAIRS[e];
        const a = s.find(i + dx, j + dy, k + dz);
        if (a < 0 || had[a] === 0) continue;
        const b = s.find(i - dx, j - dy, k - dz);
        if (b < 0 || had[b] === 0) continue;
        // A split across this pair: the cell and both ends thin along a direction at right angles to the pair.
        const across = sheet & ACROSS[e];
        const splits = across !== 0 && (across & thinDirections(s, had, i + dx, j + dy, k + dz, dirs) & thinDirections(s, had, i - dx, j - dy, k - dz, dirs)) !== 0;
        if (weight[a] > most && (count[a] > 1 || (splits && wt[head[a]] >= 2 * this.minWeight))) { most = weight[a]; donor = a; other = b; }
        if (weight[b] > most && (count[b] > 1 || (splits && wt[head[b]] >= 2 * this.minWeight))) { most = weight[b]; donor = b; other = a; }
        why = splits ? OPEN_LIGHT : Math.max(why, OPEN_THICK);
      }
      const x0 = d.origin[0] + d.h * i, y0 = d.origin[1] + d.h * j, z0 = d.origin[2] + d.h * k;
      const cx = x0 + 0.5 * d.h, cy = y0 + 0.5 * d.h, cz = z0 + 0.5 * d.h;
      let onSheet = donor >= 0 && this.pairOnSheet && segmentInCell(p, nearestIn(head, next, p, donor, cx, cy, cz), nearestIn(head, next, p, other, cx, cy, cz), d, i, j, k, this.at);
      if (donor < 0 && this.slantPairs) {
        const found = this.slantDonor(s, d, p, wt, c, sheet, dirs);
        if (found >= 0) { donor = found; onSheet = true; }
        else why = Math.max(why, -1 - found);
      }
      if (donor < 0) {
        if (this.probe) this.probe(c, why);
        continue;
      }
      // The donor's marker nearest the cell's centre, moved (or its half, split off) to the nearest point of the cell.
      let best = -1, prevBest = -1, bestD = Infinity;
      for (let q = head[donor], prev = -1; q >= 0; prev = q, q = next[q]) {
        const dd = (p[3 * q] - cx) ** 2 + (p[3 * q + 1] - cy) ** 2 + (p[3 * q + 2] - cz) ** 2;
        if (dd < bestD) { bestD = dd; best = q; prevBest = prev; }
      }
      const eps = 1e-3 * d.h, tx = onSheet ? this.at[0] : p[3 * best], ty = onSheet ? this.at[1] : p[3 * best + 1], tz = onSheet ? this.at[2] : p[3 * best + 2];
      const x = Math.min(x0 + d.h - eps, Math.max(x0 + eps, tx));
      const y = Math.min(y0 + d.h - eps, Math.max(y0 + eps, ty));
      const z = Math.min(z0 + d.h - eps, Math.max(z0 + eps, tz));
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
   * A donor for an emptied cell that no opposite pair of neighbours brackets: two neighbours holding
   * markers, not opposite, whose markers nearest the cell's centre span a segment through the cell
   * (a sheet at a slant whose layer steps: a curtain round a vertical axis is a digital circle in
   * each horizontal plane, and at most azimuths a cell's two neighbours along it are at offsets such
   * as (−1, 0, 0) and (1, 0, 1)). The donor is the one of the pair holding the most weight that holds
   * two or more markers, or one heavy enough to split where the cell and both of the pair are thin
   * along a common direction (thinDirections). Returns the donor, its target (the segment's point
   * nearest the cell's centre) in `at`; or −1 − the refusal (OPEN_EDGE, OPEN_THICK, OPEN_LIGHT).
   */
  private slantDonor(s: GridStore, d: GridDomain, p: Float64Array, wt: Float64Array, c: number, sheet: number, dirs: number): number {
    const had = this.had, head = this.head, next = this.next, count = this.count, weight = this.weight, nb = this.nb, near = this.near, seg = this.seg;
    const i = s.ci[c], j = s.cj[c], k = s.ck[c], h = d.h, o = d.origin;
    const cx = o[0] + h * (i + 0.5), cy = o[1] + h * (j + 0.5), cz = o[2] + h * (k + 0.5);
    let n = 0;
    for (let e = 0; e < 26; e++) {
      const a = s.find(i + NEIGHBOURS[3 * e], j + NEIGHBOURS[3 * e + 1], k + NEIGHBOURS[3 * e + 2]);
      if (a < 0 || had[a] === 0 || head[a] < 0) continue;
      nb[n] = e; near[n++] = nearestIn(head, next, p, a, cx, cy, cz);
    }
    let donor = -1, most = 0, why = OPEN_EDGE;
    for (let u = 0; u < n; u++) {
      for (let v = u + 1; v < n; v++) {
        // Opposite neighbours were read by the pairs' loop.
        if (nb[u] + nb[v] === 25) continue;
        if (!segmentInCell(p, near[u], near[v], d, i, j, k, seg)) continue;
        const eu = nb[u], ev = nb[v];
        const a = s.find(i + NEIGHBOURS[3 * eu], j + NEIGHBOURS[3 * eu + 1], k + NEIGHBOURS[3 * eu + 2]);
        const b = s.find(i + NEIGHBOURS[3 * ev], j + NEIGHBOURS[3 * ev + 1], k + NEIGHBOURS[3 * ev + 2]);
        const splits = sheet !== 0 && (sheet & thinDirections(s, had, s.ci[a], s.cj[a], s.ck[a], dirs) & thinDirections(s, had, s.ci[b], s.cj[b], s.ck[b], dirs)) !== 0;
        let got = false;
        if (weight[a] > most && (count[a] > 1 || (splits && wt[head[a]] >= 2 * this.minWeight))) { most = weight[a]; donor = a; got = true; }
        if (weight[b] > most && (count[b] > 1 || (splits && wt[head[b]] >= 2 * this.minWeight))) { most = weight[b]; donor = b; got = true; }
        if (got) { this.at[0] = seg[0]; this.at[1] = seg[1]; this.at[2] = seg[2]; }
        why = splits ? OPEN_LIGHT : Math.max(why, OPEN_THICK);
      }
    }
    return donor >= 0 ? donor : -1 - why;
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
