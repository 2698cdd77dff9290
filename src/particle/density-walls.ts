/**
 * Closed domain walls in density correction (density.ts): mirror images of the liquid next to them.
 * Without them a wall layer reads as free surface, its deficit is never corrected and a pool packs
 * itself down onto its floor; with only each particle's own image, the rest lattice filling a box
 * read 2.5–3 % over-dense on the walls, correction squeezed the liquid off them, and a block at
 * rest under gravity settled by 1.5 r.
 */
import type { StepContext } from './context.ts';
import { FACES } from '../scene/faces.ts';
import { faceBoundary } from './boundaries.ts';
import type { DensityState } from './density-state.ts';

/** The closed faces (axis, plane coordinate, inward sign) and, per slot, which walls are nearer than h. */
export class DensityWalls {
  count = 0;
  readonly axis = new Int32Array(6);
  readonly plane = new Float64Array(6);
  readonly inward = new Float64Array(6);
  /** Per slot (views of the stage scratch, density-state.ts): bit a set when a closed wall on axis a is nearer than h; its distance δ and inward sign. */
  mask = new Uint8Array(0);
  delta = new Float64Array(0);
  sg = new Float64Array(0);
  readonly off = new Float64Array(3);
}

/** Collects the closed faces of the domain into `w`; returns how many. */
export function collectWalls(ctx: StepContext, w: DensityWalls): number {
  const d = ctx.scene.domain;
  w.count = 0;
  if (!d || !ctx.scene.particle.walls) return 0;
  let k = 0;
  for (let f = 0; f < 6; f++) {
    if (faceBoundary(ctx, FACES[f]) === 'open') continue;
    const axis = f >> 1, upper = (f & 1) === 1;
    w.axis[k] = axis;
    w.plane[k] = upper ? d.max[axis] : d.min[axis];
    w.inward[k] = upper ? -1 : 1;
    k++;
  }
  w.count = k;
  return k;
}

/**
 * Mirror (ghost) neighbours across closed walls: the image of every liquid particle within h of a
 * wall, and across two or three walls at edges and corners, as if the liquid went on beyond the
 * wall mirrored. A lattice particle next to a wall then sees exactly its 26 lattice neighbours
 * (17 real + 9 images on a face, 11 + 15 on an edge, 7 + 19 in a corner) and reads ρ0.
 * mode 0 (measure): adds ω and counts into rhoS / cntS. mode 1 (push): s of both ends (sS) moves
 * each particle off its image along the mirrored line, as a liquid pair would. The image of b
 * across the walls in S sits, seen from a, at δa + δb along each axis of S (offset −sg (δa + δb))
 * and at the real offset elsewhere; a's own images at 2δa.
 */
export function mirrorPairs(ctx: StepContext, st: DensityState, n: number, mode: number): void {
  const h = ctx.densityH, invH = 1 / h, hIn = h * (1 - 1e-6), hIn2 = hIn * hIn;
  const ls = ctx.densityPairs.start, pj = ctx.densityPairs.j, x = st.x, w0 = st.walls, nw = w0.count;
  const mask = w0.mask, del = w0.delta, wsg = w0.sg, rho = st.rho, cnt = st.cnt, s = st.s, corr = st.corr;
  const wallAxis = w0.axis, wallPlane = w0.plane, wallInward = w0.inward, off = w0.off;
  if (mode === 0) {
    mask.fill(0, 0, n);
    for (let w = 0; w < nw; w++) {
      const ax = wallAxis[w], pl = wallPlane[w], sg = wallInward[w];
      for (let a = 0; a < n; a++) {
        const delta = (x[3 * a + ax] - pl) * sg;
        if (delta <= 0 || delta >= hIn) continue;
        // The nearer wall when both of an axis are in reach (a domain thinner than 2h).
        if (mask[a] & (1 << ax) && del[3 * a + ax] <= delta) continue;
        mask[a] |= 1 << ax;
        del[3 * a + ax] = delta;
        wsg[3 * a + ax] = sg;
      }
    }
  }
  for (let a = 0; a < n; a++) {
    const ma = mask[a];
    if (ma === 0) continue;
    for (let S = ma; S > 0; S = (S - 1) & ma) {
      let d2 = 0;
      for (let k = 0; k < 3; k++) {
        off[k] = S & (1 << k) ? -2 * wsg[3 * a + k] * del[3 * a + k] : 0;
        d2 += off[k] * off[k];
      }
      if (d2 >= hIn2) continue;
      const d = Math.sqrt(d2);
      if (mode === 0) {
        rho[a] += 1 - d * invH;
        cnt[a]++;
      } else {
        const f = (2 * s[a]) / d;
        corr[3 * a] -= f * off[0]; corr[3 * a + 1] -= f * off[1]; corr[3 * a + 2] -= f * off[2];
      }
    }
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    for (let q = ls[a]; q < ls[a + 1]; q++) {
      const b = pj[q];
      let common = ma & mask[b];
      if (common === 0) continue;
      for (let k = 0; k < 3; k++) if (common & (1 << k) && wsg[3 * a + k] !== wsg[3 * b + k]) common &= ~(1 << k);
      const rx = x[3 * b] - xa, ry = x[3 * b + 1] - ya, rz = x[3 * b + 2] - za;
      for (let S = common; S > 0; S = (S - 1) & common) {
        off[0] = S & 1 ? -wsg[3 * a] * (del[3 * a] + del[3 * b]) : rx;
        off[1] = S & 2 ? -wsg[3 * a + 1] * (del[3 * a + 1] + del[3 * b + 1]) : ry;
        off[2] = S & 4 ? -wsg[3 * a + 2] * (del[3 * a + 2] + del[3 * b + 2]) : rz;
        const d2 = off[0] * off[0] + off[1] * off[1] + off[2] * off[2];
        if (d2 >= hIn2) continue;
        const d = Math.sqrt(d2);
        if (mode === 0) {
          const w = 1 - d * invH;
          rho[a] += w; rho[b] += w; cnt[a]++; cnt[b]++;
        } else {
          // a moves away from b's image, b away from a's image: the same line mirrored (the
          // components along S agree, off the wall; the others are opposite). Split by inverse
          // mass, as liquid pairs are (push).
          const f = (s[a] + s[b]) / d;
          let fa = f, fb = f;
          if (!st.uniformMass) {
            const wa = st.invMass[a], wb = st.invMass[b], k2 = (2 * f) / (wa + wb);
            fa = k2 * wa; fb = k2 * wb;
          }
          for (let k = 0; k < 3; k++) {
            corr[3 * a + k] -= fa * off[k];
            corr[3 * b + k] += S & (1 << k) ? -fb * off[k] : fb * off[k];
          }
        }
      }
    }
  }
}

