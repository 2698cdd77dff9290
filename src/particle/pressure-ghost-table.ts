/**
 * The mirror ghosts' geometry of the pressure stage's passes, once a solve (pressure-ghost-pairs.ts;
 * the mirror-wall boundary, the liquid mirrored beyond a closed wall: pressure-ghosts.ts):
 * the passes (the displacement, the density change) and the particle-scale filter run at fixed
 * positions, so each ghost's distance and kernel values are the same in every pass. After WALLS a
 * one-thread pressure stage lists them here, struct-of-arrays, in the order the sweeps visit them:
 * per walled slot a, its own images (subset S of its wall axes, S = ma, (S − 1) & ma, …), then for
 * each entry of its row's upper part (mid[a] … ls[a+1]) whose slot shares a wall with it, that
 * pair's images over the common axes' subsets in the same order; only the images within h (in a
 * jittered block in a closed box, a quarter of those the sweeps visited: most lie beyond h), so
 * the sweeps read the table's entries instead of the row. Each entry holds the image's source slot
 * (−1: a's own), its axes S and what the sweeps computed from its offset o: d = |o|, the spline's
 * slope w'(d/h), the density change's w'(d/h)/h/d and the filter's w(d · 1/h), each with the
 * sweeps' own arithmetic, so the sums are the same bits. The offsets themselves are a few
 * additions from the positions and stay in the sweeps.
 *
 * Built on one thread only (a team's sweeps evaluate their ghosts as before); not on PBF's
 * passes, whose positions move from pass to pass.
 */
import { cubicSpline, cubicSplineSlope } from '../math/kernels.ts';
import { ghostSum } from './pressure-ghosts.ts';
import type { SolveView } from './pressure-kernels.ts';

/** Bits of wmask that say which axes have a wall within h (pressure-ghosts.ts). */
const AXES = 7;

/** The table's arrays (the solve job's calling-thread scratch keeps them between sub-timesteps, grown as needed: pressure-job.ts). */
export class GhostTable {
  /** Per slot: its first entry (n + 1; unwalled slots hold none). */
  start: Int32Array = new Int32Array(0);
  /** Per entry: the image's source slot (−1: the slot's own image) and the mirrored axes S. */
  src: Int32Array = new Int32Array(0);
  axes: Uint8Array = new Uint8Array(0);
  /** Per entry: the image's distance d (< h). */
  d: Float64Array = new Float64Array(0);
  /** Per entry: cubicSplineSlope(d / h). */
  slope: Float64Array = new Float64Array(0);
  /** Per entry: cubicSplineSlope(d / h) / h / d (0 where d is 0). */
  change: Float64Array = new Float64Array(0);
  /** Per entry: cubicSpline(d · (1/h)). */
  weight: Float64Array = new Float64Array(0);
  /** What the table was built for (pressure-job.ts hands it only to the phases of this view at these positions). */
  view: SolveView | null = null;
}

/**
 * After the pressure stage's WALLS (pressure-job.ts runSolvePhase), on one thread (from the rows' upper parts):
 * the table listed into the calling thread's scratch for the view's later phases at the same
 * positions (bindSolve hands it to a phase of the same view that runs on one thread).
 */
export function listGhosts(job: { threads(n: number): number; scratch: { table: GhostTable }; s: { table: number } }, v: SolveView, n: number): void {
  if (!v.half || job.threads(n) !== 1) return;
  buildGhostTable(v, n, job.scratch.table);
  job.s.table = 1;
}

function grow(t: GhostTable, m: number): void {
  const c = Math.ceil(1.25 * m) + 64;
  const src = new Int32Array(c), axes = new Uint8Array(c), d = new Float64Array(c), slope = new Float64Array(c), change = new Float64Array(c), weight = new Float64Array(c);
  src.set(t.src); axes.set(t.axes); d.set(t.d); slope.set(t.slope); change.set(t.change); weight.set(t.weight);
  t.src = src; t.axes = axes; t.d = d; t.slope = slope; t.change = change; t.weight = weight;
}

/** Lists the ghosts of view v's n slots into t, after WALLS at v's positions (v.half: the rows' upper starts). */
export function buildGhostTable(v: SolveView, n: number, t: GhostTable): void {
  const x = v.x, ls = v.ls, lj = v.lj, mask = v.wmask, del = v.wdel, mid = v.half!.mid;
  const h = v.h, h2 = h * h, invH = 1 / h;
  if (t.start.length < n + 1) t.start = new Int32Array(Math.ceil(1.25 * (n + 1)));
  const start = t.start;
  let k = 0;
  for (let a = 0; a < n; a++) {
    start[a] = k;
    const wa = mask[a];
    if (wa === 0) continue;
    // Room for every image the slot's sweeps visit (7 own, 7 a pair at most).
    if (k + 7 * (ls[a + 1] - mid[a] + 1) > t.d.length) grow(t, k + 7 * (ls[a + 1] - mid[a] + 1));
    const src = t.src, axes = t.axes, td = t.d, ts = t.slope, tc = t.change, tw = t.weight;
    const ma = wa & AXES;
    const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1;
    const dax = del[3 * a], day = del[3 * a + 1], daz = del[3 * a + 2];
    for (let S = ma; S > 0; S = (S - 1) & ma) {
      const ox = S & 1 ? 2 * sx * dax : 0, oy = S & 2 ? 2 * sy * day : 0, oz = S & 4 ? 2 * sz * daz : 0;
      const d2 = 0 + ox * ox + oy * oy + oz * oz;
      if (d2 >= h2) continue;
      const d = Math.sqrt(d2), slope = cubicSplineSlope(d / h);
      src[k] = -1; axes[k] = S; td[k] = d; ts[k] = slope; tc[k] = d === 0 ? 0 : slope / h / d; tw[k] = cubicSpline(d * invH);
      k++;
    }
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
      const j = lj[q], wb = mask[j];
      const common = ma & wb & ~((wa ^ wb) >> 3);
      if (common === 0) continue;
      const b = 3 * j;
      const rx = xa - x[b], ry = ya - x[b + 1], rz = za - x[b + 2];
      const bx = dax + del[b], by = day + del[b + 1], bz = daz + del[b + 2];
      for (let S = common; S > 0; S = (S - 1) & common) {
        const ox = S & 1 ? sx * bx : rx, oy = S & 2 ? sy * by : ry, oz = S & 4 ? sz * bz : rz;
        const d2 = ox * ox + oy * oy + oz * oz;
        if (d2 >= h2) continue;
        const d = Math.sqrt(d2), slope = cubicSplineSlope(d / h);
        src[k] = j; axes[k] = S; td[k] = d; ts[k] = slope; tc[k] = d === 0 ? 0 : slope / h / d; tw[k] = cubicSpline(d * invH);
        k++;
      }
    }
  }
  start[n] = k;
  t.view = v;
}

/** ghostDisplacementUpper (pressure-ghost-pairs.ts) from the table: the same terms in the same order. */
export function ghostDisplacementTable(v: SolveView, t: GhostTable, a: number, to: number, out: Float64Array): void {
  const x = v.x, mask = v.wmask, del = v.wdel, p = v.p, invMass = v.invMass, uniform = v.uniform;
  const src = t.src, axes = t.axes, td = t.d, ts = t.slope, h = v.h;
  const wa = mask[a];
  const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1;
  const dax = del[3 * a], day = del[3 * a + 1], daz = del[3 * a + 2];
  const pa = p[a], ia = uniform ? 1 : invMass[a];
  const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
  let c1 = 0, c2 = 0, c3 = 0, k = t.start[a];
  const k1 = t.start[a + 1];
  // a's own images: (p_a + p_a) times the pair's mass weight, which is 1 for an image (it has a's mass).
  const pp = 2 * pa;
  for (; k < k1 && src[k] < 0; k++) {
    const d = td[k];
    if (d === 0) continue;
    const S = axes[k];
    const ox = S & 1 ? 2 * sx * dax : 0, oy = S & 2 ? 2 * sy * day : 0, oz = S & 4 ? 2 * sz * daz : 0;
    const f = (pp * ts[k]) / h / d;
    c1 += f * ox; c2 += f * oy; c3 += f * oz;
  }
  for (; k < k1; k++) {
    const d = td[k];
    if (d === 0) continue;
    const j = src[k], S = axes[k], b = 3 * j;
    const ox = S & 1 ? sx * (dax + del[b]) : xa - x[b], oy = S & 2 ? sy * (day + del[b + 1]) : ya - x[b + 1], oz = S & 4 ? sz * (daz + del[b + 2]) : za - x[b + 2];
    const pab = pa + p[j], slope = ts[k];
    const wab = uniform ? 1 : (2 * ia) / (ia + invMass[j]);
    const f = (pab * wab * slope) / h / d;
    c1 += f * ox; c2 += f * oy; c3 += f * oz;
    if (j < to) {
      const fb = uniform ? f : (pab * ((2 * invMass[j]) / (invMass[j] + ia)) * slope) / h / d;
      out[b] += S & 1 ? fb * ox : -(fb * ox);
      out[b + 1] += S & 2 ? fb * oy : -(fb * oy);
      out[b + 2] += S & 4 ? fb * oz : -(fb * oz);
    }
  }
  ghostSum[1] = c1; ghostSum[2] = c2; ghostSum[3] = c3;
}

/** ghostDensityChangeUpper (pressure-ghost-pairs.ts) from the table: the same terms in the same order. */
export function ghostDensityChangeTable(v: SolveView, t: GhostTable, a: number, to: number, u: Float64Array, res: Float64Array): void {
  const x = v.x, mask = v.wmask, del = v.wdel;
  const src = t.src, axes = t.axes, td = t.d, tc = t.change;
  const wa = mask[a];
  const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1;
  const dax = del[3 * a], day = del[3 * a + 1], daz = del[3 * a + 2];
  const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2];
  const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
  let c0 = 0, k = t.start[a];
  const k1 = t.start[a + 1];
  for (; k < k1 && src[k] < 0; k++) {
    if (td[k] === 0) continue;
    const S = axes[k];
    const ox = S & 1 ? 2 * sx * dax : 0, oy = S & 2 ? 2 * sy * day : 0, oz = S & 4 ? 2 * sz * daz : 0;
    const dot = 0 + (ux - (S & 1 ? -ux : ux)) * ox + (uy - (S & 2 ? -uy : uy)) * oy + (uz - (S & 4 ? -uz : uz)) * oz;
    c0 += tc[k] * dot;
  }
  for (; k < k1; k++) {
    if (td[k] === 0) continue;
    const j = src[k], S = axes[k], b = 3 * j;
    const ox = S & 1 ? sx * (dax + del[b]) : xa - x[b], oy = S & 2 ? sy * (day + del[b + 1]) : ya - x[b + 1], oz = S & 4 ? sz * (daz + del[b + 2]) : za - x[b + 2];
    const vx = u[b], vy = u[b + 1], vz = u[b + 2];
    const dot = 0 + (ux - (S & 1 ? -vx : vx)) * ox + (uy - (S & 2 ? -vy : vy)) * oy + (uz - (S & 4 ? -vz : vz)) * oz;
    const c = tc[k] * dot;
    c0 += c;
    if (j < to) res[j] += c;
  }
  ghostSum[0] = c0;
}

/** ghostFilterUpper (pressure-ghost-pairs.ts) from entry mid[a] on, from the table: the same terms in the same order. */
export function ghostFilterTable(v: SolveView, t: GhostTable, a: number, u: Float64Array, c: Float64Array, out: Float64Array): void {
  const invMass = v.invMass, uniform = v.uniform;
  const src = t.src, axes = t.axes, tw = t.weight;
  const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2], ca = c[a];
  let c1 = 0, c2 = 0, c3 = 0, k = t.start[a];
  const k1 = t.start[a + 1];
  for (; k < k1 && src[k] < 0; k++) {
    if (ca === 0) continue;
    const S = axes[k], f = -2 * ca * tw[k];
    if (S & 1) c1 += f * ux;
    if (S & 2) c2 += f * uy;
    if (S & 4) c3 += f * uz;
  }
  for (; k < k1; k++) {
    const j = src[k], cab = 0.5 * (ca + c[j]);
    if (cab === 0) continue;
    const S = axes[k], b = 3 * j;
    const vx = u[b], vy = u[b + 1], vz = u[b + 2];
    const ia = uniform ? 1 : invMass[a], ib = uniform ? 1 : invMass[j];
    const wab = uniform ? cab : (cab * 2 * ia) / (ia + ib), wba = uniform ? cab : (cab * 2 * ib) / (ib + ia);
    const w = tw[k], f = wab * w, fb = wba * w;
    c1 += f * ((S & 1 ? -vx : vx) - ux); c2 += f * ((S & 2 ? -vy : vy) - uy); c3 += f * ((S & 4 ? -vz : vz) - uz);
    out[b] += fb * ((S & 1 ? -ux : ux) - vx); out[b + 1] += fb * ((S & 2 ? -uy : uy) - vy); out[b + 2] += fb * ((S & 4 ? -uz : uz) - vz);
  }
  ghostSum[1] = c1; ghostSum[2] = c2; ghostSum[3] = c3;
}
