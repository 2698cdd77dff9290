/**
 * Stage "adhesion" (Steele §3.1): the adhesion-matrix accelerations between liquid particles and
 * between liquid and object particles, computed once per sub-timestep. The same pair loop sums the
 * viscosity weights Σk each particle needs (§3.2) and records the short-range contact lists that
 * the moves use for inter-penetration prevention (§3.4), so the pairs are visited once; it also
 * records every pair within ctx.reach (plus a round-off margin) in ctx.cells.pairs (neighbours.ts)
 * for the surface test and the viscosity pass. Neighbour cells whose particles' bounding box is out
 * of reach are skipped (exact: see CellPairs.box). The liquid cells are ctx.reach wide (the
 * liquid–liquid supports); liquid ← object adhesion (object-adhesion.ts) looks up the object cells
 * within ctx.objectReach of each liquid cell, for the particles flagged near a body only.
 *
 * Momentum: a pair (i, j) at distance d with matrix acceleration A (positive repels) exchanges the
 * impulse A · m̄ · dt along the line between them, m̄ = 2 mᵢ mⱼ / (mᵢ + mⱼ) (= m for equal masses);
 * i gets −A m̄/mᵢ, j gets +A m̄/mⱼ, so Σ m a = 0 to round-off. Object particles are immovable:
 * the liquid particle receives A in full.
 *
 * Cohesion's share (densitySolver "pbf", particle.cohesionShare): a liquid pair takes A times
 * w_ij = max(e_i, e_j), e the particle's exposure from its density deficit 1 − ρ̂ (ρ̂ its density
 * over the rest density after the last density correction, LiquidParticles.density: the cubic
 * spline with the walls' mirror images and the bodies' boundary volumes, pbf.ts) against δ_face =
 * 0.150, the deficit of a flat face's outer row on the rest lattice (math/kernels.ts
 * latticeFaceDeficit): "band" e = clamp(2 (1 − ρ̂)/δ_face − 1, 0, 1), none until a particle is half
 * as exposed as that row, so that the bulk's deficits of a percent or two (PBF leaves ρ̂ ≤ 1 where
 * nothing presses) take none; "linear" e = clamp((1 − ρ̂)/δ_face, 0, 1); "every-pair" the paper's
 * form (adhesion-tables.ts cohesionShare). A pair with a particle at least as exposed
 * as a free surface's outer row takes the matrix's force in full; two particles the liquid
 * surrounds (a still pool's bulk, a row along a closed wall) take none. In the bulk a cohesive pair
 * force only adds a uniform tension that an incompressible pressure takes up (the van der Waals
 * picture: cohesion shows only where the surface leaves it unbalanced, which is what surface
 * tension models such as Akinci et al. 2013 weight up with 2ρ0/(ρ_i + ρ_j)); what it does leave is
 * a particle-scale stiffness: on a lattice the Lennard-Jones shape's attractive tail (2.5–4 radii,
 * where the attraction falls with distance) softens the diagonal pairs, and the shear the density
 * solve does not see goes unstable. A 10 × 20 cm water pool at 4 mm grew particle-scale motion from
 * 0.4 to 3 mm/s over 1–2 s and rearranged at 2.7 s (RMS 0.011 √(g h) over 1–4 s; 0.0010 with the
 * share, as with no cohesion at all: docs/decisions.md "Cohesion in the bulk"). A fresh run's
 * particles read ρ̂ = 1 until their first density correction, so the first sub-timestep has no
 * liquid cohesion. "steele" (its own ramp density) keeps the paper's form: every pair in full.
 * w_ij is symmetric, so momentum is kept as before.
 *
 * The liquid pairs are one job over runs of cells: both ends of a pair are summed (the other end
 * may belong to another thread's run), so each thread sums into arrays of its own, added up after
 * (src/parallel/run-job.ts); the lists come out as on one thread. The loop's form, and the forms
 * measured against it: docs/decisions.md, "Adhesion".
 */
import type { StepContext } from './context.ts';
import { defineJob, type JobArrays, type ListSink } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { gaussLikeTimes } from '../math/kernels.ts';
import { boxDistance2 } from './neighbours.ts';
import { adhesionTables } from './adhesion-tables.ts';
import { objectAdhesion } from './object-adhesion.ts';
import { teamWork } from './work.ts';
import { solveState } from './solve-setup.ts';
import type { SlotRows } from './slot-rows.ts';

/**
 * Adhesion accelerations (L.acc), Σk (L.scalar), ctx.cells.pairs and ctx.contacts for the sorted
 * liquid, then liquid ← object adhesion.
 */
export function computeAdhesion(ctx: StepContext): void {
  const L = ctx.liquid, n = L.count, c = ctx.cells, g = c.grid;
  const job = ctx.runner.bind(adhesionJob), a = job.a, s = job.s;
  // The stage buffer (nothing else holds it at this stage's call): on a team the other threads'
  // sums, at the liquid's capacity so that their views stay the same from one call to the next;
  // after them the cells' boxes (6 f64 a cell), which the pair loop and object adhesion alone read
  // (CellPairs.box: let go at the end of the stage).
  const T = job.threads(n), m = Math.max(n, L.capacity), nc = g.cellCount;
  const mem = ctx.stageScratch((T > 1 ? 8 * (T - 1) * 4 * m : 0) + 48 * nc + 64, ctx.shared);
  if (T > 1) {
    job.sumBlocks.acc = mem.f64((T - 1) * 3 * m);
    job.sumBlocks.sumK = mem.f64((T - 1) * m);
  }
  c.box = mem.f64(6 * nc);
  c.updateBoxes(L.pos);
  const pairs = c.pairs, contacts = ctx.contacts;
  pairs.reset(n);
  contacts.reset(n);
  const tables = adhesionTables(ctx);
  a.acc = L.acc; a.sumK = L.scalar; a.pos = L.pos; a.mat = L.material; a.dens = L.density;
  a.start = g.start; a.count = g.count; a.first = c.first; a.cells = c.cells; a.box = c.box; a.tf = tables.f64; a.ti = tables.i32;
  s.cohesion = tables.cohesion; s.cohesionOffset = tables.cohesionOffset; s.size = tables.size; s.invR = tables.invR; s.reach2 = tables.reach2; s.pairReach2 = tables.pairReach2;
  s.contactReach2 = tables.contactReach2; s.uniform = tables.uniform;
  job.lists.pairs = pairs;
  job.lists.contacts = contacts;
  // Inline (one thread), the pressure stage's rows too: each pair within the density kernel's h, from
  // the distance pass 2 takes (solve-setup.ts prepareSolve keeps them where it lists upper parts alone).
  const rows = T === 1 && ctx.scene.particle.densitySolver === 'pbf' ? solveState(ctx).pairs : null;
  if (rows) {
    rows.shared = ctx.shared;
    rows.reset(n);
  }
  job.scratch.rows = rows;
  job.scratch.rowsH2 = ctx.densityH * ctx.densityH;
  runJob(job, n, g.cellCount);
  pairs.start[n] = pairs.length;
  contacts.start[n] = contacts.length;
  if (rows) {
    rows.start[n] = rows.length;
    rows.filled = rows.version;
  }
  ctx.adhesionPairsCurrent = true;
  // A free body takes back the adhesion it gives the liquid (free-bodies.ts).
  ctx.freeBodies?.capture(ctx, true);
  objectAdhesion(ctx, tables);
  ctx.freeBodies?.releaseAcc(ctx);
  c.box = NO_BOX;
}

/** CellPairs.box between the stage's calls (no view of the stage buffer). */
const NO_BOX = new Float64Array(0);

/** The liquid pair loop over a run of cells (liquidPairRange). */
export const adhesionJob = defineJob({
  name: 'adhesion',
  arrays: { acc: 'f64', sumK: 'f64' },
  inputs: { pos: 'f64', mat: 'u16', dens: 'f32', start: 'i32', count: 'i32', first: 'i32', cells: 'i32', box: 'f64', tf: 'f64', ti: 'i32' },
  scalars: ['cohesion', 'cohesionOffset', 'size', 'invR', 'reach2', 'pairReach2', 'contactReach2', 'uniform'],
  split: 'cells',
  cellCounts: 'count',
  sums: { acc: 3, sumK: 1 },
  lists: { pairs: 'index', contacts: 'index' },
  minItems: () => teamWork.minParticles,
  scratch: (): PairScratch => ({ within: new Int32Array(512), rows: null, rowsH2: 0 }),
  kernel(x) {
    liquidPairRange(x.a, x.s, x.from, x.to, x.lists.pairs, x.lists.contacts, x.scratch);
  },
});

export type AdhesionScalars = Record<(typeof adhesionJob.scalars)[number], number>;

/** liquidPairRange's scratch: `within`, and where the calling thread lists them alone (computeAdhesion), the pressure rows and h². */
interface PairScratch {
  within: Int32Array;
  rows: SlotRows | null;
  rowsH2: number;
}

/**
 * The liquid pair loop over cells [c0, c1) of the sorted liquid: adhesion accelerations into
 * `acc` and kernel sums Σk into `sumK` (both ends of every pair i < j; zeroed by the caller), and
 * the pair and contact lists of the range's particles, appended to `pairs` and `contacts`
 * (start[i] is the list's length when i begins).
 *
 * A candidate pair costs a distance and a test whose outcome, in a disordered liquid, is a coin
 * toss (honey drop: 101 candidates, 34 within ctx.reach, 17 within the adhesion support per
 * particle), so each particle i takes three passes that gather without branching: (1) the
 * candidates j within the pair list's reach, appended to the pair list in cell order; (2) over
 * those, the contact list, Σk, and the j within adhesion support, into a scratch list; (3) over
 * those, the forces. Room for a particle's pairs is made once per particle. With one liquid-pair
 * entry for every pair (AdhesionTables.uniform) passes 2 and 3 hold its numbers in locals and read
 * no material (measured: docs/decisions.md, "Adhesion").
 */
export function liquidPairRange(
  a: JobArrays<typeof adhesionJob>, s: AdhesionScalars, c0: number, c1: number, pairs: ListSink<Int32Array | Uint16Array>, contacts: ListSink<Int32Array | Uint16Array>,
  scratch: PairScratch,
): void {
  const { acc, sumK, pos, mat, dens, start, count: cnt, first, cells, box, tf: f, ti } = a;
  const cohesion = s.cohesion, cOff = s.cohesionOffset, msize = s.size, nm2 = msize * msize, invR = s.invR, eU = s.uniform, uniform = eU >= 0;
  const reach2 = s.reach2, pairReach2 = s.pairReach2, contactReach2 = s.contactReach2;
  const shareOff = nm2, shareJOff = 2 * nm2, invHOff = 3 * nm2, xsOff = 4 * nm2, ysOff = 4 * nm2 + (f.length - 4 * nm2) / 2;
  // The shared entry's numbers, in locals (read instead of the tables when `uniform`).
  const eS = uniform ? eU : 0, supp2U = f[eS], invH2U = f[invHOff + eS], shareIU = f[shareOff + eS], shareJU = f[shareJOff + eS];
  const oU = ti[eS], nbU = ti[nm2 + eS], xFirstU = f[xsOff + oU], yFirstU = f[ysOff + oU], xLastU = f[xsOff + oU + nbU - 1];
  const cstart = contacts.start, pstart = pairs.start;
  let cj = contacts.j, clen = contacts.length;
  let pj = pairs.j, plen = pairs.length, w = scratch.within;
  // The pressure rows (the upper parts within h: solve-pair-rows.ts upperRowsFromPairs's rows, entry for entry), where asked.
  const rows = scratch.rows, rh2 = scratch.rowsH2;
  let rj = rows ? rows.j : NO_ROWS, rlen = rows ? rows.length : 0;
  for (let c = c0; c < c1; c++) {
    const i0 = start[c], i1 = i0 + cnt[c];
    const q0 = first[c], q1 = first[c + 1];
    // At most this many pairs per particle of the cell.
    let room = 0;
    for (let q = q0; q < q1; q++) room += cnt[cells[q]];
    if (w.length < room) scratch.within = w = new Int32Array(Math.ceil(room * 1.5));
    for (let i = i0; i < i1; i++) {
      if (plen + room > pj.length) {
        pairs.length = plen;
        pairs.reserve(plen + room);
        pj = pairs.j;
      }
      if (clen + room > cj.length) {
        contacts.length = clen;
        contacts.reserve(clen + room);
        cj = contacts.j;
      }
      cstart[i] = clen;
      const p0 = plen;
      pstart[i] = p0;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], row = mat[i] * msize;
      const ei = cohesion > 0 ? Math.min(1, Math.max(0, (1 - dens[i]) * cohesion - cOff)) : 1;
      // 1: the pairs within reach (pairReach2), in cell order.
      for (let q = q0; q < q1; q++) {
        const c2 = cells[q];
        if (c2 !== c) {
          // Skip a cell whose particles' bounding box is out of reach (neighbours.ts, CellPairs.box).
          if (boxDistance2(box, 6 * c2, xi, yi, zi) >= pairReach2) continue;
        }
        const j1 = start[c2] + cnt[c2];
        for (let j = c2 === c ? i + 1 : start[c2]; j < j1; j++) {
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          pj[plen] = j;
          plen += +!(dx * dx + dy * dy + dz * dz >= pairReach2);
        }
      }
      if (rows) {
        if (rlen + (plen - p0) > rj.length) {
          rows.length = rlen;
          rows.reserve(rlen + (plen - p0));
          rj = rows.j;
        }
        rows.start[i] = rlen;
      }
      // 2: contacts, Σk, and the pairs within adhesion support (at w[0 .. t)); 3: adhesion,
      // A = M.at(mi, mj, d / r) (adhesion-matrix.ts). Where one entry serves every liquid pair its
      // numbers are locals (V8 reloads a table read after each store into acc or sumK, which
      // might share its memory): the same arithmetic on the same numbers, per pair entry below.
      let si = 0, t = 0, ax = 0, ay = 0, az = 0;
      if (uniform) {
        for (let p = p0; p < plen; p++) {
          const j = pj[p];
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 >= reach2) continue;
          if (rows) {
            rj[rlen] = j;
            rlen += +(d2 < rh2);
          }
          cj[clen] = j;
          clen += +(d2 < contactReach2);
          const q2 = d2 * invH2U;
          if (q2 < 1) {
            const k = gaussLikeTimes(1, q2);
            si += k;
            sumK[j] += k;
          }
          w[t] = j;
          t += +!(d2 >= supp2U) & +(d2 !== 0);
        }
        sumK[i] += si;
        for (let p = 0; p < t; p++) {
          const j = w[p];
          // Cohesion's share first: in a liquid's bulk most pairs take none (no force, as A = 0 gives none).
          const wc = cohesion > 0 ? Math.max(ei, Math.min(1, Math.max(0, (1 - dens[j]) * cohesion - cOff))) : 1;
          if (wc === 0) continue;
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
          const dr = d * invR;
          let A: number;
          if (dr <= xFirstU) A = yFirstU;
          else if (dr > xLastU) A = 0;
          else {
            // The first breakpoint b > o with xs[b] ≥ dr (xs increase; xs[o + nb − 1] ≥ dr), counted.
            let b = oU + 1;
            for (let k = oU + 1; k < oU + nbU - 1; k++) b += +(f[xsOff + k] < dr);
            const x0 = f[xsOff + b - 1], y0 = f[ysOff + b - 1];
            const tt = (dr - x0) / (f[xsOff + b] - x0);
            A = y0 + tt * (f[ysOff + b] - y0);
          }
          if (A === 0) continue;
          // Equal masses: the same share at both ends, one division.
          const fi = (A * wc * shareIU) / d, fj = shareIU === shareJU ? fi : (A * wc * shareJU) / d;
          ax -= fi * dx; ay -= fi * dy; az -= fi * dz;
          acc[3 * j] += fj * dx; acc[3 * j + 1] += fj * dy; acc[3 * j + 2] += fj * dz;
        }
      } else {
        for (let p = p0; p < plen; p++) {
          const j = pj[p];
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 >= reach2) continue;
          if (rows) {
            rj[rlen] = j;
            rlen += +(d2 < rh2);
          }
          cj[clen] = j;
          clen += +(d2 < contactReach2);
          const e = row + mat[j];
          const q2 = d2 * f[invHOff + e];
          if (q2 < 1) {
            const k = gaussLikeTimes(1, q2);
            si += k;
            sumK[j] += k;
          }
          w[t] = j;
          t += +!(d2 >= f[e]) & +(d2 !== 0);
        }
        sumK[i] += si;
        for (let p = 0; p < t; p++) {
          const j = w[p];
          const wc = cohesion > 0 ? Math.max(ei, Math.min(1, Math.max(0, (1 - dens[j]) * cohesion - cOff))) : 1;
          if (wc === 0) continue;
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
          const e = row + mat[j], dr = d * invR, o = ti[e], nb = ti[nm2 + e];
          let A: number;
          if (dr <= f[xsOff + o]) A = f[ysOff + o];
          else if (dr > f[xsOff + o + nb - 1]) A = 0;
          else {
            let b = o + 1;
            for (let k = o + 1; k < o + nb - 1; k++) b += +(f[xsOff + k] < dr);
            const x0 = f[xsOff + b - 1], y0 = f[ysOff + b - 1];
            const tt = (dr - x0) / (f[xsOff + b] - x0);
            A = y0 + tt * (f[ysOff + b] - y0);
          }
          if (A === 0) continue;
          const shI = f[shareOff + e], shJ = f[shareJOff + e];
          const fi = (A * wc * shI) / d, fj = shI === shJ ? fi : (A * wc * shJ) / d;
          ax -= fi * dx; ay -= fi * dy; az -= fi * dz;
          acc[3 * j] += fj * dx; acc[3 * j + 1] += fj * dy; acc[3 * j + 2] += fj * dz;
        }
      }
      acc[3 * i] += ax; acc[3 * i + 1] += ay; acc[3 * i + 2] += az;
    }
  }
  contacts.length = clen;
  pairs.length = plen;
  if (rows) rows.length = rlen;
}

const NO_ROWS = new Int32Array(0);
