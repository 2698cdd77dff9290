/**
 * Stage "thin" (particle.thinPull > 0): a pressure that may pull, where the liquid is sparsely sampled, estimated
 * at a second, larger scale and filtered with a kernel shaped to the feature — the internal-pressure adjustment of
 * He, Wang, Zhang, Wang, Wang & Zhou 2014, "Robust simulation of sparsely sampled thin features in SPH-based free
 * surface flows", ACM TOG 34(1) 7, as its abstract states it ("we propose to adjust the internal pressure force by
 * estimating the internal pressure at two scales and filtering the force using a geometry-aware anisotropic
 * kernel"); the paper's own equations were not at hand (docs/decisions.md, "Stop 66: thin sheets", says what was
 * read and what is this file's own choice).
 *
 * Why. The engine's pressure never pulls (pressure-kernels.ts: p ≥ 0), so nothing resists a sheet or a thread a
 * few particles thick from opening as it stretches: its particles drift apart into a net of one-particle threads
 * (gel-fan's curtain, paint-drops' drips). A pressure that pulls at the density kernel's own scale h draws such a
 * sheet into beads (the tensile instability; docs/decisions.md "cup-pour's tail at the implicit default"): with the
 * cubic spline of support h, neighbours at the rest spacing 2r = h/2 sit past the slope's peak (q = 1/3), where
 * the pull grows as two particles close, so pairs clump. Here:
 * - The small scale keeps the push: the pressure solves (pressure.ts) are unchanged.
 * - The pull is found at the large scale H = THIN_SCALE h (2h = 8r at the default kernel): its neighbours at 2r sit
 *   at q = 1/4, on the rising side of the slope, where the pull weakens as two particles close; and over 2h a sheet
 *   a few particles thick is sampled by enough of them to be read as a continuum.
 * - It acts against dilation only: the velocities' rate of change of the large-scale density,
 *   D_a = Σ_b (v_a − v_b)·∇_a W_H(x_ab), is cancelled where negative (the liquid opening up), never where the
 *   liquid is at rest or compressing, by DFSPH's divergence step with the sign's constraint turned over (Bender &
 *   Koschier 2017): λ_a = max(0, −ω D_a / (|Σ_b ∇W_ab|² + Σ_b |∇W_ab|²)), Δv_a = Σ_b (λ_a + λ_b) ∇_a W_ab,
 *   THIN_PASSES Jacobi passes, ω = particle.thinPull. A sheet that thins as a whole (stretch along, contraction
 *   across: no dilation) is left alone; only holes opening are resisted.
 * - Only sparsely sampled particles in a thin feature take a λ: ρ/ρ0 below THIN_SPARSE after the last density
 *   correction (a free surface, a sheet, a thread), λ_2 / λ_0 of their neighbourhood within H below THIN_FLAT (a
 *   sheet up to two particles thick, a thread, the outer row of a surface; not the rows under it), and not next to a
 *   body (LiquidParticles.nearObject: films on a body are left to the walls' and objects' stages). Their neighbours,
 *   sparse or not, take the pairs' equal and opposite share.
 * - Each pass's Δv of a sparse particle is filtered with an anisotropic kernel over its neighbours within H (Yu &
 *   Turk 2013's construction, as surface/anisotropic.ts meshes with: the weighted covariance of the neighbours, its
 *   axes; the kernel's radius along each axis H √(λ_k / λ_0), at least H / THIN_KR), so a sheet's pull is smoothed
 *   within its plane, where particle-scale differences gather particles into clumps, and kept across it.
 * Equal volumes are assumed (the liquids' own densities do not weigh the pairs). Runs on the calling thread, after
 * the pressure's last solve and before the moves, over its own cell list of size H; its rooms are its own
 * (ThinRoom, one per context). CPU only: the WebGPU backend refuses a scene that sets it (gpu/refuse.ts).
 */
import type { StepContext } from './context.ts';
import { cubicSpline, cubicSplineSlope } from '../math/kernels.ts';
import { eigenSystemOf } from '../surface/anisotropic.ts';

/** The pull's support over the density kernel's, H / h. */
export const THIN_SCALE = 2;
/** ρ/ρ0 under which a particle is sparsely sampled and takes a pull (a bulk reads about 1, a free surface 0.5–0.8). */
export const THIN_SPARSE = 0.9;
/** Jacobi passes of the pull a sub-timestep. */
export const THIN_PASSES = 4;
/** The filter's thinnest axis, a share of H at least 1 / THIN_KR (Yu & Turk 2013's k_r). */
export const THIN_KR = 4;
/**
 * λ_2 / λ_0 of the neighbourhood within H (its weighted covariance) under which a sparse particle is in a thin
 * feature and takes a pull. On lattices (spacing 2r): a one-particle sheet 0, two particles thick 0.20, three 0.47,
 * the outer row of a block's face 0.42, the row under it 0.73. With no bound the rows under a resting pool's surface
 * take part, and a 10 cm water pool no longer rests to 0.005 √(g h); at 0.15–0.25 gel-fan's curtain, 3–5 particles
 * thick, is mostly left to tear (docs/decisions.md, "Stop 66: thin sheets").
 */
export const THIN_FLAT = 0.45;

/** The stage's rooms, grown as the liquid grows, kept between sub-timesteps. */
class ThinRoom {
  cellOf = new Int32Array(0);
  order = new Int32Array(0);
  bucket = new Int32Array(0);
  next = new Int32Array(0);
  sparse = new Int32Array(0);
  start = new Int32Array(0);
  pj = new Int32Array(0);
  pg = new Float64Array(0);
  /** The filter's weight of each pair (shapeFilter). */
  fw = new Float64Array(0);
  den = new Float64Array(0);
  lam = new Float64Array(0);
  dv = new Float64Array(0);
  dvf = new Float64Array(0);
  /** Each sparse particle's λ_2 / λ_0 of its neighbourhood within H (shapeFilter). */
  flat = new Float64Array(0);
  axes = new Float64Array(0);
  ensure(n: number): void {
    if (this.cellOf.length >= n) return;
    const m = Math.ceil(n * 1.25) + 16;
    this.cellOf = new Int32Array(m); this.order = new Int32Array(m); this.sparse = new Int32Array(m);
    this.start = new Int32Array(m + 1); this.den = new Float64Array(m); this.lam = new Float64Array(m); this.flat = new Float64Array(m);
    this.dv = new Float64Array(3 * m); this.dvf = new Float64Array(3 * m); this.axes = new Float64Array(12 * m);
  }
  ensurePairs(p: number): void {
    if (this.pj.length >= p) return;
    const m = Math.ceil(p * 1.25) + 64;
    const pj = new Int32Array(m), pg = new Float64Array(3 * m), fw = new Float64Array(m);
    pj.set(this.pj); pg.set(this.pg); fw.set(this.fw);
    this.pj = pj; this.pg = pg; this.fw = fw;
  }
}
const rooms = new WeakMap<StepContext, ThinRoom>();
const near27 = new Int32Array(27);
const m6 = new Float64Array(6), vals = new Float64Array(3), vecs = new Float64Array(9);

/** Applies the pull for a sub-timestep; returns how many particles took part (sparse ones). */
export function pullThin(ctx: StepContext): number {
  const omega = ctx.scene.particle.thinPull;
  const L = ctx.liquid, n = L.count;
  if (!(omega > 0) || n < 2) return 0;
  let room = rooms.get(ctx);
  if (!room) rooms.set(ctx, (room = new ThinRoom()));
  room.ensure(n);
  const pos = L.pos, vel = L.vel, rho = L.density, near = L.nearObject;
  const H = THIN_SCALE * ctx.densityH, H2 = H * H, invH = 1 / H;

  // The sparse particles.
  const sparse = room.sparse;
  let ns = 0;
  for (let i = 0; i < n; i++) if (!near[i] && rho[i] < THIN_SPARSE) sparse[ns++] = i;
  if (ns === 0) return 0;

  // Cells of size H, hashed into a table of buckets (particles of colliding cells share a bucket; the distance
  // test sorts them out), the particles ordered by bucket.
  let tb = 1;
  while (tb < 2 * n) tb <<= 1;
  if (room.bucket.length < tb + 1) room.bucket = new Int32Array(tb + 1);
  const mask = tb - 1, bucket = room.bucket, cellOf = room.cellOf, order = room.order;
  const hash = (cx: number, cy: number, cz: number): number => (Math.imul(cx, 73856093) ^ Math.imul(cy, 19349663) ^ Math.imul(cz, 83492791)) & mask;
  bucket.fill(0, 0, tb + 1);
  for (let i = 0; i < n; i++) {
    const b = hash(Math.floor(pos[3 * i] * invH), Math.floor(pos[3 * i + 1] * invH), Math.floor(pos[3 * i + 2] * invH));
    cellOf[i] = b;
    bucket[b + 1]++;
  }
  for (let b = 0; b < tb; b++) bucket[b + 1] += bucket[b];
  // order: particles by bucket (bucket[b] .. bucket[b + 1]), a counting sort through a cursor per bucket.
  if (room.next.length < tb) room.next = new Int32Array(tb);
  const next = room.next;
  next.set(bucket.subarray(0, tb));
  for (let i = 0; i < n; i++) order[next[cellOf[i]]++] = i;

  // Each sparse particle's neighbours within H and ∇_a W_H toward each (W' ≤ 0: it points from a to b).
  const start = room.start;
  let p = 0;
  start[0] = 0;
  for (let s = 0; s < ns; s++) {
    const i = sparse[s], xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    const cx = Math.floor(xi * invH), cy = Math.floor(yi * invH), cz = Math.floor(zi * invH);
    room.ensurePairs(p + 512);
    let sgx = 0, sgy = 0, sgz = 0, sg2 = 0;
    // The 27 cells' buckets, each once (two cells may share one).
    let nb = 0;
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) {
      const b = hash(cx + dx, cy + dy, cz + dz);
      let k = 0;
      while (k < nb && near27[k] !== b) k++;
      if (k === nb) near27[nb++] = b;
    }
    for (let t = 0; t < nb; t++) {
      const b = near27[t];
      for (let q = bucket[b], q1 = bucket[b + 1]; q < q1; q++) {
        const j = order[q];
        if (j === i) continue;
        const ox = pos[3 * j] - xi, oy = pos[3 * j + 1] - yi, oz = pos[3 * j + 2] - zi, d2 = ox * ox + oy * oy + oz * oz;
        if (d2 >= H2 || d2 === 0) continue;
        if (p >= room.pj.length) room.ensurePairs(p + 512);
        const d = Math.sqrt(d2), g = (-cubicSplineSlope(d * invH) * invH) / d;
        room.pj[p] = j;
        room.pg[3 * p] = g * ox; room.pg[3 * p + 1] = g * oy; room.pg[3 * p + 2] = g * oz;
        sgx += g * ox; sgy += g * oy; sgz += g * oz; sg2 += g * g * d2;
        p++;
      }
    }
    start[s + 1] = p;
    room.den[s] = sgx * sgx + sgy * sgy + sgz * sgz + sg2;
    shapeFilter(room, s, i, pos, invH);
  }
  const pj = room.pj, pg = room.pg, den = room.den, lam = room.lam, dv = room.dv, dvf = room.dvf;

  for (let pass = 0; pass < THIN_PASSES; pass++) {
    // λ of each sparse particle from the large-scale density rate its velocities make now.
    let any = false;
    for (let s = 0; s < ns; s++) {
      const i = sparse[s], vx = vel[3 * i], vy = vel[3 * i + 1], vz = vel[3 * i + 2];
      let D = 0;
      for (let k = start[s]; k < start[s + 1]; k++) {
        const j = pj[k];
        D += (vx - vel[3 * j]) * pg[3 * k] + (vy - vel[3 * j + 1]) * pg[3 * k + 1] + (vz - vel[3 * j + 2]) * pg[3 * k + 2];
      }
      lam[s] = D < 0 && den[s] > 0 && room.flat[s] < THIN_FLAT ? (-omega * D) / den[s] : 0;
      if (lam[s] > 0) any = true;
    }
    if (!any) break;
    // Δv_a = Σ_b (λ_a + λ_b) ∇_a W_ab, each pair's share to both ends.
    dv.fill(0, 0, 3 * n);
    for (let s = 0; s < ns; s++) {
      const l = lam[s];
      if (l === 0) continue;
      const i = sparse[s];
      for (let k = start[s]; k < start[s + 1]; k++) {
        const j = pj[k], gx = l * pg[3 * k], gy = l * pg[3 * k + 1], gz = l * pg[3 * k + 2];
        dv[3 * i] += gx; dv[3 * i + 1] += gy; dv[3 * i + 2] += gz;
        dv[3 * j] -= gx; dv[3 * j + 1] -= gy; dv[3 * j + 2] -= gz;
      }
    }
    // The sparse particles' Δv filtered by their feature-shaped kernels; the others' as found.
    for (let s = 0; s < ns; s++) {
      const i = sparse[s], fw = room.fw;
      let w = 1, fx = dv[3 * i], fy = dv[3 * i + 1], fz = dv[3 * i + 2];
      for (let k = start[s]; k < start[s + 1]; k++) {
        const j = pj[k], wk = fw[k];
        w += wk; fx += wk * dv[3 * j]; fy += wk * dv[3 * j + 1]; fz += wk * dv[3 * j + 2];
      }
      dvf[3 * s] = fx / w; dvf[3 * s + 1] = fy / w; dvf[3 * s + 2] = fz / w;
    }
    for (let s = 0; s < ns; s++) {
      const i = sparse[s];
      dv[3 * i] = dvf[3 * s]; dv[3 * i + 1] = dvf[3 * s + 1]; dv[3 * i + 2] = dvf[3 * s + 2];
    }
    for (let k = 0; k < 3 * n; k++) vel[k] += dv[k];
  }
  return ns;
}

/**
 * The anisotropic filter of sparse particle s (liquid index i): the spline-weighted covariance of its neighbours
 * within H about their weighted centroid (self included), its axes into axes[12 s .. +9) and the reciprocal radii
 * 1 / (H σ_k), σ_k = max(√(λ_k / λ_0), 1 / THIN_KR), into axes[12 s + 9 .. +3), and each of its pairs' weight under
 * that kernel into fw.
 */
function shapeFilter(room: ThinRoom, s: number, i: number, pos: Float64Array, invH: number): void {
  const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
  let w = cubicSpline(0), cx = 0, cy = 0, cz = 0;
  m6.fill(0);
  for (let k = room.start[s]; k < room.start[s + 1]; k++) {
    const j = room.pj[k], ox = pos[3 * j] - xi, oy = pos[3 * j + 1] - yi, oz = pos[3 * j + 2] - zi;
    const wk = cubicSpline(Math.sqrt(ox * ox + oy * oy + oz * oz) * invH);
    w += wk; cx += wk * ox; cy += wk * oy; cz += wk * oz;
    m6[0] += wk * ox * ox; m6[1] += wk * oy * oy; m6[2] += wk * oz * oz; m6[3] += wk * ox * oy; m6[4] += wk * ox * oz; m6[5] += wk * oy * oz;
  }
  cx /= w; cy /= w; cz /= w;
  m6[0] = m6[0] / w - cx * cx; m6[1] = m6[1] / w - cy * cy; m6[2] = m6[2] / w - cz * cz;
  m6[3] = m6[3] / w - cx * cy; m6[4] = m6[4] / w - cx * cz; m6[5] = m6[5] / w - cy * cz;
  const a = 12 * s, ax = room.axes;
  if (room.start[s + 1] - room.start[s] < 3) {
    // Too few neighbours for a shape: an isotropic filter of support H.
    ax.fill(0, a, a + 12);
    ax[a] = ax[a + 4] = ax[a + 8] = 1;
    ax[a + 9] = ax[a + 10] = ax[a + 11] = invH;
    room.flat[s] = 0;
  } else {
    eigenSystemOf(m6, vals, vecs);
    for (let k = 0; k < 9; k++) ax[a + k] = vecs[k];
    const l0 = Math.max(vals[0], 1e-30);
    room.flat[s] = Math.max(vals[2], 0) / l0;
    for (let k = 0; k < 3; k++) ax[a + 9 + k] = invH / Math.max(Math.sqrt(Math.max(vals[k], 0) / l0), 1 / THIN_KR);
  }
  // Each pair's weight under that kernel, for every pass's filter.
  for (let k = room.start[s]; k < room.start[s + 1]; k++) {
    const j = room.pj[k], ox = pos[3 * j] - xi, oy = pos[3 * j + 1] - yi, oz = pos[3 * j + 2] - zi;
    const u0 = (ox * ax[a] + oy * ax[a + 1] + oz * ax[a + 2]) * ax[a + 9];
    const u1 = (ox * ax[a + 3] + oy * ax[a + 4] + oz * ax[a + 5]) * ax[a + 10];
    const u2 = (ox * ax[a + 6] + oy * ax[a + 7] + oz * ax[a + 8]) * ax[a + 11];
    const q = Math.sqrt(u0 * u0 + u1 * u1 + u2 * u2);
    room.fw[k] = q < 1 ? cubicSpline(q) : 0;
  }
}
