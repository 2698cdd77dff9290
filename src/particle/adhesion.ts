/**
 * Stage "adhesion" (Steele §3.1): the adhesion-matrix accelerations between liquid particles and
 * between liquid and object particles, computed once per sub-timestep. The same pair loop sums the
 * viscosity weights Σk each particle needs (§3.2) and records the short-range contact lists that
 * the moves use for inter-penetration prevention (§3.4), so the long-range pairs are visited once;
 * it also records every pair within reach (plus a round-off margin) in ctx.cells.pairs (neighbours.ts) for the viscosity pass.
 * Neighbour cells whose particles' bounding box is out of reach are skipped (exact: see CellPairs.box).
 *
 * Momentum: a pair (i, j) at distance d with matrix acceleration A (positive repels) exchanges the
 * impulse A · m̄ · dt along the line between them, m̄ = 2 mᵢ mⱼ / (mᵢ + mⱼ) (= m for equal masses);
 * i gets −A m̄/mᵢ, j gets +A m̄/mⱼ, so Σ m a = 0 to round-off. Object particles are immovable:
 * the liquid particle receives A in full.
 */
import { CONTACT_REACH, type StepContext } from './context.ts';


export function computeAdhesion(ctx: StepContext): void {
  const L = ctx.liquid, n = L.count;
  const pos = L.pos, acc = L.acc, sumK = L.scalar, mat = L.material;
  const M = ctx.adhesion, msize = M.size, supp = M.support, mass = ctx.mass, ks = ctx.kernelSupport;
  const mxs = M.xs, mys = M.ys, moff = M.offset, mcnt = M.count;
  const r = ctx.r, invR = 1 / r;
  const reach2 = ctx.reach * ctx.reach;
  // ctx.cells.pairs reaches a round-off margin further, so it holds every pair the viscosity kernel
  // can weigh: fl(d² · fl(1/h²)) < 1 with h ≤ reach implies d² < reach² (1 + 4·2⁻⁵³) (viscosity.ts).
  const pairReach2 = reach2 * (1 + 1e-12);
  // Per material pair: squared support (m²), the impulse shares m̄/mᵢ, m̄/mⱼ, and 1/h² of the
  // viscosity kernel (h the mean of the two supports), so the pair loop does no per-pair set-up.
  const nm2 = msize * msize;
  const supp2 = new Float64Array(nm2), shareI = new Float64Array(nm2), shareJ = new Float64Array(nm2), invH2 = new Float64Array(nm2);
  for (let a = 0; a < msize; a++) {
    for (let b = 0; b < msize; b++) {
      const e = a * msize + b;
      supp2[e] = M.count[e] > 0 ? (supp[e] * r) ** 2 : 0;
      const ma = mass[a], mb = mass[b];
      const mbar = ma + mb > 0 ? (2 * ma * mb) / (ma + mb) : 0;
      shareI[e] = ma > 0 ? mbar / ma : 0;
      shareJ[e] = mb > 0 ? mbar / mb : 0;
      const h = a === b ? ks[a] : 0.5 * (ks[a] + ks[b]);
      invH2[e] = 1 / (h * h);
    }
  }
  const contactReach2 = (CONTACT_REACH * r) ** 2;
  acc.fill(0, 0, 3 * n);
  sumK.fill(0, 0, n);
  const g = ctx.cells.grid, start = g.start, cnt = g.count, first = ctx.cells.first, cells = ctx.cells.cells;
  ctx.cells.updateBoxes(pos);
  const box = ctx.cells.box;
  const contacts = ctx.contacts;
  contacts.reset(n);
  const cstart = contacts.start;
  let cj = contacts.j, clen = 0;
  const pairs = ctx.cells.pairs;
  pairs.reset(n);
  const pstart = pairs.start;
  let pj = pairs.j, plen = 0;

  for (let c = 0; c < g.cellCount; c++) {
    const i0 = start[c], i1 = i0 + cnt[c];
    const q0 = first[c], q1 = first[c + 1];
    for (let i = i0; i < i1; i++) {
      cstart[i] = clen;
      pstart[i] = plen;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const row = mat[i] * msize;
      let ax = 0, ay = 0, az = 0, si = 0;
      for (let q = q0; q < q1; q++) {
        const c2 = cells[q];
        if (c2 !== c) {
          // Skip a cell whose particles' bounding box is out of reach (neighbours.ts, CellPairs.box).
          const b = 6 * c2;
          let ex = box[b] - xi, ey = box[b + 1] - yi, ez = box[b + 2] - zi;
          if (ex < 0) { ex = xi - box[b + 3]; if (ex < 0) ex = 0; }
          if (ey < 0) { ey = yi - box[b + 4]; if (ey < 0) ey = 0; }
          if (ez < 0) { ez = zi - box[b + 5]; if (ez < 0) ez = 0; }
          if (ex * ex + ey * ey + ez * ez >= pairReach2) continue;
        }
        const j1 = start[c2] + cnt[c2];
        for (let j = c2 === c ? i + 1 : start[c2]; j < j1; j++) {
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 >= pairReach2) continue;
          if (plen === pj.length) {
            pairs.length = plen;
            pairs.push(j);
            pj = pairs.j;
            plen = pairs.length;
          } else pj[plen++] = j;
          if (d2 >= reach2) continue;
          if (d2 < contactReach2) {
            if (clen === cj.length) {
              contacts.length = clen;
              contacts.push(j);
              cj = contacts.j;
              clen = contacts.length;
            } else cj[clen++] = j;
          }
          const e = row + mat[j];
          // gaussLike2(d2, 1/h²), inlined (math/kernels.ts).
          const q2 = d2 * invH2[e];
          if (q2 < 1) {
            const s = 1 - q2;
            const k = s * s * s;
            si += k;
            sumK[j] += k;
          }
          if (d2 >= supp2[e] || d2 === 0) continue;
          const d = Math.sqrt(d2);
          // M.at(mi, mj, d / r), inlined (adhesion-matrix.ts): the count is > 0 (supp2 > 0).
          const dr = d * invR, o = moff[e];
          let A: number;
          if (dr <= mxs[o]) A = mys[o];
          else if (dr > mxs[o + mcnt[e] - 1]) A = 0;
          else {
            let b = o + 1;
            while (mxs[b] < dr) b++;
            const t = (dr - mxs[b - 1]) / (mxs[b] - mxs[b - 1]);
            A = mys[b - 1] + t * (mys[b] - mys[b - 1]);
          }
          if (A === 0) continue;
          const fi = (A * shareI[e]) / d, fj = (A * shareJ[e]) / d;
          ax -= fi * dx; ay -= fi * dy; az -= fi * dz;
          acc[3 * j] += fj * dx; acc[3 * j + 1] += fj * dy; acc[3 * j + 2] += fj * dz;
        }
      }
      acc[3 * i] += ax; acc[3 * i + 1] += ay; acc[3 * i + 2] += az;
      sumK[i] += si;
    }
  }
  contacts.length = clen;
  pairs.length = plen;
  pstart[n] = plen;
  contacts.start[n] = contacts.length;
  objectAdhesion(ctx);
}

/** Liquid ← object adhesion (object particles are immovable: the liquid particle takes A in full). */
function objectAdhesion(ctx: StepContext): void {
  const L = ctx.liquid, O = ctx.objects;
  if (O.count === 0) return;
  const pos = L.pos, acc = L.acc, mat = L.material, opos = ctx.objectSlotPos, omat = ctx.objectSlotMat;
  const M = ctx.adhesion, msize = M.size;
  const invR = 1 / ctx.r;
  const objReach = ctx.objectReach, objReach2 = objReach * objReach;
  const supp2 = supportSquared(ctx);
  const g = ctx.cells.grid, start = g.start, cnt = g.count, box = ctx.cells.box;
  const og = ctx.objectCells.grid, ostart = og.start, ocnt = og.count, obox = ctx.objectCells.box;
  const nearObject = L.nearObject;
  for (let c = 0; c < g.cellCount; c++) {
    const i0 = start[c], i1 = i0 + cnt[c];
    // Only particles flagged near a body (markNearObjects covers the adhesion support) can feel one.
    let any = false;
    for (let i = i0; i < i1 && !any; i++) any = nearObject[i] === 1;
    if (!any) continue;
    const b = 6 * c;
    const m = ctx.objectCellsNear(box[b], box[b + 1], box[b + 2], box[b + 3], box[b + 4], box[b + 5], objReach);
    const near = ctx.nearObjectCells;
    if (m === 0) continue;
    for (let i = i0; i < i1; i++) {
      if (!nearObject[i]) continue;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const row = mat[i] * msize;
      let ax = 0, ay = 0, az = 0;
      for (let q = 0; q < m; q++) {
        const oc = near[q];
        // Skip an object cell whose particle box is out of reach of this particle.
        const ob = 6 * oc;
        let ex = obox[ob] - xi, ey = obox[ob + 1] - yi, ez = obox[ob + 2] - zi;
        if (ex < 0) { ex = xi - obox[ob + 3]; if (ex < 0) ex = 0; }
        if (ey < 0) { ey = yi - obox[ob + 4]; if (ey < 0) ey = 0; }
        if (ez < 0) { ez = zi - obox[ob + 5]; if (ez < 0) ez = 0; }
        if (ex * ex + ey * ey + ez * ez >= objReach2) continue;
        for (let s = ostart[oc], s1 = s + ocnt[oc]; s < s1; s++) {
          const dx = opos[3 * s] - xi, dy = opos[3 * s + 1] - yi, dz = opos[3 * s + 2] - zi;
          const d2 = dx * dx + dy * dy + dz * dz;
          const e = row + omat[s];
          if (d2 >= supp2[e] || d2 === 0) continue;
          const d = Math.sqrt(d2);
          const A = M.at(mat[i], omat[s], d * invR);
          if (A === 0) continue;
          const f = A / d;
          ax -= f * dx; ay -= f * dy; az -= f * dz;
        }
      }
      acc[3 * i] += ax; acc[3 * i + 1] += ay; acc[3 * i + 2] += az;
    }
  }
}

let supp2Scratch = new Float64Array(0);

/** Per material pair: the squared adhesion support, m² (0 where there is no force). */
function supportSquared(ctx: StepContext): Float64Array {
  const M = ctx.adhesion, nm2 = M.size * M.size;
  if (supp2Scratch.length < nm2) supp2Scratch = new Float64Array(nm2);
  for (let e = 0; e < nm2; e++) supp2Scratch[e] = M.count[e] > 0 ? (M.support[e] * ctx.r) ** 2 : 0;
  return supp2Scratch;
}
