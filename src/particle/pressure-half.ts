/**
 * The pressure stage's and PBF's hot loops (pressure-kernels.ts) on one thread, over each pair of
 * neighbours once: the kernel of a pair (its distance, spline and slope) is evaluated from its
 * lower slot and added to both ends, as the one-thread implicit viscosity does with half rows
 * (viscosity-weiler-product.ts applyHalf). The sums are those of the gather loops, in the same
 * order, so the bits are the same on one thread as on a team that runs the gather loops:
 *
 * every solve row (solve-setup.ts prepareSolve) holds first the slots b < a that name slot a, in
 * ascending b, then the slots b > a (solve-pair-rows.ts rowsFromPairs; `mid[a]` is where that
 * upper part starts). Visiting the slots in ascending order, the upper part of each, a slot's
 * per-slot sum receives its lower entries in ascending order from the slots before it, then its own
 * upper entries: the gather loop's order. A pair's terms are exact mirrors at the two ends
 * (x_b − x_a = −(x_a − x_b) exactly, so |d|, the spline, the slope and its single-precision copy
 * are the same; a gradient term changes sign, a symmetric one does not), and s + (−t) is s − t.
 *
 * On a thread team each thread runs these loops over its own range of slots [from, to): a pair
 * whose upper slot lies beyond `to` is added to its lower slot only, and each slot first takes the
 * entries of its row's lower part that lie below `from` (the pairs a thread below holds), in
 * ascending order, as the gather loop and the one-thread sweep add them first: the same sums in the
 * same order, so a team gives the one thread's bits. Each thread writes only its own slots.
 *
 * The slopes are kept for the rows' upper parts and, on a team, the lower entries below the
 * thread's range (the half loops read no other): so every phase after a measure must take the
 * measure's ranges, as the solve job's phases do (one cut by the cost of the same rows, on the same
 * thread count, from one measure to the next). On one thread the rows are their upper parts alone
 * (HalfRows.upperOnly: prepareSolve); on a team without closed walls or the filter, the upper parts
 * and the lower entries below the row's thread's range alone (HalfRows.cuts, the ranges pinned).
 *
 * A slot with closed walls within h takes its ghosts over its whole row in the measures (ghostFactor,
 * pressure-wall-lower.ts, as pressure-ghosts.ts factorRowWalls sums them; with upper parts alone its
 * lower entries from the list made after WALLS there): they are summed apart from the liquid terms
 * and added after them, as in the gather loops. The passes' displacement and density change (and
 * advanceHalf's) take each pair's ghosts once, as its liquid term (pressure-ghosts.ts
 * ghostDisplacementUpper, ghostDensityChangeUpper): a slot's own images and its upper pairs' ghosts
 * summed apart and added after its liquid terms, its lower pairs' ghosts each after that pair's
 * liquid term; the same order on one thread and on a team (whose slots take the pairs below their
 * range's ghosts so: ghostDisplacementBelow, ghostDensityChangeBelow), not the gather loops' (which
 * add a slot's lower pairs' ghosts after its liquid terms): the same terms, summed in another order.
 * Object particles per slot, as there.
 */
import { cubicSpline } from '../math/kernels.ts';
import { ghostSum, NEIGHBOUR_EDGE } from './pressure-ghosts.ts';
import { ghostFactor, type WallLower } from './pressure-wall-lower.ts';
import { changesBelow, ghostDensityChangeUpper, ghostDisplacementBelow, ghostDisplacementUpper } from './pressure-ghost-pairs.ts';
import type { SolveView } from './pressure-kernels.ts';
import { COUNT, GX, GY, GZ, objectSums, objectTerms, RHO } from './pressure-object-terms.ts';
import { displaceSparse, mostlyIdle, updateSparse } from './pressure-half-sparse.ts';

/** What the half loops need besides the view: where each row's upper part starts, and scratch. */
export interface HalfRows {
  /** Per slot: the first entry of row a naming a slot b > a (solve-pair-rows.ts upperStarts). */
  mid: Int32Array;
  /** Per slot: advanceHalf's density changes. */
  acc: Float64Array;
  /** The view's rows are the upper parts alone (mid[a] = ls[a]): no loop over a full row may read them (solve-setup.ts prepareSolve). */
  upperOnly: boolean;
  /** With `upperOnly` and closed walls: the walled lower entries the measures' ghosts read, listed after WALLS (pressure-wall-lower.ts). */
  lower?: WallLower;
  /**
   * A team's rows by range (solve-pair-rows.ts TeamPairRows.ranged): each row's lower entries below
   * its thread's range alone, the ranges those of this cut (job.ts ItemCost.pin), which every run
   * over the rows keeps; null or absent: full rows.
   */
  cuts?: Int32Array | null;
}

/** pressure-kernels.ts factorRange over slots [from, to), each pair once (see the header); the same bits. */
export function factorHalf(v: SolveView, from: number, to: number, hr: HalfRows): void {
  const x = v.x, ls = v.ls, lj = v.lj, bs = v.bs, kg = v.kg;
  const dens = v.dens, alpha = v.alpha, nb = v.nb, invMass = v.invMass, uniform = v.uniform, mask = v.wmask;
  const mid = hr.mid, grad = v.dx;
  const invH = 1 / v.h, n0 = v.n0, invN0 = 1 / n0, epsN = v.eps * n0 * n0, anyWalls = v.walls.length > 0;
  // The sums every slot starts from (ρ̂'s 1 is its own), in arrays the measure overwrites: ρ̂ in
  // dens, Σ m_a/m_b |G|² in alpha, the count in nb, the gradient in dx (free until a displacement).
  for (let a = from; a < to; a++) {
    let rho = 1, gx = 0, gy = 0, gz = 0, s2 = 0, k = 0;
    if (from > 0) {
      // The lower entries below the range (a team), each slope kept for the later phases' same loop.
      const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
      for (let q = ls[a], q1 = mid[a]; q < q1; q++) {
        const j = lj[q];
        if (j >= from) break;
        const b = 3 * j, dx = xa - x[b], dy = ya - x[b + 1], dz = za - x[b + 2];
        const d2 = dx * dx + dy * dy + dz * dz;
        const d = Math.sqrt(d2), s = d * invH;
        if (s >= 1) { kg[q] = 0; continue; }
        if (s < NEIGHBOUR_EDGE) k++;
        const t = 1 - s, inner = s <= 0.5;
        rho += inner ? 6 * s * s * (s - 1) + 1 : 2 * t * t * t;
        const slope = inner ? s * (18 * s - 12) : -6 * t * t;
        if (d === 0) { kg[q] = 0; continue; }
        const f = Math.fround((slope * invH) / d);
        kg[q] = f;
        gx += f * dx; gy += f * dy; gz += f * dz;
        s2 += f * f * d2 * (uniform ? 1 : invMass[j]);
      }
    }
    dens[a] = rho; alpha[a] = s2; nb[a] = k;
    grad[3 * a] = gx; grad[3 * a + 1] = gy; grad[3 * a + 2] = gz;
  }
  for (let a = from; a < to; a++) {
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2], ia = uniform ? 1 : invMass[a];
    let rho = dens[a], gx = grad[3 * a], gy = grad[3 * a + 1], gz = grad[3 * a + 2], s2 = alpha[a], k = nb[a];
    for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
      const j = lj[q], b = 3 * j, own = j < to;
      const dx = xa - x[b], dy = ya - x[b + 1], dz = za - x[b + 2];
      const d2 = dx * dx + dy * dy + dz * dz;
      const d = Math.sqrt(d2), s = d * invH;
      if (s >= 1) { kg[q] = 0; continue; }
      if (s < NEIGHBOUR_EDGE) { k++; if (own) nb[j]++; }
      const t = 1 - s, inner = s <= 0.5;
      const w = inner ? 6 * s * s * (s - 1) + 1 : 2 * t * t * t;
      rho += w;
      if (own) dens[j] += w;
      const slope = inner ? s * (18 * s - 12) : -6 * t * t;
      if (d === 0) { kg[q] = 0; continue; }
      const f = Math.fround((slope * invH) / d);
      kg[q] = f;
      const ex = f * dx, ey = f * dy, ez = f * dz;
      gx += ex; gy += ey; gz += ez;
      // (x · 1 is x: with equal masses the same bits as f² d² alone.)
      const g2 = f * f * d2;
      s2 += g2 * (uniform ? 1 : invMass[j]);
      if (own) {
        grad[b] -= ex; grad[b + 1] -= ey; grad[b + 2] -= ez;
        alpha[j] += g2 * ia;
      }
    }
    const walled = anyWalls && mask[a] !== 0;
    if (walled) ghostFactor(v, a, false, hr);
    if (bs[a] < bs[a + 1]) {
      const S = objectSums;
      S[RHO] = rho; S[GX] = gx; S[GY] = gy; S[GZ] = gz; S[COUNT] = k;
      objectTerms(v, a, xa, ya, za, true, null, null);
      rho = S[RHO]; gx = S[GX]; gy = S[GY]; gz = S[GZ]; k = S[COUNT];
    }
    let hx = gx, hy = gy, hz = gz;
    if (walled) {
      const g = ghostSum;
      rho += g[6]; gx += g[7]; gy += g[8]; gz += g[9]; s2 += g[10];
      hx = gx + g[11]; hy = gy + g[12]; hz = gz + g[13];
      k += g[14];
    }
    nb[a] = k;
    const gs = v.grad;
    if (gs !== null) { gs[3 * a] = gx; gs[3 * a + 1] = gy; gs[3 * a + 2] = gz; }
    dens[a] = rho * invN0;
    alpha[a] = (n0 * n0 * ia) / (s2 + ia * (hx * hx + hy * hy + hz * hz) + ia * epsN);
  }
}

/**
 * pressure-kernels.ts advanceDensityRange over slots [from, to), each pair's density change once;
 * the same bits (hr.acc carries the sums).
 */
export function advanceHalf(v: SolveView, from: number, to: number, hr: HalfRows, u: Float64Array, ou: Float64Array | null): void {
  const x = v.x, ls = v.ls, lj = v.lj, bs = v.bs, bj = v.bj, opos = v.opos, gamma = v.gamma, kg = v.kg, bg = v.bg;
  const dens = v.dens, mask = v.wmask, mid = hr.mid, acc = hr.acc;
  const invN0 = 1 / v.n0, anyWalls = v.walls.length > 0;
  changesBelow(v, from, to, hr, u, acc);
  for (let a = from; a < to; a++) {
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2];
    let drho = acc[a];
    for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
      const j = lj[q], f = kg[q];
      if (f === 0) continue;
      const b = 3 * j;
      const c = f * ((ux - u[b]) * (xa - x[b]) + (uy - u[b + 1]) * (ya - x[b + 1]) + (uz - u[b + 2]) * (za - x[b + 2]));
      drho += c;
      if (j < to) acc[j] += c;
    }
    for (let q = bs[a], q1 = bs[a + 1]; q < q1; q++) {
      const o = bj[q], g = bg[q];
      if (g === 0) continue;
      const dx = xa - opos[3 * o], dy = ya - opos[3 * o + 1], dz = za - opos[3 * o + 2];
      const f = gamma[o] * g;
      if (ou === null) drho += f * (ux * dx + uy * dy + uz * dz);
      else drho += f * ((ux - ou[3 * o]) * dx + (uy - ou[3 * o + 1]) * dy + (uz - ou[3 * o + 2]) * dz);
    }
    if (anyWalls && mask[a] !== 0) {
      ghostDensityChangeUpper(v, a, to, mid, u, acc);
      drho += ghostSum[0];
    }
    dens[a] += drho * invN0;
  }
}

/**
 * pressure-kernels.ts densityRange over slots [from, to), each pair once: ρ̂ alone, the same bits
 * (a walled slot's ghosts as ghostFactor sums them).
 */
export function densityHalf(v: SolveView, from: number, to: number, hr: HalfRows): void {
  const x = v.x, ls = v.ls, lj = v.lj, bs = v.bs, bj = v.bj, opos = v.opos, gamma = v.gamma, dens = v.dens, mask = v.wmask;
  const mid = hr.mid, invH = 1 / v.h, invN0 = 1 / v.n0, anyWalls = v.walls.length > 0;
  for (let a = from; a < to; a++) {
    let rho = 1;
    if (from > 0) {
      // The lower entries below the range (a team).
      const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
      for (let q = ls[a], q1 = mid[a]; q < q1; q++) {
        const j = lj[q];
        if (j >= from) break;
        const b = 3 * j, dx = xa - x[b], dy = ya - x[b + 1], dz = za - x[b + 2];
        const s = Math.sqrt(dx * dx + dy * dy + dz * dz) * invH;
        if (s >= 1) continue;
        const t = 1 - s;
        rho += s <= 0.5 ? 6 * s * s * (s - 1) + 1 : 2 * t * t * t;
      }
    }
    dens[a] = rho;
  }
  for (let a = from; a < to; a++) {
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    let rho = dens[a];
    for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
      const j = lj[q], b = 3 * j;
      const dx = xa - x[b], dy = ya - x[b + 1], dz = za - x[b + 2];
      const s = Math.sqrt(dx * dx + dy * dy + dz * dz) * invH;
      if (s >= 1) continue;
      const t = 1 - s;
      const w = s <= 0.5 ? 6 * s * s * (s - 1) + 1 : 2 * t * t * t;
      rho += w;
      if (j < to) dens[j] += w;
    }
    for (let q = bs[a], q1 = bs[a + 1]; q < q1; q++) {
      const o = bj[q];
      const dx = xa - opos[3 * o], dy = ya - opos[3 * o + 1], dz = za - opos[3 * o + 2];
      const s = Math.sqrt(dx * dx + dy * dy + dz * dz) * invH;
      if (s >= 1) continue;
      rho += gamma[o] * cubicSpline(s);
    }
    if (anyWalls && mask[a] !== 0) {
      ghostFactor(v, a, true, hr);
      rho += ghostSum[6];
    }
    dens[a] = rho * invN0;
  }
}

/** pressure-kernels.ts pressureDisplacementRange over slots [from, to), each pair once; the same bits. */
export function displaceHalf(v: SolveView, from: number, to: number, hr: HalfRows): void {
  const x = v.x, ls = v.ls, lj = v.lj, bs = v.bs, bj = v.bj, opos = v.opos, gamma = v.gamma, kg = v.kg, bg = v.bg;
  const p = v.p, out = v.dx, invMass = v.invMass, uniform = v.uniform, mask = v.wmask, mid = hr.mid;
  const invN0 = 1 / v.n0, anyWalls = v.walls.length > 0;
  // One thread with equal masses (the rows' upper parts alone: no closed walls) and nearly no pressure: pressure-half-sparse.ts.
  if (hr.upperOnly && uniform && !anyWalls && mostlyIdle(p, to, 1)) return displaceSparse(v, to, hr);
  for (let a = from; a < to; a++) {
    let cx = 0, cy = 0, cz = 0;
    if (from > 0) {
      // The lower entries below the range (a team): the far end's term, as its sweep takes it from out.
      const pa = p[a], xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2], ia = uniform ? 1 : invMass[a];
      const walled = anyWalls && mask[a] !== 0;
      for (let q = ls[a], q1 = mid[a]; q < q1; q++) {
        const j = lj[q];
        if (j >= from) break;
        const b = 3 * j;
        if (uniform) {
          const f = (pa + p[j]) * kg[q];
          cx += f * (xa - x[b]); cy += f * (ya - x[b + 1]); cz += f * (za - x[b + 2]);
        } else {
          const l = pa + p[j], g = kg[q];
          if (l !== 0 && g !== 0) {
            const ib = invMass[j], f = l * ((2 * ia) / (ia + ib)) * g;
            cx += f * (xa - x[b]); cy += f * (ya - x[b + 1]); cz += f * (za - x[b + 2]);
          }
        }
        // The pair's ghosts after its liquid term, as the sweep below adds them (pressure-ghost-pairs.ts ghostDisplacementUpper).
        if (walled && mask[j] !== 0) {
          ghostSum[1] = cx; ghostSum[2] = cy; ghostSum[3] = cz;
          ghostDisplacementBelow(v, a, j);
          cx = ghostSum[1]; cy = ghostSum[2]; cz = ghostSum[3];
        }
      }
    }
    out[3 * a] = cx; out[3 * a + 1] = cy; out[3 * a + 2] = cz;
  }
  for (let a = from; a < to; a++) {
    const pa = p[a], xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    let cx = out[3 * a], cy = out[3 * a + 1], cz = out[3 * a + 2];
    if (uniform) {
      // As the gather loop: no test for a zero pressure sum or slope (such a term adds ±0).
      for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
        const j = lj[q], b = 3 * j;
        const f = (pa + p[j]) * kg[q];
        const ex = f * (xa - x[b]), ey = f * (ya - x[b + 1]), ez = f * (za - x[b + 2]);
        cx += ex; cy += ey; cz += ez;
        if (j < to) {
          out[b] -= ex; out[b + 1] -= ey; out[b + 2] -= ez;
        }
      }
    } else {
      const ia = invMass[a];
      for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
        const j = lj[q];
        const l = pa + p[j], g = kg[q];
        if (l === 0 || g === 0) continue;
        const b = 3 * j, ib = invMass[j], rx = xa - x[b], ry = ya - x[b + 1], rz = za - x[b + 2];
        const f = l * ((2 * ia) / (ia + ib)) * g, fb = l * ((2 * ib) / (ib + ia)) * g;
        cx += f * rx; cy += f * ry; cz += f * rz;
        if (j < to) {
          out[b] -= fb * rx; out[b + 1] -= fb * ry; out[b + 2] -= fb * rz;
        }
      }
    }
    if (pa !== 0) {
      // A body pushes each liquid as it would push that liquid alone (weight 1, whatever its mass).
      for (let q = bs[a], q1 = bs[a + 1]; q < q1; q++) {
        const o = bj[q], g = bg[q];
        if (g === 0) continue;
        const f = pa * gamma[o] * g;
        cx += f * (xa - opos[3 * o]); cy += f * (ya - opos[3 * o + 1]); cz += f * (za - opos[3 * o + 2]);
      }
    }
    if (anyWalls && mask[a] !== 0) {
      ghostDisplacementUpper(v, a, to, mid, out);
      cx += ghostSum[1]; cy += ghostSum[2]; cz += ghostSum[3];
    }
    out[3 * a] = -cx * invN0; out[3 * a + 1] = -cy * invN0; out[3 * a + 2] = -cz * invN0;
  }
}

/**
 * pressure-kernels.ts pressureUpdateRange over slots [from, to), each pair's density change once
 * (the term is the same at both ends); the same bits. v.res carries the sums until each slot's
 * residual replaces its own.
 */
export function updateHalf(v: SolveView, from: number, to: number, hr: HalfRows, omega: number): void {
  const x = v.x, ls = v.ls, lj = v.lj, bs = v.bs, bj = v.bj, opos = v.opos, gamma = v.gamma, kg = v.kg, bg = v.bg;
  const p = v.p, dens = v.dens, alpha = v.alpha, u = v.dx, res = v.res, mask = v.wmask, mid = hr.mid, floor = v.floor ?? null;
  const invN0 = 1 / v.n0, anyWalls = v.walls.length > 0;
  // One thread (no closed walls) with displacements that are nearly all 0: pressure-half-sparse.ts.
  if (hr.upperOnly && !anyWalls && mostlyIdle(u, to, 3)) return updateSparse(v, to, hr, omega);
  changesBelow(v, from, to, hr, u, res);
  for (let a = from; a < to; a++) {
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2];
    let drho = res[a];
    for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
      const j = lj[q], f = kg[q];
      if (f === 0) continue;
      const b = 3 * j;
      const c = f * ((ux - u[b]) * (xa - x[b]) + (uy - u[b + 1]) * (ya - x[b + 1]) + (uz - u[b + 2]) * (za - x[b + 2]));
      drho += c;
      if (j < to) res[j] += c;
    }
    for (let q = bs[a], q1 = bs[a + 1]; q < q1; q++) {
      const o = bj[q], g = bg[q];
      if (g === 0) continue;
      const dx = xa - opos[3 * o], dy = ya - opos[3 * o + 1], dz = za - opos[3 * o + 2];
      drho += gamma[o] * g * (ux * dx + uy * dy + uz * dz);
    }
    if (anyWalls && mask[a] !== 0) {
      ghostDensityChangeUpper(v, a, to, mid, u, res);
      drho += ghostSum[0];
    }
    const e = dens[a] + drho * invN0 - 1, lo = floor === null ? 0 : floor[a];
    res[a] = e > 0 ? e : p[a] > lo ? -e : 0;
    const np = p[a] + omega * alpha[a] * e;
    p[a] = np > lo ? np : lo;
  }
}
