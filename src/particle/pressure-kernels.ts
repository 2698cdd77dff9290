/**
 * The loops of the pressure stage (pressure.ts) and of PBF density correction (pbf.ts), in gather
 * form: each runs over a range of slots [a0, a1), and every slot writes only its own entries, so
 * ranges can run on any thread in any order with the same result (one thread runs
 * pressure-half.ts's loops over each pair once, the same bits).
 *
 * Density (over the rest density) of slot a, with the cubic spline w over the support h and n0 its
 * sum over the rest lattice (the particle itself included):
 *   ρ̂_a = (1 + Σ_b w_ab + Σ_s γ_s w_as + Σ_ghosts w_ag) / n0,
 * b over the liquid neighbours, s over object particles (Akinci et al. 2012, "Versatile
 * rigid-fluid coupling for incompressible SPH": an object particle counts as γ_s = n0 / Σ_k w_sk
 * liquid particles, k over its own body's particles), ghosts over the mirror images of a and its
 * neighbours across the closed domain walls within h of both (a wall reads as the liquid mirrored
 * beyond it). G_ab = ∇_a w(|x_a − x_b|). A pressure p ≥ 0 (PBF's −λ) displaces
 *   Δx_a = −1/n0 · [Σ_b (m̄/m_a)(p_a + p_b) G_ab + p_a Σ_s γ_s G_as + Σ_ghosts (m̄/m_a)(p_a + p_src) G_ag]
 * (m̄ = 2 m_a m_b/(m_a + m_b) of a and the ghost's source, 1 for a's own images: Σ m Δx = 0 over
 * liquid pairs; a body pushes each liquid as it would push that liquid alone), which changes the density, to first
 * order, by
 *   δρ̂_a = 1/n0 · [Σ_b (Δx_a − Δx_b)·G_ab + Σ_s γ_s Δx_a·G_as + Σ_ghosts (Δx_a − Δx_ghost)·G_ag]
 * (a ghost moves as its source, mirrored). α_a is the inverse of this map's diagonal, exact with
 * the ghosts (pressure-ghosts.ts factorRowWalls) and with equal masses; where masses differ it is
 *   α_a = n0² / (Σ_b (m_a/m_b) |G_ab|² + |Σ_b G_ab|²),
 * over a's own mass (m_a/m_b stands for the exact 2 m_a/(m_a + m_b), and the gradient term's pair
 * weights m̄/m_a for 1; the displacement reads only ratios of masses, and so does this). Over a
 * reference particle's mass instead (slot 0's), a ρ 3000 block's α on a water pool came out 3 times
 * too large and the passes overshot without end (docs/decisions.md "Two liquid densities in
 * contact"). PBF's λ_a = −C_a α_a, and the pressure stage's relaxed Jacobi step (DFSPH as
 * SPlisHSPlasH runs it) p_a ← max(p_a + ω α_a e_a, 0) on the remaining compression e_a.
 */
import { cubicSpline } from '../math/kernels.ts';
import { factorRowWalls, ghostDensityChange, ghostDisplacement, ghostSum, NEIGHBOUR_EDGE } from './pressure-ghosts.ts';
import type { GhostTable } from './pressure-ghost-table.ts';
import type { HalfRows } from './pressure-half.ts';
import { COUNT, GX, GY, GZ, objectSums, objectTerms, RHO } from './pressure-object-terms.ts';

export interface KernelView {
  /** Slot positions, 3 per slot (the passes move them). */
  x: Float64Array;
  /** Full liquid neighbour rows: the slots within h of slot a at lj[ls[a] .. ls[a + 1]). */
  ls: Int32Array;
  lj: Int32Array | Uint16Array;
  /** Object particles within h of slot a: ranks at bj[bs[a] .. bs[a + 1]) into opos and gamma. */
  bs: Int32Array;
  bj: Int32Array;
  opos: Float64Array;
  gamma: Float64Array;
  /**
   * Per entry of lj and of bj: w'(d/h) / (h d), d = |x_a − x_b|, so that G_ab = kg (x_a − x_b),
   * written by factorRange (0 where the pair is out of reach or at distance 0) and read by the
   * passes that follow it at the same positions, which so take neither a square root nor the
   * spline per pair and pass. Single precision (6e-8 relative, far below what the passes resolve):
   * 4 bytes an entry.
   */
  kg: Float32Array;
  bg: Float32Array;
  /** m_ref / m per slot; unused when `uniform`. */
  invMass: Float64Array;
  uniform: boolean;
  /** Per slot: ρ/ρ0 and the displacement (3 per slot) of the pass. */
  dens: Float64Array;
  dx: Float64Array;
  /**
   * Mirror walls per slot (wallRange): bit k set when a closed wall on axis k is within h, bit
   * 3 + k when that wall's inward sign is −1 (a max face); its distance δ (3 per slot).
   */
  wmask: Uint8Array;
  wdel: Float64Array;
  /** Closed walls: axis (0–2), plane coordinate and inward sign (+1 at a min face, −1 at a max face). */
  walls: { axis: number; plane: number; inward: number }[];
  h: number;
  n0: number;
  eps: number;
}

/** Marks, per slot of [a0, a1), the closed walls within h (the nearer one of an axis), from the current positions. */
export function wallRange(v: KernelView, a0: number, a1: number): void {
  const x = v.x, mask = v.wmask, del = v.wdel, hIn = v.h * (1 - 1e-9);
  for (let a = a0; a < a1; a++) {
    let m = 0;
    for (const w of v.walls) {
      const delta = (x[3 * a + w.axis] - w.plane) * w.inward;
      if (delta >= hIn) continue;
      const bit = 1 << w.axis;
      // A particle pushed through a wall reads it at a tiny distance (the constraint then pushes it back).
      const d = delta > 1e-12 * v.h ? delta : 1e-12 * v.h;
      if (m & bit && del[3 * a + w.axis] <= d) continue;
      m = (m | bit) & ~(8 << w.axis);
      if (w.inward < 0) m |= 8 << w.axis;
      del[3 * a + w.axis] = d;
    }
    mask[a] = m;
  }
}

/** Jacobi relaxation ω (SPlisHSPlasH: 0.5). */
export const RELAX = 0.5;
/** Neighbours within h (liquid, object, ghosts; within NEIGHBOUR_EDGE h: pressure-ghosts.ts) from which a particle is not at a free surface (SPlisHSPlasH: 20; a rest-lattice particle has 26, one on a flat surface 17). */
export const FULL = 20;

export interface SolveView extends KernelView {
  /** Per slot: 1 / diagonal (α) and the pressure p. The displacement of p goes to `dx`; ρ̂* to `dens`. */
  alpha: Float64Array;
  p: Float64Array;
  /** Per slot: neighbours within NEIGHBOUR_EDGE h (liquid, object particles, ghosts), from factorRange. */
  nb: Int32Array;
  /** Per slot (3 each), when not null: Σ G over every neighbour (∇ of the particle concentration), from factorRange. */
  grad: Float64Array | null;
  /** Per slot: the residual of the last Jacobi update (pressureUpdateRange). */
  res: Float64Array;
  /**
   * Per slot, when not null: the least pressure the update may leave (pressureUpdateRange), where it
   * is not 0: the second solve's pressure next to a body, which adds to the first one's kept there
   * (pressure.ts), may go down to minus it. Null: p ≥ 0.
   */
  floor?: Float64Array | null;
  /** The rows' upper parts and scratch for the one-thread loops over each pair once (pressure-half.ts); absent in a team's job. */
  half?: HalfRows;
  /** The mirror ghosts' geometry at these positions (pressure-ghost-table.ts), where a one-thread pressure stage listed it. */
  gt?: GhostTable | null;
}

/** ρ̂, α and the neighbour count of every slot in [a0, a1) at the current positions. */
export function factorRange(v: SolveView, a0: number, a1: number): void {
  const x = v.x, ls = v.ls, lj = v.lj, bs = v.bs, kg = v.kg;
  const dens = v.dens, alpha = v.alpha, invMass = v.invMass, uniform = v.uniform, mask = v.wmask;
  const invH = 1 / v.h, n0 = v.n0, invN0 = 1 / n0, epsN = v.eps * n0 * n0, anyWalls = v.walls.length > 0;
  for (let a = a0; a < a1; a++) {
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    let rho = 1, gx = 0, gy = 0, gz = 0, s2 = 0, k = 0;
    // A slot with closed walls within h takes its liquid row and its ghosts in one pass over the
    // row (pressure-ghosts.ts: the same sums in the same order).
    const walled = anyWalls && mask[a] !== 0;
    if (walled) {
      factorRowWalls(v, a);
      rho = ghostSum[0]; gx = ghostSum[1]; gy = ghostSum[2]; gz = ghostSum[3]; s2 = ghostSum[4]; k = ghostSum[5];
    }
    // cubicSpline and cubicSplineSlope written out, both sides of s = 1/2 computed and one taken
    // (the same arithmetic, so the same bits): the six nearest neighbours of a rest lattice sit at
    // s = 1/2, where a branch would be a coin toss.
    for (let q = ls[a], q1 = walled ? ls[a] : ls[a + 1]; q < q1; q++) {
      const j = lj[q], b = 3 * j;
      const dx = xa - x[b], dy = ya - x[b + 1], dz = za - x[b + 2];
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
      s2 += uniform ? f * f * d2 : f * f * d2 * invMass[j];
    }
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
    v.nb[a] = k;
    const gs = v.grad;
    if (gs !== null) { gs[3 * a] = gx; gs[3 * a + 1] = gy; gs[3 * a + 2] = gz; }
    dens[a] = rho * invN0;
    const ia = uniform ? 1 : invMass[a];
    alpha[a] = (n0 * n0 * ia) / (s2 + ia * (hx * hx + hy * hy + hz * hz) + ia * epsN);
  }
}

/**
 * ρ̂ alone of every slot in [a0, a1) at the current positions: factorRange's density, the same sums
 * in the same order (the same bits), without the slopes, α or the neighbour count, for a measure
 * whose slopes no pass will read (PBF's last: pbf.ts). A slot with closed walls within h takes
 * factorRange's own path (its ghosts are summed with its row).
 */
export function densityRange(v: SolveView, a0: number, a1: number): void {
  const x = v.x, ls = v.ls, lj = v.lj, bs = v.bs, bj = v.bj, opos = v.opos, gamma = v.gamma, dens = v.dens, mask = v.wmask;
  const invH = 1 / v.h, invN0 = 1 / v.n0, anyWalls = v.walls.length > 0;
  for (let a = a0; a < a1; a++) {
    if (anyWalls && mask[a] !== 0) {
      factorRange(v, a, a + 1);
      continue;
    }
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    let rho = 1;
    for (let q = ls[a], q1 = ls[a + 1]; q < q1; q++) {
      const b = 3 * lj[q];
      const dx = xa - x[b], dy = ya - x[b + 1], dz = za - x[b + 2];
      const s = Math.sqrt(dx * dx + dy * dy + dz * dz) * invH;
      if (s >= 1) continue;
      const t = 1 - s;
      rho += s <= 0.5 ? 6 * s * s * (s - 1) + 1 : 2 * t * t * t;
    }
    for (let q = bs[a], q1 = bs[a + 1]; q < q1; q++) {
      const o = bj[q];
      const dx = xa - opos[3 * o], dy = ya - opos[3 * o + 1], dz = za - opos[3 * o + 2];
      const s = Math.sqrt(dx * dx + dy * dy + dz * dz) * invH;
      if (s >= 1) continue;
      rho += gamma[o] * cubicSpline(s);
    }
    dens[a] = rho * invN0;
  }
}

/**
 * The displacement Δx(p) of every slot in [a0, a1) into v.dx, with the kernel slopes factorRange
 * stored at these positions (a zero slope adds nothing: out of reach, at distance 0, or w' = 0).
 */
export function pressureDisplacementRange(v: SolveView, a0: number, a1: number): void {
  const x = v.x, ls = v.ls, lj = v.lj, bs = v.bs, bj = v.bj, opos = v.opos, gamma = v.gamma, kg = v.kg, bg = v.bg;
  const p = v.p, out = v.dx, invMass = v.invMass, uniform = v.uniform, mask = v.wmask;
  const invN0 = 1 / v.n0, anyWalls = v.walls.length > 0;
  for (let a = a0; a < a1; a++) {
    const pa = p[a];
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    let cx = 0, cy = 0, cz = 0;
    if (uniform) {
      // l · 1 · g is l · g: the same bits as the weighted loop below with equal masses. No test
      // for l = 0 or g = 0 (about half the slots carry no pressure in a PBF pass, so the test is a
      // coin toss): such a term adds ±0, which leaves a sum that starts at +0 as it is.
      for (let q = ls[a], q1 = ls[a + 1]; q < q1; q++) {
        const b = lj[q];
        const f = (pa + p[b]) * kg[q], o = 3 * b;
        cx += f * (xa - x[o]); cy += f * (ya - x[o + 1]); cz += f * (za - x[o + 2]);
      }
    } else {
      for (let q = ls[a], q1 = ls[a + 1]; q < q1; q++) {
        const b = lj[q];
        const l = pa + p[b], g = kg[q];
        if (l === 0 || g === 0) continue;
        const f = l * ((2 * invMass[a]) / (invMass[a] + invMass[b])) * g;
        cx += f * (xa - x[3 * b]); cy += f * (ya - x[3 * b + 1]); cz += f * (za - x[3 * b + 2]);
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
      ghostDisplacement(v, a);
      cx += ghostSum[1]; cy += ghostSum[2]; cz += ghostSum[3];
    }
    out[3 * a] = -cx * invN0; out[3 * a + 1] = -cy * invN0; out[3 * a + 2] = -cz * invN0;
  }
}

/**
 * Σ_b (u_a − u_b)·G_ab + Σ_s γ_s (u_a − ou_s)·G_as + Σ_ghosts (u_a − u_ghost)·G_ag for slot a: n0
 * times the first-order change of ρ̂_a when every slot moves by u (3 per slot) and every object
 * particle by ou (3 per object slot; null: objects still); with the kernel slopes of factorRange.
 * Written to change[0], not returned: a double returned from a call that is not inlined is boxed,
 * and this one runs once per slot and pass (the honey drop: a third of the engine's short-lived
 * allocations, docs/decisions.md "The pressure stage's and PBF's cost").
 */
function densityChange(v: SolveView, a: number, u: Float64Array, ou: Float64Array | null): void {
  const x = v.x, ls = v.ls, lj = v.lj, bs = v.bs, bj = v.bj, opos = v.opos, gamma = v.gamma, kg = v.kg, bg = v.bg;
  const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
  const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2];
  let drho = 0;
  for (let q = ls[a], q1 = ls[a + 1]; q < q1; q++) {
    const b = lj[q], f = kg[q];
    if (f === 0) continue;
    drho += f * ((ux - u[3 * b]) * (xa - x[3 * b]) + (uy - u[3 * b + 1]) * (ya - x[3 * b + 1])
      + (uz - u[3 * b + 2]) * (za - x[3 * b + 2]));
  }
  for (let q = bs[a], q1 = bs[a + 1]; q < q1; q++) {
    const o = bj[q], g = bg[q];
    if (g === 0) continue;
    const dx = xa - opos[3 * o], dy = ya - opos[3 * o + 1], dz = za - opos[3 * o + 2];
    const f = gamma[o] * g;
    if (ou === null) drho += f * (ux * dx + uy * dy + uz * dz);
    else drho += f * ((ux - ou[3 * o]) * dx + (uy - ou[3 * o + 1]) * dy + (uz - ou[3 * o + 2]) * dz);
  }
  if (v.walls.length > 0 && v.wmask[a] !== 0) {
    ghostDensityChange(v, a, u);
    drho += ghostSum[0];
  }
  change[0] = drho;
}

/** densityChange's result. */
const change = new Float64Array(1);

/** ρ̂ of every slot in [a0, a1) advanced to first order by the displacements u and ou (densityChange): dens += δρ̂. */
export function advanceDensityRange(v: SolveView, a0: number, a1: number, u: Float64Array, ou: Float64Array | null): void {
  const dens = v.dens, invN0 = 1 / v.n0;
  for (let a = a0; a < a1; a++) {
    densityChange(v, a, u, ou);
    dens[a] += change[0] * invN0;
  }
}

/**
 * One relaxed Jacobi update of p for every slot in [a0, a1), from the displacement of the current
 * p (pressureDisplacementRange, all slots); writes each slot's residual to v.res (|e| where e > 0
 * or p > 0: compression left, or pressure where the liquid expands; 0 elsewhere), e measured before
 * the update. Where v.floor is given, its entry takes the place of 0 (the least pressure).
 */
export function pressureUpdateRange(v: SolveView, a0: number, a1: number, omega: number): void {
  const p = v.p, dens = v.dens, alpha = v.alpha, invN0 = 1 / v.n0, u = v.dx, res = v.res, floor = v.floor ?? null;
  for (let a = a0; a < a1; a++) {
    densityChange(v, a, u, null);
    const e = dens[a] + change[0] * invN0 - 1;
    const al = alpha[a], lo = floor === null ? 0 : floor[a];
    // The residual of the complementarity problem: compression, or expansion while pressed.
    res[a] = e > 0 ? e : p[a] > lo ? -e : 0;
    const np = p[a] + omega * al * e;
    p[a] = np > lo ? np : lo;
  }
}
