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

const objectCellScratch = new Int32Array(125);

/**
 * `travel`: how far (m) a liquid particle may move relative to an object in this sub-timestep;
 * the liquid → object contact lists reach that much further than contact, so the moves see every
 * object particle they can meet (without it a fast drop at fine resolution meets object particles
 * its list does not hold, and only the signed-distance guard stops it).
 */
export function computeAdhesion(ctx: StepContext, travel = 0): void {
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
  objectAdhesion(ctx, travel);
}

/** Object particles within this many (r + r_o) (plus travel) are listed for contacts and friction (friction.ts touches at 1.1). */
const CONTACT_LIST_TOUCH = 1.25;

/** Liquid ← object adhesion, and the liquid → object contact lists. */
let objectCellScratchBig = new Int32Array(0);

function objectAdhesion(ctx: StepContext, travel: number): void {
  const L = ctx.liquid, n = L.count, O = ctx.objects;
  const list = ctx.objectContacts;
  list.reset(n);
  if (O.count === 0) {
    list.start.fill(0, 0, n + 1);
    return;
  }
  const pos = L.pos, acc = L.acc, mat = L.material, opos = O.pos, omat = O.material;
  const M = ctx.adhesion, msize = M.size, supp = M.support;
  const invR = 1 / ctx.r;
  const objReach = Math.max(ctx.reach, ctx.r + ctx.ro + 2 * travel);
  const reach2 = objReach * objReach;
  // The contact list holds only what contacts (r + r_o) and friction (1.1 (r + r_o)) can meet in
  // this sub-timestep: twice the travel, plus one radius for density correction's displacements.
  // (Listing everything within adhesion reach made the moves and every density pass walk ~5×
  // the entries; a shorter list visits the same near entries in the same order: bit-identical.)
  const listReach = CONTACT_LIST_TOUCH * (ctx.r + ctx.ro) + 2 * travel + ctx.r;
  const list2 = listReach * listReach;
  const g = ctx.cells.grid, start = g.start, cnt = g.count;
  const og = ctx.objectCells.grid, ostart = og.start, ocnt = og.count, oorder = og.order;
  // Cells of edge ctx.reach / cells.reach; at most 3 rings of them (faster motion is subdivided).
  const R = Math.min(3, Math.ceil(objReach / og.cellSize));
  let near = objectCellScratch;
  if ((2 * R + 1) ** 3 > near.length) {
    if (objectCellScratchBig.length < (2 * R + 1) ** 3) objectCellScratchBig = new Int32Array((2 * R + 1) ** 3);
    near = objectCellScratchBig;
  }
  for (let c = 0; c < g.cellCount; c++) {
    const ci = g.cellI[c], cj = g.cellJ[c], ck = g.cellK[c];
    let m = 0;
    for (let a = -R; a <= R; a++) {
      for (let b = -R; b <= R; b++) {
        for (let e = -R; e <= R; e++) {
          const oc = og.find(ci + a, cj + b, ck + e);
          if (oc >= 0) near[m++] = oc;
        }
      }
    }
    const i0 = start[c], i1 = i0 + cnt[c];
    for (let i = i0; i < i1; i++) {
      list.start[i] = list.length;
      if (m === 0) continue;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const mi = mat[i];
      let ax = 0, ay = 0, az = 0;
      for (let q = 0; q < m; q++) {
        const oc = near[q];
        for (let s = ostart[oc], s1 = s + ocnt[oc]; s < s1; s++) {
          const o = oorder[s];
          const dx = opos[3 * o] - xi, dy = opos[3 * o + 1] - yi, dz = opos[3 * o + 2] - zi;
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 >= reach2) continue;
          if (d2 < list2) list.push(o);
          const e = mi * msize + omat[o];
          const d = Math.sqrt(d2);
          const dr = d * invR;
          if (dr >= supp[e] || d === 0) continue;
          const A = M.at(mi, omat[o], dr);
          if (A === 0) continue;
          const f = A / d;
          ax -= f * dx; ay -= f * dy; az -= f * dz;
        }
      }
      acc[3 * i] += ax; acc[3 * i + 1] += ay; acc[3 * i + 2] += az;
    }
  }
  list.start[n] = list.length;
}
