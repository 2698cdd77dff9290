/**
 * The lower entries the measures' wall ghosts read where the solve rows are their upper parts alone
 * (one thread: solve-setup.ts prepareSolve). Every loop of the pressure stage and PBF on one thread
 * takes each pair once, from its lower slot (pressure-half.ts); the measures' ghosts alone
 * (pressure-half.ts ghostFactor, the mirror images of Akinci et al. 2012's boundary-handled SPH read
 * as closed walls) take a walled slot's whole row, in row order: its lower entries b < a in ascending
 * b, then its upper entries. A pair adds to them only where both slots see a wall on a common axis
 * and side (`common`, symmetric in a and b), so a slot's lower entries that count are those of
 * walled slots b < a whose upper rows name it with such a wall: listed here after WALLS, in
 * ascending b (the order of the full rows' lower part), for walled slots only. The terms are the
 * ones the full rows gave, added in the same order: the same bits, with no full rows listed
 * (docs/decisions.md, branch dam9).
 */
import type { SolveView } from './pressure-kernels.ts';
import { cubicSpline, cubicSplineSlope } from '../math/kernels.ts';
import { ghostSum, NEIGHBOUR_EDGE, ownImages } from './pressure-ghosts.ts';

/** Bits of wmask that say which axes have a wall within h (pressure-ghosts.ts). */
const AXES = 7;

/**
 * Per walled slot a (its index k = at[a] among the walled slots, in slot order), the walled slots
 * b < a that share a wall with it: j[start[k] .. start[k + 1]), ascending.
 */
export class WallLower {
  start = new Int32Array(2);
  j = new Int32Array(0);
  /** Per slot: its index among the walled slots (valid for the slots walled at the last listing). */
  at = new Int32Array(0);
  /** The walled slots in slot order. */
  slots = new Int32Array(0);
  /** The rows the list was made for (ghostFactor checks them). */
  rows: Int32Array | null = null;
}

/**
 * Lists into t, for n slots after WALLS (v.wmask), the lower entries that share a wall (see the
 * header), from the walled slots' upper rows (mid[a] … ls[a + 1]): a scan of the masks, then two
 * passes over the walled slots alone (their count, then their entries).
 */
export function listWallLower(v: SolveView, n: number, mid: Int32Array, t: WallLower): void {
  const ls = v.ls, lj = v.lj, mask = v.wmask;
  if (t.at.length < n) {
    t.at = new Int32Array(Math.ceil(1.25 * n));
    t.slots = new Int32Array(t.at.length);
  }
  const at = t.at, slots = t.slots;
  let w = 0;
  for (let a = 0; a < n; a++) {
    if (mask[a] === 0) continue;
    at[a] = w;
    slots[w++] = a;
  }
  if (t.start.length < w + 2) t.start = new Int32Array(Math.ceil(1.25 * (w + 2)));
  const start = t.start;
  start.fill(0, 0, w + 2);
  // Counts into start[k + 2], so that after the running sum start[k + 1] is k's first entry and
  // the fill's cursor, which it leaves at k's end: start[k] is then k's first entry.
  let total = 0;
  for (let k = 0; k < w; k++) {
    const a = slots[k], wa = mask[a], ma = wa & AXES;
    for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
      const b = lj[q], wb = mask[b];
      if ((ma & wb & ~((wa ^ wb) >> 3)) === 0) continue;
      start[at[b] + 2]++;
      total++;
    }
  }
  for (let k = 2; k < w + 2; k++) start[k] += start[k - 1];
  if (t.j.length < total) t.j = new Int32Array(Math.ceil(1.25 * total) + 64);
  const j = t.j;
  for (let k = 0; k < w; k++) {
    const a = slots[k], wa = mask[a], ma = wa & AXES;
    for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
      const b = lj[q], wb = mask[b];
      if ((ma & wb & ~((wa ^ wb) >> 3)) === 0) continue;
      j[start[at[b] + 1]++] = a;
    }
  }
  t.rows = ls;
}

/** ghostFactor's running sums between a slot's own images and its row's two parts: w0, e1, e2, e3, t4, the count. */
const sums = new Float64Array(6);

/**
 * The ghosts' share of factorRowWalls (pressure-ghosts.ts) for slot a (wmask ≠ 0), into
 * ghostSum[6..14], the same sums in the same order without its liquid terms (pressure-half.ts
 * factorHalf has them): a's own images, then the images of each neighbour of its row that shares a
 * wall with it, the lower entries (the full rows' lower part, or with `upperOnly` the list made
 * after WALLS) before the upper ones. `densityOnly`: [6] alone (densityHalf).
 */
export function ghostFactor(v: SolveView, a: number, densityOnly: boolean, hr: { mid: Int32Array; upperOnly: boolean; lower?: WallLower }): void {
  ownImages(v, a, sums);
  const o1 = sums[1], o2 = sums[2], o3 = sums[3];
  const ls = v.ls, lj = v.lj, mid = hr.mid;
  if (hr.upperOnly) {
    const t = hr.lower;
    if (!t || t.rows !== ls) throw new Error('pressure measure: rows of upper parts alone with closed walls need the walled lower entries listed after WALLS (pressure-wall-lower.ts listWallLower)');
    const k = t.at[a], q0 = t.start[k], q1 = t.start[k + 1];
    if (q0 < q1) ghostPairs(v, a, t.j, q0, q1, densityOnly);
  } else ghostPairs(v, a, lj, ls[a], mid[a], densityOnly);
  ghostPairs(v, a, lj, mid[a], ls[a + 1], densityOnly);
  const out = ghostSum;
  out[6] = sums[0]; out[7] = sums[1]; out[8] = sums[2]; out[9] = sums[3]; out[10] = sums[4];
  out[11] = o1; out[12] = o2; out[13] = o3; out[14] = sums[5];
}

/** ghostFactor's terms of the neighbours js[q0 .. q1) of slot a, added to `sums` in that order. */
function ghostPairs(v: SolveView, a: number, js: Int32Array | Uint16Array, q0: number, q1: number, densityOnly: boolean): void {
  const x = v.x, mask = v.wmask, del = v.wdel, invMass = v.invMass, uniform = v.uniform;
  const h = v.h, h2 = h * h, invH = 1 / h, edge2 = NEIGHBOUR_EDGE * NEIGHBOUR_EDGE * h2;
  const wa = mask[a], ma = wa & AXES;
  const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1;
  const dax = del[3 * a], day = del[3 * a + 1], daz = del[3 * a + 2];
  let w0 = sums[0], e1 = sums[1], e2 = sums[2], e3 = sums[3], t4 = sums[4], ghosts = sums[5];
  const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
  for (let q = q0; q < q1; q++) {
    const j = js[q], wb = mask[j];
    // The axes whose walls a and b both see, the same wall (the same sign bit).
    const common = ma & wb & ~((wa ^ wb) >> 3);
    if (common === 0) continue;
    const b = 3 * j;
    const dx = xa - x[b], dy = ya - x[b + 1], dz = za - x[b + 2];
    const bx = dax + del[b], by = day + del[b + 1], bz = daz + del[b + 2];
    if (densityOnly) {
      for (let S = common; S > 0; S = (S - 1) & common) {
        const ox = S & 1 ? sx * bx : dx, oy = S & 2 ? sy * by : dy, oz = S & 4 ? sz * bz : dz;
        const gd2 = ox * ox + oy * oy + oz * oz;
        if (gd2 >= h2) continue;
        w0 += cubicSpline(Math.sqrt(gd2) * invH);
      }
      continue;
    }
    // A pair none of whose images lies within h adds nothing: its T_b is G_ab alone, and
    // |T_b|² − g0 is x − x, +0 (most pairs beside a wall: their images lie beyond h).
    let reach = false;
    for (let S = common; S > 0 && !reach; S = (S - 1) & common) {
      const ox = S & 1 ? sx * bx : dx, oy = S & 2 ? sy * by : dy, oz = S & 4 ? sz * bz : dz;
      reach = ox * ox + oy * oy + oz * oz < h2;
    }
    if (!reach) continue;
    // T_b's G_ab at full precision (factorRowWalls's liquid term).
    const dd = dx * dx + dy * dy + dz * dz;
    const d = Math.sqrt(dd), s = d * invH;
    let tx = 0, ty = 0, tz = 0;
    if (s < 1 && d !== 0) {
      const t = 1 - s, slope = s <= 0.5 ? s * (18 * s - 12) : -6 * t * t;
      const fu = (slope * invH) / d;
      tx = fu * dx; ty = fu * dy; tz = fu * dz;
    }
    const g0 = tx * tx + ty * ty + tz * tz;
    // factorRowWalls' loop over the pair's images (pressure-ghosts.ts says why it is written out twice).
    for (let S = common; S > 0; S = (S - 1) & common) {
      const ox = S & 1 ? sx * bx : dx, oy = S & 2 ? sy * by : dy, oz = S & 4 ? sz * bz : dz;
      const gd2 = ox * ox + oy * oy + oz * oz;
      if (gd2 >= h2) continue;
      if (gd2 < edge2) ghosts++;
      const gd = Math.sqrt(gd2), gs = gd * invH;
      w0 += cubicSpline(gs);
      if (gd === 0) continue;
      const f = (cubicSplineSlope(gs) * invH) / gd;
      const ex = f * ox, ey = f * oy, ez = f * oz;
      e1 += ex; e2 += ey; e3 += ez;
      tx += S & 1 ? -ex : ex; ty += S & 2 ? -ey : ey; tz += S & 4 ? -ez : ez;
    }
    t4 += (tx * tx + ty * ty + tz * tz - g0) * (uniform ? 1 : invMass[j]);
  }
  sums[0] = w0; sums[1] = e1; sums[2] = e2; sums[3] = e3; sums[4] = t4; sums[5] = ghosts;
}
