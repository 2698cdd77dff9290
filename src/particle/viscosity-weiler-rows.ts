/**
 * The liquid rows of the implicit viscosity's system (viscosity-weiler.ts; the system in
 * viscosity-weiler-solve.ts, after Weiler, Koschier, Brand & Bender 2018, §4 eq. 8–10): each pair's
 * coefficient e_ij = δt K μ_ij F(|x_ij|) evaluated once, from the adhesion stage's pair list (each
 * pair i < j within ctx.reach, which covers every kernel support, at the current positions; the
 * slots are the particles).
 *
 * Each coefficient carries the two particles' volumes, q_i q_j (viscosity-weiler-volumes.ts).
 *
 * - One thread, half rows (halfRows): the pair list's own rows, each pair once as its e_ij (a
 *   16-bit code within 2.4e-4 of it, viscosity-weiler-coef.ts, at the pair's index of the list), in one pass that also adds each pair's block
 *   e x xᵀ to the (single-precision) diagonal blocks of both of its particles. e = (√e)², √F from a table over (r/h)² (F(r; h) =
 *   h⁻⁷ F(r/h; 1): one table for every support; linear between 4 096 entries, within 1e-6 of F's
 *   root). Pairs beyond their support (a reach wider than the viscosity's) keep e = 0 where they
 *   are few; where they are more than an eighth of the list, the rows are compacted into the
 *   stage's own list (one liquid's entries into the upper half of the codes' room, lendRows).
 * - A team, full rows: every neighbour within the pair's support in both rows (gather form, each
 *   thread its own rows), the scalar e_ij written to both entries; listed by the team itself
 *   (viscosity-weiler-team-rows.ts).
 */
import type { StepContext } from './context.ts';
import type { ImplicitViscosityState } from './viscosity-weiler.ts';
import type { CallRoom } from './viscosity-weiler-boundary.ts';
import type { SlotRows } from './slot-rows.ts';
import { grownRows } from './liquid.ts';
import { pairFactorMean } from './temperature.ts';
import { pairFactor } from './viscosity-weiler-product.ts';
import { coefBound, coefTable, codeOf, COEF_TOP, largestOf } from './viscosity-weiler-coef.ts';

const NO_FACTORS = new Float64Array(0);
/** Intervals of the table of √F(√s; 1) over s = (r/h)² ∈ [0, 1]. */
const TABLE_N = 4096;
let rootTable: Float64Array | null = null;

/** √F(r; 1) at r² = k / TABLE_N, k = 0 … TABLE_N (and one 0 past the end, where s rounds to 1). */
export function factorRoots(): Float64Array {
  if (rootTable) return rootTable;
  const t = new Float64Array(TABLE_N + 2);
  for (let k = 1; k < TABLE_N; k++) t[k] = Math.sqrt(pairFactor(k / TABLE_N, 1));
  // r → 0: F tends to its limit (the spline's slope is linear there); the pair has no direction anyway.
  t[0] = 2 * t[1] - t[2];
  return (rootTable = t);
}

/**
 * Per material pair: √(δt K μ h⁻⁷) (st.pairRoot) and TABLE_N / h² (st.pairToTable), for the table
 * of √F; the bound S on the solve's coefficients, its decoding factor (st.coefDec[0]) and, per
 * material pair, the root on the code's scale, 65535 √(δt K μ h⁻⁷ / S) (st.pairRootCode:
 * viscosity-weiler-coef.ts); √q of each particle into `rootVol` (single precision).
 */
export function pairTables(st: ImplicitViscosityState, nm: number, tf: Float64Array, n: number, thermal: boolean, rootVol: Float32Array): void {
  const ph2 = st.ph2, root = st.pairRoot, toTable = st.pairToTable, vol = st.vol;
  for (let e = 0; e < nm * nm; e++) {
    root[e] = ph2[e] > 0 ? Math.sqrt(st.pk[e] * st.ph[e] ** -7) : 0;
    toTable[e] = ph2[e] > 0 ? TABLE_N / (st.ph[e] * st.ph[e]) : 0;
  }
  const S = coefBound(root, factorRoots()[0], largestOf(vol, n, true), largestOf(tf, n, thermal));
  coefTable(S, st.coefDec);
  const toCode = S > 0 ? COEF_TOP / Math.sqrt(S) : 0;
  for (let e = 0; e < nm * nm; e++) st.pairRootCode[e] = root[e] * toCode;
  for (let i = 0; i < n; i++) rootVol[i] = Math.sqrt(vol[i]);
}

/** The rows the job reads: the pair list's own or the stage's compacted list. */
export interface RowLayout {
  start: Int32Array;
  j: Int32Array | Uint16Array;
}

/**
 * Half rows from the pair list, coef[e] = the 16-bit code of pair e's e (viscosity-weiler-coef.ts),
 * and pinv[6i…6i+5] = Σ e x xᵀ over particle i's pairs (xx, yy, zz, xy, xz, yz), each e as its code
 * reads back. `coef` holds the pair list's length; `rootVol` (n entries) is scratch for √q.
 */
export function halfRows(
  ctx: StepContext, st: ImplicitViscosityState, n: number, coef: Uint16Array, pinv: Float32Array, rootVol: Float32Array, room?: CallRoom,
): RowLayout {
  const pairs = ctx.cells.pairs, ps = pairs.start, pj = pairs.j, pos = ctx.liquid.pos, mat = ctx.liquid.material;
  // ph2: each material pair's squared reach (kernelReach of its support: viscosity-weiler.ts).
  const nm = ctx.mass.length, ph2 = st.ph2, T = factorRoots();
  const tf = ctx.temperature ? ctx.temperature.factor : NO_FACTORS, thermal = !!ctx.temperature;
  pairTables(st, nm, tf, n, thermal, rootVol);
  const ck = st.coefDec[0], root = st.pairRootCode, toTable = st.pairToTable;
  pinv.fill(0, 0, 6 * n);
  const one = thermal ? -1 : soleLiquid(ctx.isLiquid);
  let beyond = 0;
  if (one >= 0) {
    const h2 = ph2[one * (nm + 1)];
    // Pairs reaching under 7/8 of the list's volume (kernelReach below 1): the rows compacted as they are listed.
    if (h2 * FEW_BEYOND < ctx.reach * ctx.reach) {
      return compactedOneLiquid(ctx, st, n, coef, pinv, rootVol, ck, root[one * (nm + 1)], toTable[one * (nm + 1)], h2, room);
    }
    beyond = oneLiquidRows(ps, pj, pos, n, coef, pinv, rootVol, ck, root[one * (nm + 1)], toTable[one * (nm + 1)], h2);
  } else {
    for (let i = 0; i < n; i++) {
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], row = mat[i] * nm, qi = rootVol[i];
      let dxx = 0, dyy = 0, dzz = 0, dxy = 0, dxz = 0, dyz = 0;
      for (let e = ps[i], e1 = ps[i + 1]; e < e1; e++) {
        const j = pj[e], pe = row + mat[j];
        const dx = xi - pos[3 * j], dy = yi - pos[3 * j + 1], dz = zi - pos[3 * j + 2], d2 = dx * dx + dy * dy + dz * dz;
        if (!(d2 < ph2[pe])) {
          coef[e] = 0;
          beyond++;
          continue;
        }
        // √e on the code's scale: 65535 √(e / S) = the root's code scale × √F × √q_i √q_j (× √f).
        const s = d2 * toTable[pe], t = s | 0, f = s - t, w = root[pe] * (T[t] + f * (T[t + 1] - T[t])) * qi * rootVol[j];
        const code = codeOf(thermal ? w * Math.sqrt(pairFactorMean(tf[i], tf[j])) : w);
        coef[e] = code;
        const c = ck * code * code;
        const cx = c * dx, cy = c * dy, cz = c * dz;
        const xx = cx * dx, yy = cy * dy, zz = cz * dz, xy = cx * dy, xz = cx * dz, yz = cy * dz, o = 6 * j;
        pinv[o] += xx; pinv[o + 1] += yy; pinv[o + 2] += zz; pinv[o + 3] += xy; pinv[o + 4] += xz; pinv[o + 5] += yz;
        dxx += xx; dyy += yy; dzz += zz; dxy += xy; dxz += xz; dyz += yz;
      }
      const o = 6 * i;
      pinv[o] += dxx; pinv[o + 1] += dyy; pinv[o + 2] += dzz; pinv[o + 3] += dxy; pinv[o + 4] += dxz; pinv[o + 5] += dyz;
    }
  }
  return 8 * beyond <= pairs.length ? { start: ps, j: pj } : compacted(ctx, st, n, coef, beyond);
}

/** The material of the one liquid of the scene, or −1 where there are several. */
function soleLiquid(isLiquid: Uint8Array): number {
  let one = -1;
  for (let m = 0; m < isLiquid.length; m++) {
    if (!isLiquid[m]) continue;
    if (one >= 0) return -1;
    one = m;
  }
  return one;
}

/**
 * halfRows' loop where one liquid without temperature fills the scene: every pair's root, table
 * scale and support are the same numbers, held in locals rather than read per pair by material
 * (the same arithmetic in the same order: the same codes and blocks). Returns the pairs beyond the support.
 * Its pair block and row sums are written out here and again in compactedOneLiquid and halfRows'
 * loop: as helpers (a pair block, a row sum in a 6-entry scratch, √F from the table) the viscosity
 * stage read 1.05× its CPU in two quiet A/B runs of the honey drop (docs/decisions.md, "Review debt").
 */
function oneLiquidRows(
  ps: Int32Array, pj: Int32Array | Uint16Array, pos: Float64Array, n: number, coef: Uint16Array, pinv: Float32Array, rootVol: Float32Array,
  ck: number, root: number, toTable: number, h2: number,
): number {
  const T = factorRoots();
  let beyond = 0;
  for (let i = 0; i < n; i++) {
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], qi = rootVol[i];
    let dxx = 0, dyy = 0, dzz = 0, dxy = 0, dxz = 0, dyz = 0;
    for (let e = ps[i], e1 = ps[i + 1]; e < e1; e++) {
      const j = pj[e];
      const dx = xi - pos[3 * j], dy = yi - pos[3 * j + 1], dz = zi - pos[3 * j + 2], d2 = dx * dx + dy * dy + dz * dz;
      if (!(d2 < h2)) {
        coef[e] = 0;
        beyond++;
        continue;
      }
      const s = d2 * toTable, t = s | 0, f = s - t;
      const code = codeOf(root * (T[t] + f * (T[t + 1] - T[t])) * qi * rootVol[j]);
      coef[e] = code;
      const c = ck * code * code;
      const cx = c * dx, cy = c * dy, cz = c * dz;
      const xx = cx * dx, yy = cy * dy, zz = cz * dz, xy = cx * dy, xz = cx * dz, yz = cy * dz, o = 6 * j;
      pinv[o] += xx; pinv[o + 1] += yy; pinv[o + 2] += zz; pinv[o + 3] += xy; pinv[o + 4] += xz; pinv[o + 5] += yz;
      dxx += xx; dyy += yy; dzz += zz; dxy += xy; dxz += xz; dyz += yz;
    }
    const o = 6 * i;
    pinv[o] += dxx; pinv[o + 1] += dyy; pinv[o + 2] += dzz; pinv[o + 3] += dxy; pinv[o + 4] += dxz; pinv[o + 5] += dyz;
  }
  return beyond;
}

/** (8/7)^(2/3): a reach whose ball is under 7/8 of the pair list's leaves more than an eighth of a uniform list beyond it. */
const FEW_BEYOND = (8 / 7) ** (2 / 3);

/**
 * oneLiquidRows' codes and blocks where most of the list lies beyond the reach h2 (kernelReach
 * below 1): each pair within it written straight to the compacted rows (its code at its place
 * there, in place in `coef`), in one pass rather than compacted after (the same rows, codes and
 * blocks as `compacted` makes of oneLiquidRows').
 */
function compactedOneLiquid(
  ctx: StepContext, st: ImplicitViscosityState, n: number, coef: Uint16Array, pinv: Float32Array, rootVol: Float32Array,
  ck: number, root: number, toTable: number, h2: number, callRoom?: CallRoom,
): RowLayout {
  const pairs = ctx.cells.pairs, ps = pairs.start, pj = pairs.j, pos = ctx.liquid.pos, T = factorRoots();
  const rows = st.rows;
  rows.shared = ctx.shared;
  const lent = callRoom !== undefined && lendRows(rows, n, coef, callRoom);
  if (!lent) rows.reset(n);
  const ls = rows.start;
  let lj = rows.j, room = lj.length, m = 0;
  for (let i = 0; i < n; i++) {
    ls[i] = m;
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], qi = rootVol[i];
    let dxx = 0, dyy = 0, dzz = 0, dxy = 0, dxz = 0, dyz = 0;
    for (let e = ps[i], e1 = ps[i + 1]; e < e1; e++) {
      const j = pj[e];
      const dx = xi - pos[3 * j], dy = yi - pos[3 * j + 1], dz = zi - pos[3 * j + 2], d2 = dx * dx + dy * dy + dz * dz;
      if (!(d2 < h2)) continue;
      const s = d2 * toTable, t = s | 0, f = s - t;
      const code = codeOf(root * (T[t] + f * (T[t + 1] - T[t])) * qi * rootVol[j]);
      if (code === 0) continue;
      if (m === room) {
        // Grown to the count this far's share of the list foretells.
        rows.length = m;
        rows.reserve(Math.max(1024, Math.ceil(((m + 1) * pairs.length) / (e + 1))));
        lj = rows.j;
        room = lj.length;
      }
      coef[m] = code;
      lj[m++] = j;
      const c = ck * code * code;
      const cx = c * dx, cy = c * dy, cz = c * dz;
      const xx = cx * dx, yy = cy * dy, zz = cz * dz, xy = cx * dy, xz = cx * dz, yz = cy * dz, o = 6 * j;
      pinv[o] += xx; pinv[o + 1] += yy; pinv[o + 2] += zz; pinv[o + 3] += xy; pinv[o + 4] += xz; pinv[o + 5] += yz;
      dxx += xx; dyy += yy; dzz += zz; dxy += xy; dxz += xz; dyz += yz;
    }
    const o = 6 * i;
    pinv[o] += dxx; pinv[o + 1] += dyy; pinv[o + 2] += dzz; pinv[o + 3] += dxy; pinv[o + 4] += dxz; pinv[o + 5] += dyz;
  }
  ls[n] = m;
  rows.length = m;
  return rows;
}

/**
 * The compacted rows' entries in the upper half of the pair codes' room (coef from half its length
 * on, idle while the codes are compacted below it: an entry is written at m, its code at m), their
 * starts in the call's idle room (viscosity-weiler-boundary.ts CallRoom) where it has them: the
 * rows then take no memory of their own between calls (returnRoom lets the views go; the stage
 * carves its room past the entries). Where the rows outgrow the half (m reaches it, so no code has
 * reached it yet), the reserve copies the entries to memory of their own (SlotRows.reserve) and the
 * codes go on past it. 16-bit entries only (a liquid of at most 65 536).
 */
function lendRows(rows: SlotRows, n: number, coef: Uint16Array, room: CallRoom): boolean {
  if (n > 0x10000) return false;
  // The starts of their own where the room has none (kept: returnRoom lets go only what it lent).
  const start = room.i32(n + 1) ?? (rows.start.length >= n + 1 ? rows.start : new Int32Array(grownRows(n + 1, rows.start.length)));
  const half = Math.ceil(coef.length / 2);
  rows.lend(start, new Uint16Array(coef.buffer as ArrayBuffer, coef.byteOffset + 2 * half, coef.length - half));
  return true;
}

/** The half rows without the pairs beyond their support (coef 0), where they are more than an eighth of the list. */
function compacted(ctx: StepContext, st: ImplicitViscosityState, n: number, coef: Uint16Array, beyond: number): RowLayout {
  const pairs = ctx.cells.pairs, ps = pairs.start, pj = pairs.j;
  // Compacted in place (an entry moves only to an earlier one).
  const rows = st.rows;
  rows.shared = ctx.shared;
  rows.reset(n);
  rows.reserve(pairs.length - beyond);
  const ls = rows.start, lj = rows.j;
  let m = 0;
  for (let i = 0; i < n; i++) {
    ls[i] = m;
    for (let e = ps[i], e1 = ps[i + 1]; e < e1; e++) {
      if (coef[e] === 0) continue;
      coef[m] = coef[e];
      lj[m++] = pj[e];
    }
  }
  ls[n] = m;
  rows.length = m;
  return rows;
}
