/**
 * pressure-half.ts's displacement and update on one thread where nearly every slot is idle: the
 * second pressure solve takes the first pressure back away from bodies alone and starts from 0 next
 * to one (pressure.ts), so on the honey drop, 98 % of whose liquid is next to the ball, its take-back
 * and its first pass displace a pressure that is 0 on 90–100 % of the slots, and the update after
 * that pass reads displacements that are 0 on most. A pair whose pressures sum to 0 (a displacement)
 * or whose two displacements are 0 (an update) has a term of ±0; every sum of these loops starts at +0
 * (the slot's own, and the far ends' sums in `out` and `res`), and additions never turn +0 into −0,
 * so passing such a term over leaves every sum as it is: the same bits as pressure-half.ts. The test
 * per pair pays only where it nearly always says the same (at 55 % of the slots without pressure it
 * made the displacement 1.2 times as long: docs/decisions.md, branch pcost6), hence SPARSE_SHARE.
 * Equal masses, no closed walls, slots [0, n) (one thread): the callers check.
 */
import type { HalfRows } from './pressure-half.ts';
import type { SolveView } from './pressure-kernels.ts';

/** The share of idle slots from which the sparse loops run. */
export const SPARSE_SHARE = 0.9;

/** Whether at least SPARSE_SHARE of the n slots have zero in every one of their `width` entries of `a`. */
export function mostlyIdle(a: Float64Array, n: number, width: number): boolean {
  // Every 16th slot first (a pass with pressure on half its slots is told apart in n/16 reads), then all.
  for (let pass = 0, step = 16; pass < 2; pass++, step = 1) {
    const most = ((1 - SPARSE_SHARE) * n) / step;
    let busy = 0;
    for (let k = 0; k < n && busy <= most; k += step) busy += width === 1 ? +(a[k] !== 0) : +(a[3 * k] !== 0 || a[3 * k + 1] !== 0 || a[3 * k + 2] !== 0);
    if (busy > most) return false;
  }
  return true;
}

/** displaceHalf over slots [0, n), pairs whose pressures sum to 0 passed over (see the header). */
export function displaceSparse(v: SolveView, n: number, hr: HalfRows): void {
  const x = v.x, ls = v.ls, lj = v.lj, bs = v.bs, bj = v.bj, opos = v.opos, gamma = v.gamma, kg = v.kg, bg = v.bg;
  const p = v.p, out = v.dx, mid = hr.mid, invN0 = 1 / v.n0;
  out.fill(0, 0, 3 * n);
  for (let a = 0; a < n; a++) {
    const pa = p[a], xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    let cx = out[3 * a], cy = out[3 * a + 1], cz = out[3 * a + 2];
    for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
      const j = lj[q], l = pa + p[j];
      if (l === 0) continue;
      const b = 3 * j, f = l * kg[q];
      const ex = f * (xa - x[b]), ey = f * (ya - x[b + 1]), ez = f * (za - x[b + 2]);
      cx += ex; cy += ey; cz += ez;
      out[b] -= ex; out[b + 1] -= ey; out[b + 2] -= ez;
    }
    if (pa !== 0) {
      for (let q = bs[a], q1 = bs[a + 1]; q < q1; q++) {
        const o = bj[q], g = bg[q];
        if (g === 0) continue;
        const f = pa * gamma[o] * g;
        cx += f * (xa - opos[3 * o]); cy += f * (ya - opos[3 * o + 1]); cz += f * (za - opos[3 * o + 2]);
      }
    }
    out[3 * a] = -cx * invN0; out[3 * a + 1] = -cy * invN0; out[3 * a + 2] = -cz * invN0;
  }
}

/** updateHalf over slots [0, n) (u = v.dx), pairs whose two displacements are 0 passed over (see the header). */
export function updateSparse(v: SolveView, n: number, hr: HalfRows, omega: number): void {
  const x = v.x, ls = v.ls, lj = v.lj, bs = v.bs, bj = v.bj, opos = v.opos, gamma = v.gamma, kg = v.kg, bg = v.bg;
  const p = v.p, dens = v.dens, alpha = v.alpha, u = v.dx, res = v.res, mid = hr.mid, floor = v.floor ?? null;
  const invN0 = 1 / v.n0;
  res.fill(0, 0, n);
  for (let a = 0; a < n; a++) {
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2], still = ux === 0 && uy === 0 && uz === 0;
    let drho = res[a];
    for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
      const j = lj[q], f = kg[q], b = 3 * j;
      if (f === 0 || (still && u[b] === 0 && u[b + 1] === 0 && u[b + 2] === 0)) continue;
      const c = f * ((ux - u[b]) * (xa - x[b]) + (uy - u[b + 1]) * (ya - x[b + 1]) + (uz - u[b + 2]) * (za - x[b + 2]));
      drho += c;
      res[j] += c;
    }
    for (let q = bs[a], q1 = bs[a + 1]; q < q1; q++) {
      const o = bj[q], g = bg[q];
      if (g === 0) continue;
      const dx = xa - opos[3 * o], dy = ya - opos[3 * o + 1], dz = za - opos[3 * o + 2];
      drho += gamma[o] * g * (ux * dx + uy * dy + uz * dz);
    }
    const e = dens[a] + drho * invN0 - 1, lo = floor === null ? 0 : floor[a];
    res[a] = e > 0 ? e : p[a] > lo ? -e : 0;
    const np = p[a] + omega * alpha[a] * e;
    p[a] = np > lo ? np : lo;
  }
}
