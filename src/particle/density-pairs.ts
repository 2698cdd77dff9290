/**
 * Density correction's pair loops (density.ts), as jobs: the listing of the pairs within the
 * kernel with the first measure, the measure of a pass, and the push of a pass. Each visits every
 * pair once and adds to both ends, so the threads sum into arrays of their own, added up after
 * (src/parallel/run-job.ts): the sums differ from one thread's in the order of additions only,
 * and every push stays equal and opposite, so Σ m Δx = 0 as on one thread. The listing goes over
 * runs of density cells into per-thread lists, copied into place: the list is exactly one thread's.
 */
import { defineJob, type JobArrays, type ListSink } from '../parallel/job.ts';
import { teamWork } from './work.ts';
import { boxDistance2 } from './neighbours.ts';

/** Lists the pairs of the density cells with their first measure (listDensityPairs, density.ts). */
export const densityListJob = defineJob({
  name: 'density-list',
  arrays: { rho: 'f64', cnt: 'i32' },
  inputs: { x: 'f64', start: 'i32', count: 'i32', first: 'i32', cells: 'i32', box: 'f64' },
  scalars: ['h2', 'hIn', 'invH'],
  split: 'cells',
  cellCounts: 'count',
  sums: { rho: 1, cnt: 1 },
  lists: { list: 'index' },
  minItems: () => teamWork.minParticles,
  kernel(x) {
    densityListRange(x.a, x.from, x.to, x.s.h2, x.s.hIn, x.s.invH, x.lists.list);
  },
});

/** ρ and neighbour counts over the listed pairs. */
export const densityMeasureJob = defineJob({
  name: 'density-measure',
  arrays: { rho: 'f64', cnt: 'i32' },
  inputs: { ls: 'i32', pj: 'index', x: 'f64' },
  scalars: ['hIn', 'invH'],
  split: 'items',
  sums: { rho: 1, cnt: 1 },
  minItems: () => teamWork.minParticles,
  kernel(x) {
    const a = x.a;
    measureRange(a.ls, a.pj, a.x, x.from, x.to, x.s.hIn, x.s.invH, a.rho, a.cnt);
  },
});

/** A pass's displacements over the listed pairs. */
export const densityPushJob = defineJob({
  name: 'density-push',
  arrays: { corr: 'f64' },
  inputs: { ls: 'i32', pj: 'index', x: 'f64', s: 'f64', invMass: 'f64' },
  scalars: ['hIn', 'uniform'],
  split: 'items',
  sums: { corr: 3 },
  minItems: () => teamWork.minParticles,
  kernel(x) {
    const a = x.a;
    pushRange(a.ls, a.pj, a.x, a.s, a.invMass, x.s.uniform === 1, x.from, x.to, x.s.hIn, a.corr);
  },
});

/**
 * The listing over the cells [c0, c1): the pairs of their slots (list.start of each of their slots,
 * entries appended to list) and the first measure of both ends of each pair into `rho` and `cnt`
 * (zeroed by the runner; the second slot may lie outside the range).
 */
function densityListRange(
  v: JobArrays<typeof densityListJob>, c0: number, c1: number, h2: number, hIn: number, invH: number, list: ListSink<Int32Array | Uint16Array>,
): void {
  const { start, count: cnt, first, cells, box, x: sp, rho, cnt: nb } = v;
  const ls = list.start;
  let lj = list.j, len = list.length;
  for (let c = c0; c < c1; c++) {
    const a0 = start[c], a1 = a0 + cnt[c];
    // Room for every candidate of a particle of the cell, checked once per particle rather than
    // once per pair.
    let room = 0;
    for (let q = first[c]; q < first[c + 1]; q++) room += cnt[cells[q]];
    for (let a = a0; a < a1; a++) {
      if (len + room > lj.length) {
        list.length = len;
        list.reserve(len + room);
        lj = list.j;
      }
      ls[a] = len;
      const xi = sp[3 * a], yi = sp[3 * a + 1], zi = sp[3 * a + 2];
      for (let q = first[c]; q < first[c + 1]; q++) {
        const c2 = cells[q];
        if (c2 !== c) {
          if (boxDistance2(box, 6 * c2, xi, yi, zi) >= h2) continue;
        }
        // Gathered without branching: whether a candidate is within h is a coin toss in a
        // disordered liquid (as in adhesion.ts liquidPairRange).
        const b1 = start[c2] + cnt[c2];
        for (let b = c2 === c ? a + 1 : start[c2]; b < b1; b++) {
          const dx = sp[3 * b] - xi, dy = sp[3 * b + 1] - yi, dz = sp[3 * b + 2] - zi;
          lj[len] = b;
          len += +!(dx * dx + dy * dy + dz * dz >= h2);
        }
      }
      // The first measure over the pairs just listed, in list order.
      measureRow(a, ls[a], len, lj, sp, hIn, invH, rho, nb);
    }
  }
  list.length = len;
}

/**
 * The pair loop of a measure over slots [a0, a1): ρ and neighbour counts of both ends of each pair
 * into `rho` and `cnt` (zeroed by the runner; b may lie outside the range).
 */
export function measureRange(
  ls: Int32Array, pj: Int32Array | Uint16Array, x: Float64Array, a0: number, a1: number, hIn: number, invH: number,
  rho: Float64Array, cnt: Int32Array,
): void {
  for (let a = a0; a < a1; a++) measureRow(a, ls[a], ls[a + 1], pj, x, hIn, invH, rho, cnt);
}

/** The measure of slot a over its pairs pj[q0 .. q1), both ends (measureRange's and the listing's row). */
function measureRow(
  a: number, q0: number, q1: number, pj: Int32Array | Uint16Array, x: Float64Array, hIn: number, invH: number, rho: Float64Array, cnt: Int32Array,
): void {
  const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
  let ra = 0, na = 0;
  for (let q = q0; q < q1; q++) {
    const b = pj[q];
    const dx = x[3 * b] - xa, dy = x[3 * b + 1] - ya, dz = x[3 * b + 2] - za;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    // Lattice neighbours two spacings away sit exactly on the support (h = 4r): round-off must
    // not let them in as zero-weight neighbours, which would change n.
    if (d >= hIn) continue;
    const w = 1 - d * invH;
    ra += w;
    na++;
    rho[b] += w;
    cnt[b]++;
  }
  rho[a] += ra;
  cnt[a] += na;
}

/**
 * The pair loop of a pass over slots [a0, a1): each pair within the kernel pushes its two ends
 * apart by s_a + s_b along their line, split by inverse mass, accumulated into `corr` (zeroed by
 * the runner; b may lie outside the range).
 */
export function pushRange(
  ls: Int32Array, pj: Int32Array | Uint16Array, x: Float64Array, s: Float64Array, invMass: Float64Array, uniform: boolean,
  a0: number, a1: number, hIn: number, corr: Float64Array,
): void {
  if (!uniform) {
    pushRangeMasses(ls, pj, x, s, invMass, a0, a1, hIn, corr);
    return;
  }
  for (let a = a0; a < a1; a++) {
    const q0 = ls[a], q1 = ls[a + 1];
    if (q0 === q1) continue;
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2], sa = s[a];
    let cx = 0, cy = 0, cz = 0;
    for (let q = q0; q < q1; q++) {
      const b = pj[q];
      const dx = x[3 * b] - xa, dy = x[3 * b + 1] - ya, dz = x[3 * b + 2] - za;
      // The distance the measure before this pass saw, in the single precision it was once kept
      // in between the two (4 bytes a pair; recomputing it costs 1–3 % of the stage).
      const d = Math.fround(Math.sqrt(dx * dx + dy * dy + dz * dz));
      if (d >= hIn || d === 0) continue;
      const push = sa + s[b];
      if (push === 0) continue;
      const f = push / d;
      const fx = f * dx, fy = f * dy, fz = f * dz;
      corr[3 * b] += fx; corr[3 * b + 1] += fy; corr[3 * b + 2] += fz;
      cx += fx; cy += fy; cz += fz;
    }
    corr[3 * a] -= cx; corr[3 * a + 1] -= cy; corr[3 * a + 2] -= cz;
  }
}

/** pushRange where masses differ: each push split by inverse mass (m_a Δx_a = −m_b Δx_b). */
function pushRangeMasses(
  ls: Int32Array, pj: Int32Array | Uint16Array, x: Float64Array, s: Float64Array, invMass: Float64Array,
  a0: number, a1: number, hIn: number, corr: Float64Array,
): void {
  for (let a = a0; a < a1; a++) {
    const q0 = ls[a], q1 = ls[a + 1];
    if (q0 === q1) continue;
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2], sa = s[a], wa = invMass[a];
    let cx = 0, cy = 0, cz = 0;
    for (let q = q0; q < q1; q++) {
      const b = pj[q];
      const dx = x[3 * b] - xa, dy = x[3 * b + 1] - ya, dz = x[3 * b + 2] - za;
      const d = Math.fround(Math.sqrt(dx * dx + dy * dy + dz * dz));
      if (d >= hIn || d === 0) continue;
      const push = sa + s[b];
      if (push === 0) continue;
      const f = push / d;
      const fx = f * dx, fy = f * dy, fz = f * dz;
      // The displacement becomes velocity (pressure impulse): momentum must not change.
      const wb = invMass[b], k2 = 2 / (wa + wb), ka = k2 * wa, kb = k2 * wb;
      corr[3 * b] += kb * fx; corr[3 * b + 1] += kb * fy; corr[3 * b + 2] += kb * fz;
      cx += ka * fx; cy += ka * fy; cz += ka * fz;
    }
    corr[3 * a] -= cx; corr[3 * a + 1] -= cy; corr[3 * a + 2] -= cz;
  }
}

