/**
 * What the adhesion pair loops (adhesion.ts, object-adhesion.ts) read besides positions and
 * materials, per material pair e = a·size + b, packed in two typed arrays (f64: supp2 | shareI |
 * shareJ | invH2, size² each, then the matrix breakpoints' xs | ys; i32: breakpoint offset | count,
 * size² each): the squared adhesion support (m², 0: no force), the impulse shares m̄/mᵢ and
 * m̄/mⱼ, 1/h² of the viscosity kernel (h the mean of the two supports), and the adhesion matrix's
 * piecewise-linear functions (adhesion-matrix.ts). Refreshed every sub-timestep (size² entries).
 */
import { CONTACT_REACH, type StepContext } from './context.ts';
import { latticeFaceDeficit } from '../math/kernels.ts';

/**
 * Cohesion's share of a liquid pair as a particle's exposure e = clamp((1 − ρ̂) · scale − offset, 0, 1)
 * (adhesion.ts), from particle.cohesionShare with densitySolver "pbf", whose densities
 * (LiquidParticles.density) it reads; δ_face the density deficit of a flat face's outer row
 * (math/kernels.ts latticeFaceDeficit over the rest lattice 2r and the density support h):
 * "band" none up to δ_face/2, rising to full at δ_face (scale 2/δ_face, offset 1); "linear" from
 * none at the rest density to full at δ_face (1/δ_face, 0); "every-pair", or "steele": scale 0,
 * every pair in full (the paper's form).
 */
export function cohesionShare(particle: { densitySolver: string; cohesionShare: string }, r: number, h: number): { scale: number; offset: number } {
  if (particle.densitySolver !== 'pbf' || particle.cohesionShare === 'every-pair') return { scale: 0, offset: 0 };
  const face = latticeFaceDeficit(2 * r, h); // a few hundred kernel values, once a sub-timestep
  const band = particle.cohesionShare === 'band' ? COHESION_BAND : 0;
  return { scale: 1 / ((1 - band) * face), offset: band / (1 - band) };
}
/** "band": the share of a face row's deficit below which a pair takes no cohesion. */
export const COHESION_BAND = 0.5;

export class AdhesionTables {
  f64: Float64Array = new Float64Array(0);
  i32: Int32Array = new Int32Array(0);
  size = 0;
  invR = 0;
  /** ctx.reach²: the liquid pair loop's Σk and adhesion reach. */
  reach2 = 0;
  /**
   * The pair list's reach², a round-off margin beyond reach², so that it holds every pair the
   * viscosity kernel can weigh: fl(d² · fl(1/h²)) < 1 with h ≤ reach implies d² < reach² (1 + 4·2⁻⁵³).
   */
  pairReach2 = 0;
  /** Contact lists' reach² (CONTACT_REACH radii). */
  contactReach2 = 0;
  /**
   * The entry every liquid–liquid pair shares when all of them hold the same numbers (one liquid,
   * or liquids alike in mass, kernel and matrix row), else −1: the pair loop then reads no material.
   */
  uniform = -1;
  /**
   * Cohesion's share of a liquid pair (cohesionShare): e = clamp((1 − ρ̂) · cohesion −
   * cohesionOffset, 0, 1) (adhesion.ts); cohesion 0: every pair in full.
   */
  cohesion = 0;
  cohesionOffset = 0;

  fill(ctx: StepContext): void {
    const M = ctx.adhesion, msize = M.size, nm2 = msize * msize, nx = M.xs.length;
    const mass = ctx.mass, ks = ctx.kernelSupport, r = ctx.r;
    if (this.f64.length !== 4 * nm2 + 2 * nx) this.f64 = new Float64Array(4 * nm2 + 2 * nx);
    if (this.i32.length !== 2 * nm2) this.i32 = new Int32Array(2 * nm2);
    const f = this.f64, t = this.i32;
    for (let a = 0; a < msize; a++) {
      for (let b = 0; b < msize; b++) {
        const e = a * msize + b;
        f[e] = M.count[e] > 0 ? (M.support[e] * r) ** 2 : 0;
        const ma = mass[a], mb = mass[b];
        const mbar = ma + mb > 0 ? (2 * ma * mb) / (ma + mb) : 0;
        f[nm2 + e] = ma > 0 ? mbar / ma : 0;
        f[2 * nm2 + e] = mb > 0 ? mbar / mb : 0;
        const h = a === b ? ks[a] : 0.5 * (ks[a] + ks[b]);
        f[3 * nm2 + e] = 1 / (h * h);
        t[e] = M.offset[e];
        t[nm2 + e] = M.count[e];
      }
    }
    f.set(M.xs, 4 * nm2);
    f.set(M.ys, 4 * nm2 + nx);
    this.size = msize;
    this.invR = 1 / r;
    this.reach2 = ctx.reach * ctx.reach;
    this.pairReach2 = this.reach2 * (1 + 1e-12);
    this.contactReach2 = (CONTACT_REACH * r) ** 2;
    this.uniform = uniformEntry(f, t, msize, ctx.isLiquid);
    const share = cohesionShare(ctx.scene.particle, r, ctx.densityH);
    this.cohesion = share.scale;
    this.cohesionOffset = share.offset;
  }
}

/** The context's adhesion tables, refreshed. */
export function adhesionTables(ctx: StepContext): AdhesionTables {
  const t = (ctx.adhesionTables ??= new AdhesionTables());
  t.fill(ctx);
  return t;
}

/** The liquid–liquid entry all liquid pairs share bit for bit (AdhesionTables.uniform), or −1. */
function uniformEntry(f: Float64Array, t: Int32Array, msize: number, isLiquid: Uint8Array): number {
  const nm2 = msize * msize, xsOff = 4 * nm2, nx = (f.length - xsOff) / 2;
  let e0 = -1;
  for (let a = 0; a < msize; a++) {
    for (let b = 0; b < msize; b++) {
      if (!isLiquid[a] || !isLiquid[b]) continue;
      const e = a * msize + b;
      if (e0 < 0) { e0 = e; continue; }
      for (let k = 0; k < 4; k++) if (!same(f, k * nm2 + e, k * nm2 + e0)) return -1;
      const cnt = t[nm2 + e];
      if (cnt !== t[nm2 + e0]) return -1;
      for (let k = 0; k < cnt; k++) {
        if (!same(f, xsOff + t[e] + k, xsOff + t[e0] + k) || !same(f, xsOff + nx + t[e] + k, xsOff + nx + t[e0] + k)) return -1;
      }
    }
  }
  return e0;
}

/** Object.is(f[p], f[q]) (bit for bit, but for NaNs), with the numbers read here: V8 boxes a double passed to a call it does not inline. */
function same(f: Float64Array, p: number, q: number): boolean {
  const a = f[p], b = f[q];
  return a === b ? a !== 0 || 1 / a === 1 / b : a !== a && b !== b;
}
