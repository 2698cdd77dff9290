/**
 * Stage "surface": flags the liquid particles on the liquid surface, with normals (Steele et al.
 * 2004, "Rendering", after Stora et al.), which friction (§3.4) needs.
 *
 * The paper's test, for a particle p with the particles p_n inside a sampling sphere of radius r:
 *   c = centroid of p and the p_n;  N = p − c;
 *   p_n is on the "normal side" when (p_n − p)/|p_n − p| · N/|N| ≥ sin θ, else on the "centroid
 *   side"; p itself always counts on the centroid side;
 *   p is a surface particle when n_normal / n_centroid ≤ t_s; its normal is N/|N|
 * (θ = particle.surfaceAngle, t_s = particle.surfaceRatio). Interpretations where the text is silent:
 * - The sampling sphere: the paper's radius r holds no neighbour at all on a lattice of spacing
 *   2r; it is the density kernel support h here (4r by default: the 26 lattice neighbours).
 * - A particle with no neighbour is a surface particle (a lone droplet); its normal is zero, since
 *   no direction is preferred.
 * - The ratio test is ill-conditioned when the neighbourhood is nearly balanced: N's direction is
 *   then noise, and about 41 % of a uniform neighbourhood lies within 80° of any direction, so
 *   n_normal / n_centroid ≈ 0.7 — inside the paper's t_s range of 0.3–0.7. On a rest lattice a
 *   single neighbour at exactly the sampling radius, kept on one side and dropped on the other by
 *   round-off, is enough to flag an interior particle (3 096 of 4 096 particles of a 16³ block,
 *   against 1 352 on its faces). So a particle also needs |N| ≥ 0.1 h (the centroid displaced by at
 *   least a tenth of the sampling radius, SURFACE_MIN_DISPLACEMENT) to be a surface particle. A
 *   particle on a flat face has |N| ≈ 0.24 h, so the guard leaves faces alone.
 * - A neighbour at exactly p's position counts on the centroid side, like p.
 * Interior particles get a zero normal.
 *
 * The test runs over the pair list the adhesion stage has just recorded (ctx.cells.pairs, every
 * pair within ctx.reach ≥ h, each pair once): one pass sums each particle's centroid offset, a
 * second counts the normal-side neighbours, both ends of a pair at once. It runs on the first
 * sub-timestep of each frame and on any sub-timestep that emitted liquid; the flags travel with
 * the particles through the sorts and removals of the later sub-timestep. Figures:
 * docs/decisions.md, "Surface particles".
 */
import type { StepContext } from './context.ts';
import { defineJob, type JobArrays } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { PAIR_LIST_COST, teamWork } from './work.ts';

/** |p − c| / h below which a neighbourhood counts as balanced (interior). */
export const SURFACE_MIN_DISPLACEMENT = 0.1;

/**
 * Needs ctx.cells.pairs as computeAdhesion leaves it (before viscosity compacts it). Returns the
 * number flagged. The centroid sums, the normals and the normal-side counts run as one job
 * (surfaceSidesJob), on the team where there is one; the flags are set from them on the calling
 * thread. The flags and normals are the one-thread loop's, bit for bit, at any cut (see the job).
 */
export function markSurface(ctx: StepContext): number {
  const L = ctx.liquid, n = L.count, pos = L.pos, P = ctx.scene.particle;
  const radius = ctx.densityH, r2 = radius * radius;
  const ratio = P.surfaceRatio;
  const job = ctx.runner.bind(surfaceSidesJob), T = job.threads(n), m = Math.max(n, L.capacity);
  const mem = ctx.stageScratch(32 * n + 64 + (T > 1 ? 4 * (T - 1) * m + 8 : 0), ctx.shared && T > 1);
  const S = mem.f64(3 * n), cnt = mem.i32(n), side = mem.i32(n);
  if (T > 1) job.sumBlocks.side = mem.i32((T - 1) * m);
  const c = ctx.cells, g = c.grid, list = c.pairs;
  const a = job.a, sc = job.s;
  a.S = S; a.side = side; a.pos = pos; a.cnt = cnt; a.ps = list.start; a.pj = list.j;
  a.start = g.start; a.count = g.count; a.first = c.first; a.cells = c.cells;
  sc.r2 = r2; sc.balanced = SURFACE_MIN_DISPLACEMENT * radius; sc.sinTheta = Math.sin((P.surfaceAngle * Math.PI) / 180);
  sc.nc = g.cellCount;
  runJob(job, n);
  delete job.sumBlocks.side;
  const N = L.normal;
  let flagged = 0;
  for (let i = 0; i < n; i++) {
    const k = cnt[i];
    let surface: boolean;
    if (k === 0) surface = true;
    else if (S[3 * i] === 0 && S[3 * i + 1] === 0 && S[3 * i + 2] === 0) surface = false;
    else surface = side[i] <= ratio * (1 + k - side[i]);
    L.surface[i] = surface ? 1 : 0;
    if (surface) {
      N[3 * i] = S[3 * i]; N[3 * i + 1] = S[3 * i + 1]; N[3 * i + 2] = S[3 * i + 2];
      flagged++;
    } else N[3 * i] = N[3 * i + 1] = N[3 * i + 2] = 0;
  }
  return flagged;
}

/**
 * The surface test over particles [from, to) (markSurface), each thread over its range:
 * 1. the centroid offsets Σ (p_n − p) and the neighbour counts of its particles (centroidSums),
 *    into S and cnt, which only the thread that owns a particle writes;
 * 2. its particles' centroid offsets turned into normals (they read only their own sums: no
 *    barrier before);
 * 3. once every normal is in (a barrier: a pair reads its other end's), the normal-side neighbours
 *    over its particles' pairs, both ends at once, into its own block of `side` (whole numbers: the
 *    sums' order leaves them as on one thread).
 * Split by the pairs (PAIR_LIST_COST). On one thread, step 1 is the plain loop over the half rows.
 */
export const surfaceSidesJob = defineJob({
  name: 'surface-sides',
  arrays: { S: 'f64', cnt: 'i32', side: 'i32' },
  inputs: { pos: 'f64', ps: 'i32', pj: 'index', start: 'i32', count: 'i32', first: 'i32', cells: 'i32' },
  scalars: ['r2', 'balanced', 'sinTheta', 'nc'],
  split: 'items',
  cost: PAIR_LIST_COST,
  sums: { side: 1 },
  minItems: () => teamWork.minParticles,
  kernel(x) {
    const from = x.from, to = x.to;
    const low = x.rank === 0 ? from : lowestCrossing(x.a, x.s.nc, from);
    centroidSums(x.a, x.s.r2, low, from, to);
    surfaceNormals(x.a, x.s.balanced, from, to);
    x.barrier();
    normalSides(x.a, x.s.r2, x.s.sinTheta, from, to);
  },
});

/**
 * Σ (p_n − p) over the sampling sphere (radius² r2), relative to p (for precision), and the count of
 * neighbours in it, for the particles [from, to), from the half rows (row i holds its pairs j > i).
 * On one thread a particle j's sum is taken as the loop over rows i = 0 … n − 1 leaves it: −(p_j − p_i)
 * for each lower partner i in ascending i, then its own row's sum (from zero, in row order). Here
 * the same operations in the same order: first the rows [low, from) of the threads below, for their
 * pairs that end in [from, to) (low: the lowest row that has any, lowestCrossing), then this
 * thread's own rows, their pairs that end beyond `to` left to the threads above. Each entry of S and
 * cnt in [from, to) is written by this thread alone, so it is the one-thread loop's, bit for bit.
 */
function centroidSums(a: JobArrays<typeof surfaceSidesJob>, r2: number, low: number, from: number, to: number): void {
  const { S, cnt, pos, ps: ls, pj: lj } = a;
  S.fill(0, 3 * from, 3 * to);
  cnt.fill(0, from, to);
  for (let i = low; i < from; i++) {
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    for (let q = ls[i], q1 = ls[i + 1]; q < q1; q++) {
      const j = lj[q];
      if (j < from || j >= to) continue;
      const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
      const w = +!(dx * dx + dy * dy + dz * dz >= r2);
      S[3 * j] -= w * dx; S[3 * j + 1] -= w * dy; S[3 * j + 2] -= w * dz; cnt[j] += w;
    }
  }
  for (let i = from; i < to; i++) {
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    let sx = 0, sy = 0, sz = 0, k = 0;
    for (let q = ls[i], q1 = ls[i + 1]; q < q1; q++) {
      const j = lj[q];
      const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
      // Without branching (in the sphere or not is a coin toss: h against the list's reach): a pair
      // beyond it adds ±0, which leaves every sum as it is (none is ever −0: x − x is +0).
      const w = +!(dx * dx + dy * dy + dz * dz >= r2), ex = w * dx, ey = w * dy, ez = w * dz;
      sx += ex; sy += ey; sz += ez; k += w;
      if (j < to) {
        S[3 * j] -= ex; S[3 * j + 1] -= ey; S[3 * j + 2] -= ez; cnt[j] += w;
      }
    }
    S[3 * i] += sx; S[3 * i + 1] += sy; S[3 * i + 2] += sz; cnt[i] += k;
  }
}

/**
 * The lowest particle whose half row may hold a pair ending at or beyond `from` (from itself if
 * none): the first slot of the first cell with a neighbour cell (CellPairs.cells, the cells c′ ≥ c
 * a pair of cell c can reach) that holds slots at or beyond `from`. The sorted liquid's cells are
 * consecutive runs of slots (CellPairs.buildSorted), so a cell's slots end at start + count.
 */
function lowestCrossing(a: JobArrays<typeof surfaceSidesJob>, nc: number, from: number): number {
  const { start, count, first, cells } = a;
  for (let c = 0; c < nc && start[c] < from; c++) {
    for (let e = first[c], e1 = first[c + 1]; e < e1; e++) {
      const d = cells[e];
      if (start[d] + count[d] > from) return start[c];
    }
  }
  return from;
}

/**
 * N = p − c, c = p + Σ(p_n − p)/(n + 1): a unit normal where the test applies, zero where it does
 * not (no neighbour: a lone droplet, flagged with no direction; balanced: interior), in place of S.
 */
function surfaceNormals(a: JobArrays<typeof surfaceSidesJob>, balanced: number, from: number, to: number): void {
  const { S, cnt } = a;
  for (let i = from; i < to; i++) {
    const k = cnt[i], inv = 1 / (k + 1);
    const nx = -S[3 * i] * inv, ny = -S[3 * i + 1] * inv, nz = -S[3 * i + 2] * inv;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (k === 0 || len < balanced || len === 0) {
      S[3 * i] = S[3 * i + 1] = S[3 * i + 2] = 0;
    } else {
      S[3 * i] = nx / len; S[3 * i + 1] = ny / len; S[3 * i + 2] = nz / len;
    }
  }
}

/** Neighbours on the normal side: (p_n − p)·N ≥ sin θ |p_n − p| (for j the pair is seen as p_i − p_j). */
function normalSides(a: JobArrays<typeof surfaceSidesJob>, r2: number, sinTheta: number, from: number, to: number): void {
  const { S, side, pos, ps: ls, pj: lj } = a;
  for (let i = from; i < to; i++) {
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    const nxi = S[3 * i], nyi = S[3 * i + 1], nzi = S[3 * i + 2];
    let si = 0;
    for (let q = ls[i], q1 = ls[i + 1]; q < q1; q++) {
      const j = lj[q];
      const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
      const d2 = dx * dx + dy * dy + dz * dz;
      // Counted without branching (each test is a coin toss).
      const w = +!(d2 >= r2) & +(d2 !== 0), ds = sinTheta * Math.sqrt(d2);
      si += w & +(dx * nxi + dy * nyi + dz * nzi >= ds);
      side[j] += w & +(-(dx * S[3 * j] + dy * S[3 * j + 1] + dz * S[3 * j + 2]) >= ds);
    }
    side[i] += si;
  }
}
