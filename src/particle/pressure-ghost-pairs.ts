/**
 * The mirror ghosts of the pressure passes' loops over each pair once (pressure-half.ts), and the
 * density changes a team's slot takes from the pairs below its range: each pair's ghosts (the
 * images of b seen from a and of a seen from b, pressure-ghosts.ts) evaluated once, from its lower
 * slot, and added to both ends, as the liquid pairs are.
 */
import { cubicSpline, cubicSplineSlope } from '../math/kernels.ts';
import { ghostSum, ownImagesDensityChange, ownImagesDisplacement } from './pressure-ghosts.ts';
import { ghostDensityChangeTable, ghostDisplacementTable, ghostFilterTable } from './pressure-ghost-table.ts';
import type { SolveView } from './pressure-kernels.ts';

/** Bits of wmask that say which axes have a wall within h (the rest hold the walls' signs: pressure-ghosts.ts). */
const AXES = 7;

/**
 * The density changes a slot's sum starts from, into sums[from, to): 0, and on a team the terms of
 * its row's lower entries below `from`, in ascending order (the same term at both ends of a pair:
 * f ((u_a − u_b) · (x_a − x_b))).
 */
export function changesBelow(v: SolveView, from: number, to: number, hr: { mid: Int32Array }, u: Float64Array, sums: Float64Array): void {
  if (from === 0) {
    sums.fill(0, 0, to);
    return;
  }
  const x = v.x, ls = v.ls, lj = v.lj, kg = v.kg, mid = hr.mid, mask = v.wmask, anyWalls = v.walls.length > 0;
  for (let a = from; a < to; a++) {
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2], walled = anyWalls && mask[a] !== 0;
    let c = 0;
    for (let q = ls[a], q1 = mid[a]; q < q1; q++) {
      const j = lj[q];
      if (j >= from) break;
      const f = kg[q];
      if (f !== 0) {
        const b = 3 * j;
        c += f * ((ux - u[b]) * (xa - x[b]) + (uy - u[b + 1]) * (ya - x[b + 1]) + (uz - u[b + 2]) * (za - x[b + 2]));
      }
      // The pair's ghosts after its liquid term, as the sweeps add them (ghostDensityChangeUpper below).
      if (walled && mask[j] !== 0) {
        ghostSum[0] = c;
        ghostDensityChangeBelow(v, a, j, u);
        c = ghostSum[0];
      }
    }
    sums[a] = c;
  }
}
/**
 * The ghosts of the pairs of slot a's own images and of its row's upper part (mid[a] … ls[a+1]),
 * each pair's ghosts evaluated once, as the liquid pairs of pressure-half.ts are: the image of b
 * seen from a and the image of a seen from b lie at the same distance (o_ba = o_ab on the mirrored
 * axes, −o_ab on the others, the same sign bits on a wall both see), so the slope is the same and
 * b's term is a's mirrored. a's own terms into ghostSum[1..3]; b's (b < to) added to out[3b…]
 * (the raw sums displaceHalf keeps before −1/n0), after b's liquid term from a, so that a slot's
 * sum takes its lower pairs in ascending order, each liquid term then its ghosts, on one thread as
 * on a team (ghostDisplacementBelow). Δx_a's ghost terms as ghostDisplacement's.
 */
export function ghostDisplacementUpper(v: SolveView, a: number, to: number, mid: Int32Array, out: Float64Array): void {
  // A one-thread pressure stage's passes read the geometry from its table (pressure-ghost-table.ts).
  if (v.gt) return ghostDisplacementTable(v, v.gt, a, to, out);
  const x = v.x, ls = v.ls, lj = v.lj, mask = v.wmask, del = v.wdel, p = v.p, invMass = v.invMass, uniform = v.uniform;
  const h = v.h, h2 = h * h;
  const wa = mask[a], ma = wa & AXES;
  const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1;
  const dax = del[3 * a], day = del[3 * a + 1], daz = del[3 * a + 2];
  const pa = p[a], ia = uniform ? 1 : invMass[a];
  ownImagesDisplacement(v, a);
  let c1 = ghostSum[1], c2 = ghostSum[2], c3 = ghostSum[3];
  const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
  for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
    const j = lj[q];
    const wb = mask[j];
    const common = ma & wb & ~((wa ^ wb) >> 3);
    if (common === 0) continue;
    const b = 3 * j, push = j < to;
    const rx = xa - x[b], ry = ya - x[b + 1], rz = za - x[b + 2];
    const bx = dax + del[b], by = day + del[b + 1], bz = daz + del[b + 2];
    const pab = pa + p[j], ib = uniform ? 1 : invMass[j];
    const wab = uniform ? 1 : (2 * ia) / (ia + ib), wba = uniform ? 1 : (2 * ib) / (ib + ia);
    for (let S = common; S > 0; S = (S - 1) & common) {
      const ox = S & 1 ? sx * bx : rx, oy = S & 2 ? sy * by : ry, oz = S & 4 ? sz * bz : rz;
      const d2 = ox * ox + oy * oy + oz * oz;
      if (d2 >= h2) continue;
      const d = Math.sqrt(d2);
      if (d === 0) continue;
      const slope = cubicSplineSlope(d / h);
      const f = (pab * wab * slope) / h / d;
      c1 += f * ox; c2 += f * oy; c3 += f * oz;
      if (push) {
        const fb = uniform ? f : (pab * wba * slope) / h / d;
        out[b] += S & 1 ? fb * ox : -(fb * ox);
        out[b + 1] += S & 2 ? fb * oy : -(fb * oy);
        out[b + 2] += S & 4 ? fb * oz : -(fb * oz);
      }
    }
  }
  ghostSum[1] = c1; ghostSum[2] = c2; ghostSum[3] = c3;
}

/**
 * Slot a's ghost terms from its lower neighbour j (both with walls: wmask ≠ 0) added one by one to
 * ghostSum[1..3] (the caller's running sum, as ghostDisplacementUpper adds them to out): on a team,
 * for the pairs whose lower slot lies below the thread's range, whose thread adds them to its own
 * slot only.
 */
export function ghostDisplacementBelow(v: SolveView, a: number, j: number): void {
  const x = v.x, mask = v.wmask, del = v.wdel, p = v.p, invMass = v.invMass, uniform = v.uniform;
  const h = v.h, h2 = h * h;
  const wa = mask[a], wb = mask[j], common = wa & AXES & wb & ~((wa ^ wb) >> 3);
  let c1 = ghostSum[1], c2 = ghostSum[2], c3 = ghostSum[3];
  if (common !== 0) {
    const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1, b = 3 * j;
    const rx = x[3 * a] - x[b], ry = x[3 * a + 1] - x[b + 1], rz = x[3 * a + 2] - x[b + 2];
    const bx = del[3 * a] + del[b], by = del[3 * a + 1] + del[b + 1], bz = del[3 * a + 2] + del[b + 2];
    const ia = uniform ? 1 : invMass[a], pab = p[a] + p[j], wab = uniform ? 1 : (2 * ia) / (ia + invMass[j]);
    for (let S = common; S > 0; S = (S - 1) & common) {
      const ox = S & 1 ? sx * bx : rx, oy = S & 2 ? sy * by : ry, oz = S & 4 ? sz * bz : rz;
      const d2 = ox * ox + oy * oy + oz * oz;
      if (d2 >= h2) continue;
      const d = Math.sqrt(d2);
      if (d === 0) continue;
      const f = (pab * wab * cubicSplineSlope(d / h)) / h / d;
      c1 += f * ox; c2 += f * oy; c3 += f * oz;
    }
  }
  ghostSum[1] = c1; ghostSum[2] = c2; ghostSum[3] = c3;
}

/**
 * The ghosts' share of the density change of slot a's own images and of its row's upper part, each
 * pair's ghosts once (a ghost pair's term, (u_a − M u_b)·o_ab times the slope, is the same at both
 * ends): a's into ghostSum[0], b's (b < to) added to res[b] after b's liquid term from a
 * (ghostDisplacementUpper says why). The terms as ghostDensityChange's.
 */
export function ghostDensityChangeUpper(v: SolveView, a: number, to: number, mid: Int32Array, u: Float64Array, res: Float64Array): void {
  if (v.gt) return ghostDensityChangeTable(v, v.gt, a, to, u, res);
  const x = v.x, ls = v.ls, lj = v.lj, mask = v.wmask, del = v.wdel;
  const h = v.h, h2 = h * h;
  const wa = mask[a], ma = wa & AXES;
  const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1;
  const dax = del[3 * a], day = del[3 * a + 1], daz = del[3 * a + 2];
  const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2];
  let c0 = ownImagesDensityChange(v, a, u);
  const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
  for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
    const j = lj[q];
    const wb = mask[j];
    const common = ma & wb & ~((wa ^ wb) >> 3);
    if (common === 0) continue;
    const b = 3 * j, push = j < to;
    const rx = xa - x[b], ry = ya - x[b + 1], rz = za - x[b + 2];
    const bx = dax + del[b], by = day + del[b + 1], bz = daz + del[b + 2];
    const vx = u[b], vy = u[b + 1], vz = u[b + 2];
    for (let S = common; S > 0; S = (S - 1) & common) {
      const ox = S & 1 ? sx * bx : rx, oy = S & 2 ? sy * by : ry, oz = S & 4 ? sz * bz : rz;
      const d2 = ox * ox + oy * oy + oz * oz;
      if (d2 >= h2) continue;
      const d = Math.sqrt(d2);
      if (d === 0) continue;
      const f = cubicSplineSlope(d / h) / h / d;
      const dot = 0 + (ux - (S & 1 ? -vx : vx)) * ox + (uy - (S & 2 ? -vy : vy)) * oy + (uz - (S & 4 ? -vz : vz)) * oz;
      const t = f * dot;
      c0 += t;
      if (push) res[j] += t;
    }
  }
  ghostSum[0] = c0;
}

/** Slot a's ghost terms of the density change from its lower neighbour j (ghostDisplacementBelow's counterpart), added one by one to ghostSum[0]. */
export function ghostDensityChangeBelow(v: SolveView, a: number, j: number, u: Float64Array): void {
  const x = v.x, mask = v.wmask, del = v.wdel;
  const h = v.h, h2 = h * h;
  const wa = mask[a], wb = mask[j], common = wa & AXES & wb & ~((wa ^ wb) >> 3);
  let c0 = ghostSum[0];
  if (common !== 0) {
    const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1, b = 3 * j;
    const rx = x[3 * a] - x[b], ry = x[3 * a + 1] - x[b + 1], rz = x[3 * a + 2] - x[b + 2];
    const bx = del[3 * a] + del[b], by = del[3 * a + 1] + del[b + 1], bz = del[3 * a + 2] + del[b + 2];
    const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2], vx = u[b], vy = u[b + 1], vz = u[b + 2];
    for (let S = common; S > 0; S = (S - 1) & common) {
      const ox = S & 1 ? sx * bx : rx, oy = S & 2 ? sy * by : ry, oz = S & 4 ? sz * bz : rz;
      const d2 = ox * ox + oy * oy + oz * oz;
      if (d2 >= h2) continue;
      const d = Math.sqrt(d2);
      if (d === 0) continue;
      const f = cubicSplineSlope(d / h) / h / d;
      const dot = 0 + (ux - (S & 1 ? -vx : vx)) * ox + (uy - (S & 2 ? -vy : vy)) * oy + (uz - (S & 4 ? -vz : vz)) * oz;
      c0 += f * dot;
    }
  }
  ghostSum[0] = c0;
}

/**
 * The ghosts' share of the particle-scale filter's (L u)_a (pressure-filter.ts) before its 1/n0:
 * Σ_ghosts c w_ag (u_ghost − u_a). A ghost moves as its source, mirrored (the wall is impermeable, as
 * the pressure's ghosts read it): a's own images with c_a, (u_a mirrored − u_a) = −2 u_a on the
 * mirrored axes; a neighbour's with c_ab and the pair's mass weight. The pair's images are the same
 * distance from a and b, so L stays symmetric and negative semi-definite (each pair's block is
 * w [[−I, M], [M, −I]], M the mirror).
 *
 * The filter's ghost terms of slot a's own images and of its row's upper part
 * (from entry q0: mid[a], or where a full row's entries pass a; the terms: c_ab w (u_ghost − u_a), a ghost moving as its source
 * mirrored), each pair's images weighed once: a's own terms into ghostSum[1..3], b's, c_ab w
 * (M u_a − u_b) with b's mass weight, added to out[3b…] (filterHalf's running sums, b > a; none
 * where out is null: filterRange, whose slot b gathers them). A slot's
 * sum so takes each lower pair's ghosts after that pair's liquid term, and its own images and upper
 * pairs' ghosts after its liquid terms, as filterRange adds them (ghostFilterBelow).
 */
export function ghostFilterUpper(v: SolveView, a: number, q0: number, u: Float64Array, c: Float64Array, out: Float64Array | null): void {
  // (filterHalf, from mid[a]: a table is handed to one thread alone.)
  if (v.gt && out !== null) return ghostFilterTable(v, v.gt, a, u, c, out);
  const x = v.x, ls = v.ls, lj = v.lj, mask = v.wmask, del = v.wdel, invMass = v.invMass, uniform = v.uniform;
  const h = v.h, h2 = h * h, invH = 1 / h;
  const wa = mask[a], ma = wa & AXES;
  const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1;
  const dax = del[3 * a], day = del[3 * a + 1], daz = del[3 * a + 2];
  const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2], ca = c[a];
  let c1 = 0, c2 = 0, c3 = 0;
  if (ca !== 0) {
    for (let S = ma; S > 0; S = (S - 1) & ma) {
      const ox = S & 1 ? 2 * dax : 0, oy = S & 2 ? 2 * day : 0, oz = S & 4 ? 2 * daz : 0;
      const d2 = 0 + ox * ox + oy * oy + oz * oz;
      if (d2 >= h2) continue;
      const f = -2 * ca * cubicSpline(Math.sqrt(d2) * invH);
      if (S & 1) c1 += f * ux;
      if (S & 2) c2 += f * uy;
      if (S & 4) c3 += f * uz;
    }
  }
  const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
  for (let q = q0, q1 = ls[a + 1]; q < q1; q++) {
    const j = lj[q];
    const wb = mask[j];
    const common = ma & wb & ~((wa ^ wb) >> 3);
    if (common === 0) continue;
    const cab = 0.5 * (ca + c[j]);
    if (cab === 0) continue;
    const b = 3 * j;
    const rx = xa - x[b], ry = ya - x[b + 1], rz = za - x[b + 2];
    const bx = dax + del[b], by = day + del[b + 1], bz = daz + del[b + 2];
    const vx = u[b], vy = u[b + 1], vz = u[b + 2];
    const ia = uniform ? 1 : invMass[a], ib = uniform ? 1 : invMass[j];
    const wab = uniform ? cab : (cab * 2 * ia) / (ia + ib), wba = uniform ? cab : (cab * 2 * ib) / (ib + ia);
    for (let S = common; S > 0; S = (S - 1) & common) {
      const ox = S & 1 ? sx * bx : rx, oy = S & 2 ? sy * by : ry, oz = S & 4 ? sz * bz : rz;
      const d2 = ox * ox + oy * oy + oz * oz;
      if (d2 >= h2) continue;
      const w = cubicSpline(Math.sqrt(d2) * invH), f = wab * w, fb = wba * w;
      c1 += f * ((S & 1 ? -vx : vx) - ux); c2 += f * ((S & 2 ? -vy : vy) - uy); c3 += f * ((S & 4 ? -vz : vz) - uz);
      if (out !== null) {
        out[b] += fb * ((S & 1 ? -ux : ux) - vx); out[b + 1] += fb * ((S & 2 ? -uy : uy) - vy); out[b + 2] += fb * ((S & 4 ? -uz : uz) - vz);
      }
    }
  }
  ghostSum[1] = c1; ghostSum[2] = c2; ghostSum[3] = c3;
}

/**
 * Slot a's filter ghost terms from its lower neighbour j, added one by one to ghostSum[1..3] (the
 * caller's running sum): filterRange's lower entries, in the order ghostFilterUpper adds them.
 */
export function ghostFilterBelow(v: SolveView, a: number, j: number, u: Float64Array, c: Float64Array): void {
  const x = v.x, mask = v.wmask, del = v.wdel, invMass = v.invMass, uniform = v.uniform;
  const h = v.h, h2 = h * h, invH = 1 / h;
  const wa = mask[a], wb = mask[j], common = wa & AXES & wb & ~((wa ^ wb) >> 3);
  const cab = 0.5 * (c[a] + c[j]);
  if (common === 0 || cab === 0) return;
  let c1 = ghostSum[1], c2 = ghostSum[2], c3 = ghostSum[3];
  const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1, b = 3 * j;
  const rx = x[3 * a] - x[b], ry = x[3 * a + 1] - x[b + 1], rz = x[3 * a + 2] - x[b + 2];
  const bx = del[3 * a] + del[b], by = del[3 * a + 1] + del[b + 1], bz = del[3 * a + 2] + del[b + 2];
  const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2], vx = u[b], vy = u[b + 1], vz = u[b + 2];
  const wab = uniform ? cab : (cab * 2 * invMass[a]) / (invMass[a] + invMass[j]);
  for (let S = common; S > 0; S = (S - 1) & common) {
    const ox = S & 1 ? sx * bx : rx, oy = S & 2 ? sy * by : ry, oz = S & 4 ? sz * bz : rz;
    const d2 = ox * ox + oy * oy + oz * oz;
    if (d2 >= h2) continue;
    const f = wab * cubicSpline(Math.sqrt(d2) * invH);
    c1 += f * ((S & 1 ? -vx : vx) - ux); c2 += f * ((S & 2 ? -vy : vy) - uy); c3 += f * ((S & 4 ? -vz : vz) - uz);
  }
  ghostSum[1] = c1; ghostSum[2] = c2; ghostSum[3] = c3;
}
