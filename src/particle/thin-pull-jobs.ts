/**
 * The thin pull's jobs (thin-pull.ts has the method and its citations): the listing of each sparse particle's
 * neighbours within H over the sub-timestep's liquid cells, the feature-shaped filter's weights, the thin rows'
 * pairs' kernel gradients, and a Jacobi pass's two halves. Every job runs over the liquid's particles (the cells' order),
 * split by what they cost: a particle that takes no pull has an empty row and costs nothing but its visit.
 * - thin-list: lists (the rows come out exactly as on one thread).
 * - thin-shape, thin-grad, thin-apply: each particle writes only its own entries (the same bits on any thread count).
 * - thin-pass: each pair adds to both ends (sums: the threads' blocks added in a fixed order, so two threads
 *   differ from one at round-off, as density-pairs.ts's and adhesion.ts's sums do).
 */
import { defineJob, type JobArrays } from '../parallel/job.ts';
import { cubicSpline, cubicSplineSlope } from '../math/kernels.ts';
import { eigenSystemOf } from '../surface/anisotropic.ts';
import { boxDistance2 } from './neighbours.ts';
import { teamWork } from './work.ts';

/** The filter's thinnest axis, a share of H at least 1 / THIN_KR (Yu & Turk 2013's k_r). */
export const THIN_KR = 4;

/**
 * Lists each sparse particle's neighbours within H (d² < H², d > 0), in the order of its cell's candidate cells
 * (thin-pull.ts: the occupied cells within reach R whose particles' box comes within H of the cell's), each cell's
 * particles in slot order; a candidate cell whose box is out of H of the particle is skipped. Rows of the other
 * particles are empty. Split by the candidates each particle scans (`cp`, a prefix over the particles).
 */
export const thinListJob = defineJob({
  name: 'thin-list',
  arrays: {},
  inputs: { pos: 'f64', sp: 'u8', pCell: 'i32', start: 'i32', count: 'i32', candFirst: 'i32', cand: 'i32', cbox: 'f64', cp: 'i32' },
  scalars: ['H2'],
  split: 'items',
  cost: { prefix: ['cp'], perItem: 1 },
  lists: { pairs: 'i32' },
  balance: true,
  minItems: () => teamWork.minParticles,
  kernel(x) {
    const { pos, sp, pCell, start, count, candFirst, cand, cbox } = x.a, H2 = x.s.H2, list = x.lists.pairs;
    const ls = list.start;
    let lj = list.j, len = list.length;
    for (let a = x.from; a < x.to; a++) {
      ls[a] = len;
      if (sp[a] === 0) continue;
      const c = pCell[a], q0 = candFirst[c], q1 = candFirst[c + 1];
      let room = 0;
      for (let q = q0; q < q1; q++) room += count[cand[q]];
      if (len + room > lj.length) {
        list.length = len;
        list.reserve(len + room);
        lj = list.j;
      }
      const xi = pos[3 * a], yi = pos[3 * a + 1], zi = pos[3 * a + 2];
      for (let q = q0; q < q1; q++) {
        const c2 = cand[q];
        if (boxDistance2(cbox, 6 * c2, xi, yi, zi) >= H2) continue;
        // Gathered without branching (neighbours.ts gatherWithin); a itself (d = 0) is left out.
        for (let b = start[c2], b1 = b + count[c2]; b < b1; b++) {
          const dx = pos[3 * b] - xi, dy = pos[3 * b + 1] - yi, dz = pos[3 * b + 2] - zi, d2 = dx * dx + dy * dy + dz * dz;
          lj[len] = b;
          len += +(d2 < H2) & +(d2 > 0);
        }
      }
    }
    list.length = len;
  },
});

/**
 * Each sparse particle's den = |Σ ∇W|² + Σ |∇W|², its neighbourhood's λ_2 / λ_0 (flat) and its filter's weight of
 * each pair (fw): shapeRow. The pairs' gradients are stored afterwards for the thin rows alone (thinGradJob).
 */
export const thinShapeJob = defineJob({
  name: 'thin-shape',
  arrays: { fw: 'f64', den: 'f64', flat: 'f64' },
  inputs: { pos: 'f64', sp: 'u8', ls: 'i32', pj: 'i32' },
  scalars: ['invH'],
  split: 'items',
  cost: { prefix: ['ls'], perItem: 1 },
  balance: true,
  minItems: () => teamWork.minParticles,
  scratch: () => ({ m6: new Float64Array(6), vals: new Float64Array(3), vecs: new Float64Array(9), axes: new Float64Array(12) }),
  kernel(x) {
    const a = x.a, invH = x.s.invH;
    for (let i = x.from; i < x.to; i++) if (a.sp[i] !== 0) shapeRow(a, i, invH, x.scratch);
  },
});

/**
 * Particle i's row: den from the pairs' gradients (thinGradJob stores the same ones for the thin rows), then the anisotropic filter (Yu & Turk 2013's construction): the
 * spline-weighted covariance of its neighbours within H about their weighted centroid (self included), its axes
 * and reciprocal radii 1 / (H σ_k), σ_k = max(√(λ_k / λ_0), 1 / THIN_KR), and each pair's weight under that kernel.
 * Fewer than 3 neighbours: an isotropic filter of support H, and the particle counts as thin (flat 0).
 */
function shapeRow(
  v: JobArrays<typeof thinShapeJob>, i: number, invH: number,
  s: { m6: Float64Array; vals: Float64Array; vecs: Float64Array; axes: Float64Array },
): void {
  const { pos, ls, pj, fw } = v, k0 = ls[i], k1 = ls[i + 1];
  const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
  const m6 = s.m6, ax = s.axes;
  let sgx = 0, sgy = 0, sgz = 0, sg2 = 0;
  let w = cubicSpline(0), cx = 0, cy = 0, cz = 0;
  m6.fill(0);
  for (let k = k0; k < k1; k++) {
    const j = pj[k], ox = pos[3 * j] - xi, oy = pos[3 * j + 1] - yi, oz = pos[3 * j + 2] - zi;
    // The spline and its slope at q (math/kernels.ts cubicSpline, cubicSplineSlope), in one branch; q < 1.
    const d2 = ox * ox + oy * oy + oz * oz, d = Math.sqrt(d2), q = d * invH, t = 1 - q, near = q <= 0.5;
    const wk = near ? 6 * q * q * (q - 1) + 1 : 2 * t * t * t, slope = near ? q * (18 * q - 12) : -6 * t * t;
    const g = (-slope * invH) / d;
    sgx += g * ox; sgy += g * oy; sgz += g * oz; sg2 += g * g * d2;
    w += wk; cx += wk * ox; cy += wk * oy; cz += wk * oz;
    m6[0] += wk * ox * ox; m6[1] += wk * oy * oy; m6[2] += wk * oz * oz; m6[3] += wk * ox * oy; m6[4] += wk * ox * oz; m6[5] += wk * oy * oz;
  }
  v.den[i] = sgx * sgx + sgy * sgy + sgz * sgz + sg2;
  cx /= w; cy /= w; cz /= w;
  m6[0] = m6[0] / w - cx * cx; m6[1] = m6[1] / w - cy * cy; m6[2] = m6[2] / w - cz * cz;
  m6[3] = m6[3] / w - cx * cy; m6[4] = m6[4] / w - cx * cz; m6[5] = m6[5] / w - cy * cz;
  if (k1 - k0 < 3) {
    ax.fill(0);
    ax[0] = ax[4] = ax[8] = 1;
    ax[9] = ax[10] = ax[11] = invH;
    v.flat[i] = 0;
  } else {
    const vals = s.vals, vecs = s.vecs;
    eigenSystemOf(m6, vals, vecs);
    for (let k = 0; k < 9; k++) ax[k] = vecs[k];
    const l0 = Math.max(vals[0], 1e-30);
    v.flat[i] = Math.max(vals[2], 0) / l0;
    for (let k = 0; k < 3; k++) ax[9 + k] = invH / Math.max(Math.sqrt(Math.max(vals[k], 0) / l0), 1 / THIN_KR);
  }
  for (let k = k0; k < k1; k++) {
    const j = pj[k], ox = pos[3 * j] - xi, oy = pos[3 * j + 1] - yi, oz = pos[3 * j + 2] - zi;
    const u0 = (ox * ax[0] + oy * ax[1] + oz * ax[2]) * ax[9];
    const u1 = (ox * ax[3] + oy * ax[4] + oz * ax[5]) * ax[10];
    const u2 = (ox * ax[6] + oy * ax[7] + oz * ax[8]) * ax[11];
    fw[k] = cubicSpline(Math.sqrt(u0 * u0 + u1 * u1 + u2 * u2));
  }
}

/**
 * The thin rows' pairs' ∇_a W_H (toward the neighbour: W' ≤ 0), computed as shapeRow computes them for den, stored
 * at pg[3 (pgFirst[i] + k − ls[i])]: a row that takes no λ (not thin, den 0; thinPassJob) has none stored
 * (pgFirst[i + 1] = pgFirst[i]): 16–24 % of gel-fan's pairs have gradients over its frames 10–12 (docs/decisions.md,
 * "The thin pull's cost"). Positions do not move between the shape and the passes.
 */
export const thinGradJob = defineJob({
  name: 'thin-grad',
  arrays: { pg: 'f64' },
  inputs: { pos: 'f64', ls: 'i32', pj: 'i32', pgFirst: 'i32' },
  scalars: ['invH'],
  split: 'items',
  cost: { prefix: ['pgFirst'], perItem: 1 },
  balance: true,
  minItems: () => teamWork.minParticles,
  kernel(x) {
    const { pos, ls, pj, pgFirst, pg } = x.a, invH = x.s.invH;
    for (let i = x.from; i < x.to; i++) {
      const p0 = pgFirst[i];
      if (pgFirst[i + 1] === p0) continue;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], k0 = ls[i], k1 = ls[i + 1];
      for (let k = k0, p = 3 * p0; k < k1; k++, p += 3) {
        const j = pj[k], ox = pos[3 * j] - xi, oy = pos[3 * j + 1] - yi, oz = pos[3 * j + 2] - zi;
        const d = Math.sqrt(ox * ox + oy * oy + oz * oz), g = (-cubicSplineSlope(d * invH) * invH) / d;
        pg[p] = g * ox; pg[p + 1] = g * oy; pg[p + 2] = g * oz;
      }
    }
  },
});

/**
 * A pass's first half: each sparse particle's λ from the large-scale density rate D_a the velocities make now
 * (λ_a = −ω D_a / den_a where D_a < 0 and the particle is thin, else 0), and each pair's share λ_a ∇_a W_ab added
 * to a's Δv and taken from b's (sums).
 */
export const thinPassJob = defineJob({
  name: 'thin-pass',
  arrays: { lam: 'f64', dv: 'f64' },
  inputs: { vel: 'f64', ls: 'i32', pj: 'i32', pg: 'f64', pgFirst: 'i32', den: 'f64', flat: 'f64' },
  scalars: ['omega', 'flatMax'],
  split: 'items',
  cost: { prefix: ['ls'], perItem: 1 },
  sums: { dv: 3 },
  minItems: () => teamWork.minParticles,
  kernel(x) {
    const { lam, dv, vel, ls, pj, pg, pgFirst, den, flat } = x.a, omega = x.s.omega, flatMax = x.s.flatMax;
    for (let i = x.from; i < x.to; i++) {
      const k0 = ls[i], k1 = ls[i + 1];
      lam[i] = 0;
      if (k0 === k1 || !(den[i] > 0) || !(flat[i] < flatMax)) continue;
      // (pg holds this row's gradients from 3 pgFirst[i]: thinGradJob stores those of exactly these rows.)
      const vx = vel[3 * i], vy = vel[3 * i + 1], vz = vel[3 * i + 2], o = 3 * (pgFirst[i] - k0);
      let D = 0;
      for (let k = k0; k < k1; k++) {
        const j = pj[k], p = o + 3 * k;
        D += (vx - vel[3 * j]) * pg[p] + (vy - vel[3 * j + 1]) * pg[p + 1] + (vz - vel[3 * j + 2]) * pg[p + 2];
      }
      if (!(D < 0)) continue;
      const l = (-omega * D) / den[i];
      lam[i] = l;
      let sx = 0, sy = 0, sz = 0;
      for (let k = k0; k < k1; k++) {
        const j = pj[k], p = o + 3 * k, gx = l * pg[p], gy = l * pg[p + 1], gz = l * pg[p + 2];
        sx += gx; sy += gy; sz += gz;
        dv[3 * j] -= gx; dv[3 * j + 1] -= gy; dv[3 * j + 2] -= gz;
      }
      dv[3 * i] += sx; dv[3 * i + 1] += sy; dv[3 * i + 2] += sz;
    }
  },
});

/**
 * A pass's second half: each sparse particle's Δv filtered by its feature-shaped kernel over its neighbours'
 * (self weighted 1), the others' as found, added to the velocities.
 */
export const thinApplyJob = defineJob({
  name: 'thin-apply',
  arrays: { vel: 'f64' },
  inputs: { dv: 'f64', fw: 'f64', ls: 'i32', pj: 'i32', sp: 'u8' },
  split: 'items',
  cost: { prefix: ['ls'], perItem: 1 },
  balance: true,
  minItems: () => teamWork.minParticles,
  kernel(x) {
    const { vel, dv, fw, ls, pj, sp } = x.a;
    for (let i = x.from; i < x.to; i++) {
      if (sp[i] === 0) {
        vel[3 * i] += dv[3 * i]; vel[3 * i + 1] += dv[3 * i + 1]; vel[3 * i + 2] += dv[3 * i + 2];
        continue;
      }
      let w = 1, fx = dv[3 * i], fy = dv[3 * i + 1], fz = dv[3 * i + 2];
      for (let k = ls[i], k1 = ls[i + 1]; k < k1; k++) {
        const j = pj[k], wk = fw[k];
        w += wk; fx += wk * dv[3 * j]; fy += wk * dv[3 * j + 1]; fz += wk * dv[3 * j + 2];
      }
      vel[3 * i] += fx / w; vel[3 * i + 1] += fy / w; vel[3 * i + 2] += fz / w;
    }
  },
});
