/**
 * Stage "adhesion" (Steele §3.1): the adhesion-matrix accelerations between liquid particles and
 * between liquid and object particles, computed once per sub-timestep. The same pair loop sums the
 * viscosity weights Σk each particle needs (§3.2) and records the short-range contact lists that
 * the moves use for inter-penetration prevention (§3.4), so the long-range pairs are visited once.
 *
 * Momentum: a pair (i, j) at distance d with matrix acceleration A (positive repels) exchanges the
 * impulse A · m̄ · dt along the line between them, m̄ = 2 mᵢ mⱼ / (mᵢ + mⱼ) (= m for equal masses);
 * i gets −A m̄/mᵢ, j gets +A m̄/mⱼ, so Σ m a = 0 to round-off. Object particles are immovable:
 * the liquid particle receives A in full.
 */
import { gaussLike2 } from '../math/kernels.ts';
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
  const r = ctx.r, invR = 1 / r;
  const reach2 = ctx.reach * ctx.reach;
  // Per material pair: squared support (m²) and the impulse shares m̄/mᵢ, m̄/mⱼ.
  const supp2 = new Float64Array(msize * msize), shareI = new Float64Array(msize * msize), shareJ = new Float64Array(msize * msize);
  for (let a = 0; a < msize; a++) {
    for (let b = 0; b < msize; b++) {
      const e = a * msize + b;
      supp2[e] = M.count[e] > 0 ? (supp[e] * r) ** 2 : 0;
      const ma = mass[a], mb = mass[b];
      const mbar = ma + mb > 0 ? (2 * ma * mb) / (ma + mb) : 0;
      shareI[e] = ma > 0 ? mbar / ma : 0;
      shareJ[e] = mb > 0 ? mbar / mb : 0;
    }
  }
  const contactReach2 = (CONTACT_REACH * r) ** 2;
  acc.fill(0, 0, 3 * n);
  sumK.fill(0, 0, n);
  const g = ctx.cells.grid, start = g.start, cnt = g.count, first = ctx.cells.first, cells = ctx.cells.cells;
  const contacts = ctx.contacts;
  contacts.reset(n);

  for (let c = 0; c < g.cellCount; c++) {
    const i0 = start[c], i1 = i0 + cnt[c];
    for (let i = i0; i < i1; i++) {
      contacts.start[i] = contacts.length;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const mi = mat[i], hi = ks[mi];
      let ax = 0, ay = 0, az = 0, si = 0;
      for (let q = first[c]; q < first[c + 1]; q++) {
        const c2 = cells[q];
        const j1 = start[c2] + cnt[c2];
        for (let j = c2 === c ? i + 1 : start[c2]; j < j1; j++) {
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 >= reach2) continue;
          if (d2 < contactReach2) contacts.push(j);
          const mj = mat[j];
          const e = mi * msize + mj;
          const h = mj === mi ? hi : 0.5 * (hi + ks[mj]);
          const k = gaussLike2(d2, 1 / (h * h));
          si += k;
          sumK[j] += k;
          if (d2 >= supp2[e] || d2 === 0) continue;
          const d = Math.sqrt(d2);
          const A = M.at(mi, mj, d * invR);
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
  contacts.start[n] = contacts.length;
  objectAdhesion(ctx, travel);
}

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
          list.push(o);
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
