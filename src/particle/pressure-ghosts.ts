/**
 * The mirror ghosts of the pressure stage's and PBF's loops (pressure-kernels.ts) for a slot with
 * closed walls within h: a's own images across those walls and its neighbours' images across the
 * walls within h of both (a wall reads as the liquid mirrored beyond it). A ghost of source b
 * mirrored across the axes S sits at offset o from a (o_k = ±(δ_a,k + δ_b,k) on a mirrored axis k,
 * the pair's own separation on the others; a's own images at ±2 δ_a,k) and moves as its source,
 * mirrored.
 *
 * Each loop visits the ghosts inline, in one fixed order (a's own images by subset S of its wall
 * axes, then each neighbour of the row in row order and its subsets), the ghost sums kept apart
 * from the liquid sums, and the measure's walled row takes the ghosts in the same pass over the
 * row as its liquid terms (docs/decisions.md, "The dam break's cost"). The mirror-wall boundary
 * and the diagonal it gives: pressure-kernels.ts.
 */
import { cubicSpline, cubicSplineSlope } from '../math/kernels.ts';
import type { SolveView } from './pressure-kernels.ts';

/**
 * A neighbour (liquid, object particle or ghost) counts toward the free-surface test's count
 * (SolveView.nb, FULL) within NEIGHBOUR_EDGE · h, not h: a rest lattice at the default h = 4r puts
 * neighbours at exactly h (two spacings along an axis), where d < h is a rounding coin toss, in f64
 * on the CPU and f32 on the GPU, and their weight W(1) is 0 anyway. Counting them by chance gave a
 * lattice's top layer 17 to 22 neighbours about FULL = 20, so which surface particles took a
 * pressure source differed from engine to engine (docs/decisions.md, "The spinning paddle's first
 * sub-timestep"). 0.999 is far beyond either's rounding (about 1e-7 of h).
 */
export const NEIGHBOUR_EDGE = 0.999;

/** Bits of wmask that say which axes have a wall within h (the rest hold the walls' signs). */
const AXES = 7;

/**
 * What the loops below return, by index. factorRowWalls: [0] 1 + Σ_b w_ab, [1..3] Σ_b G_ab, [4]
 * Σ_b m_a/m_b |G_ab|² (the kernel's single-precision slopes), [5] liquid neighbours within h, then
 * the ghosts' share: [6] Σ w, [7..9] Σ G over every ghost, [10] what the ghosts add to
 * Σ_b m_a/m_b |T_b|², [11..13] Σ G over a's own images once more, [14] the ghosts within h.
 * ghostDisplacement: [1..3]; ghostDensityChange: [0].
 */
export const ghostSum = new Float64Array(15);

/** factorRowWalls' own-image sums (ownImages). */
const ownSums = new Float64Array(6);

/**
 * Slot a's own images (wmask ≠ 0; at ±2 δ_a,k on each subset of its wall axes), into out: [0] Σ w,
 * [1..3] Σ G, [4] 0 (the neighbours' Σ (|T_b|² − |G_ab|²)/m_b starts there), [5] the images within
 * NEIGHBOUR_EDGE h. factorRowWalls and pressure-wall-lower.ts ghostFactor start from them.
 */
export function ownImages(v: SolveView, a: number, out: Float64Array): void {
  const mask = v.wmask, del = v.wdel, h = v.h, h2 = h * h, invH = 1 / h, edge2 = NEIGHBOUR_EDGE * NEIGHBOUR_EDGE * h2;
  const wa = mask[a], ma = wa & AXES;
  const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1;
  const dax = del[3 * a], day = del[3 * a + 1], daz = del[3 * a + 2];
  let w0 = 0, e1 = 0, e2 = 0, e3 = 0, ghosts = 0;
  for (let S = ma; S > 0; S = (S - 1) & ma) {
    const ox = S & 1 ? 2 * sx * dax : 0, oy = S & 2 ? 2 * sy * day : 0, oz = S & 4 ? 2 * sz * daz : 0;
    const d2 = 0 + ox * ox + oy * oy + oz * oz;
    if (d2 >= h2) continue;
    if (d2 < edge2) ghosts++;
    const d = Math.sqrt(d2), s = d * invH;
    w0 += cubicSpline(s);
    if (d === 0) continue;
    const f = (cubicSplineSlope(s) * invH) / d;
    e1 += f * ox; e2 += f * oy; e3 += f * oz;
  }
  out[0] = w0; out[1] = e1; out[2] = e2; out[3] = e3; out[4] = 0; out[5] = ghosts;
}

/**
 * factorRange's liquid row of slot a (wmask ≠ 0) and the ghosts' share of a's ρ, gradient sum and
 * diagonal, into ghostSum (see there), writing each entry's slope to v.kg as factorRange does.
 * The diagonal of a's row is (m_a/m̄ |ĝ_a|² + Σ_b m_a/m_b |T_b|²)/n0², where a neighbour b and its
 * images move together, T_b = G_ab + Σ_S M_S G_{a,b^S} (M_S mirrors the axes in S; G_ab at full
 * precision, zero beyond h: the pair may be out of reach while an image is not), and a's own
 * images move with a: ĝ_a = Σ G + Σ_self G (its pressure pushes it off each twice).
 */
export function factorRowWalls(v: SolveView, a: number): void {
  const x = v.x, ls = v.ls, lj = v.lj, kg = v.kg, mask = v.wmask, del = v.wdel, invMass = v.invMass, uniform = v.uniform;
  const h = v.h, h2 = h * h, invH = 1 / h, edge2 = NEIGHBOUR_EDGE * NEIGHBOUR_EDGE * h2;
  const wa = mask[a], ma = wa & AXES;
  const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1;
  const dax = del[3 * a], day = del[3 * a + 1], daz = del[3 * a + 2];
  const own = ownSums;
  ownImages(v, a, own);
  let w0 = own[0], e1 = own[1], e2 = own[2], e3 = own[3], t4 = 0, ghosts = own[5];
  const o1 = own[1], o2 = own[2], o3 = own[3];
  const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
  let rho = 1, gx = 0, gy = 0, gz = 0, s2 = 0, k = 0;
  for (let q = ls[a], q1 = ls[a + 1]; q < q1; q++) {
    const j = lj[q], b = 3 * j;
    const dx = xa - x[b], dy = ya - x[b + 1], dz = za - x[b + 2];
    const dd = dx * dx + dy * dy + dz * dz;
    const d = Math.sqrt(dd), s = d * invH;
    // The liquid term (factorRange's loop), and T_b's G_ab at full precision.
    let tx = 0, ty = 0, tz = 0;
    if (s >= 1) {
      kg[q] = 0;
    } else {
      if (s < NEIGHBOUR_EDGE) k++;
      const t = 1 - s, inner = s <= 0.5;
      rho += inner ? 6 * s * s * (s - 1) + 1 : 2 * t * t * t;
      const slope = inner ? s * (18 * s - 12) : -6 * t * t;
      if (d === 0) {
        kg[q] = 0;
      } else {
        const fu = (slope * invH) / d, f = Math.fround(fu);
        kg[q] = f;
        gx += f * dx; gy += f * dy; gz += f * dz;
        s2 += uniform ? f * f * dd : f * f * dd * invMass[j];
        tx = fu * dx; ty = fu * dy; tz = fu * dz;
      }
    }
    const wb = mask[j];
    // The axes whose walls a and b both see, the same wall (the same sign bit).
    const common = ma & wb & ~((wa ^ wb) >> 3);
    if (common === 0) continue;
    const g0 = tx * tx + ty * ty + tz * tz;
    const bx = dax + del[b], by = day + del[b + 1], bz = daz + del[b + 2];
    // The pair's images: the same loop as pressure-wall-lower.ts ghostPairs', written out in both. As
    // one function it is over TurboFan's inlining limit (460 bytes of bytecode), and a call a pair
    // would box its eleven doubles (docs/decisions.md, "Review debt", branch tidy11).
    for (let S = common; S > 0; S = (S - 1) & common) {
      const ox = S & 1 ? sx * bx : dx, oy = S & 2 ? sy * by : dy, oz = S & 4 ? sz * bz : dz;
      const gd2 = ox * ox + oy * oy + oz * oz;
      if (gd2 >= h2) continue;
      if (gd2 < edge2) ghosts++;
      const gd = Math.sqrt(gd2), gs = gd * invH;
      w0 += cubicSpline(gs);
      if (gd === 0) continue;
      const f = (cubicSplineSlope(gs) * invH) / gd;
      const ex = f * ox, ey = f * oy, ez = f * oz;
      e1 += ex; e2 += ey; e3 += ez;
      tx += S & 1 ? -ex : ex; ty += S & 2 ? -ey : ey; tz += S & 4 ? -ez : ez;
    }
    t4 += (tx * tx + ty * ty + tz * tz - g0) * (uniform ? 1 : invMass[j]);
  }
  const out = ghostSum;
  out[0] = rho; out[1] = gx; out[2] = gy; out[3] = gz; out[4] = s2; out[5] = k;
  out[6] = w0; out[7] = e1; out[8] = e2; out[9] = e3; out[10] = t4; out[11] = o1; out[12] = o2; out[13] = o3; out[14] = ghosts;
}

/** a's own images' share of its displacement (ghostDisplacement's first terms), into ghostSum[1..3]. */
export function ownImagesDisplacement(v: SolveView, a: number): void {
  const mask = v.wmask, del = v.wdel;
  const h = v.h, h2 = h * h;
  const wa = mask[a], ma = wa & AXES;
  const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1;
  const dax = del[3 * a], day = del[3 * a + 1], daz = del[3 * a + 2];
  // (p_a + p_a) times the pair's mass weight m̄/m_a, which is 1 for an image (it has a's mass).
  const pp = 2 * v.p[a];
  let c1 = 0, c2 = 0, c3 = 0;
  for (let S = ma; S > 0; S = (S - 1) & ma) {
    const ox = S & 1 ? 2 * sx * dax : 0, oy = S & 2 ? 2 * sy * day : 0, oz = S & 4 ? 2 * sz * daz : 0;
    const d2 = 0 + ox * ox + oy * oy + oz * oz;
    if (d2 >= h2) continue;
    const d = Math.sqrt(d2);
    if (d === 0) continue;
    const f = (pp * cubicSplineSlope(d / h)) / h / d;
    c1 += f * ox; c2 += f * oy; c3 += f * oz;
  }
  ghostSum[1] = c1; ghostSum[2] = c2; ghostSum[3] = c3;
}

/** a's own images' share of its density change (ghostDensityChange's first terms): an image moves as a, mirrored. */
export function ownImagesDensityChange(v: SolveView, a: number, u: Float64Array): number {
  const mask = v.wmask, del = v.wdel;
  const h = v.h, h2 = h * h;
  const wa = mask[a], ma = wa & AXES;
  const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1;
  const dax = del[3 * a], day = del[3 * a + 1], daz = del[3 * a + 2];
  const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2];
  let c0 = 0;
  for (let S = ma; S > 0; S = (S - 1) & ma) {
    const ox = S & 1 ? 2 * sx * dax : 0, oy = S & 2 ? 2 * sy * day : 0, oz = S & 4 ? 2 * sz * daz : 0;
    const d2 = 0 + ox * ox + oy * oy + oz * oz;
    if (d2 >= h2) continue;
    const d = Math.sqrt(d2);
    if (d === 0) continue;
    const f = cubicSplineSlope(d / h) / h / d;
    const dot = 0 + (ux - (S & 1 ? -ux : ux)) * ox + (uy - (S & 2 ? -uy : uy)) * oy + (uz - (S & 4 ? -uz : uz)) * oz;
    c0 += f * dot;
  }
  return c0;
}

/**
 * The ghosts' share of slot a's displacement, Σ_ghosts (p_a + p_src) (m̄/m_a) G_ag, into
 * ghostSum[1..3] (pressureDisplacementRange).
 */
export function ghostDisplacement(v: SolveView, a: number): void {
  const x = v.x, ls = v.ls, lj = v.lj, mask = v.wmask, del = v.wdel, p = v.p, invMass = v.invMass, uniform = v.uniform;
  const h = v.h, h2 = h * h;
  const wa = mask[a], ma = wa & AXES;
  const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1;
  const dax = del[3 * a], day = del[3 * a + 1], daz = del[3 * a + 2];
  const pa = p[a], ia = uniform ? 1 : invMass[a];
  ownImagesDisplacement(v, a);
  let c1 = ghostSum[1], c2 = ghostSum[2], c3 = ghostSum[3];
  const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
  for (let q = ls[a], q1 = ls[a + 1]; q < q1; q++) {
    const j = lj[q];
    const wb = mask[j];
    const common = ma & wb & ~((wa ^ wb) >> 3);
    if (common === 0) continue;
    const b = 3 * j;
    const rx = xa - x[b], ry = ya - x[b + 1], rz = za - x[b + 2];
    const bx = dax + del[b], by = day + del[b + 1], bz = daz + del[b + 2];
    const pab = pa + p[j], wab = uniform ? 1 : (2 * ia) / (ia + invMass[j]);
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
 * The ghosts' share of densityChange for slot a, Σ_ghosts (u_a − u_ghost)·G_ag (a ghost moves as
 * its source, mirrored), into ghostSum[0].
 */
export function ghostDensityChange(v: SolveView, a: number, u: Float64Array): void {
  const x = v.x, ls = v.ls, lj = v.lj, mask = v.wmask, del = v.wdel;
  const h = v.h, h2 = h * h;
  const wa = mask[a], ma = wa & AXES;
  const sx = wa & 8 ? -1 : 1, sy = wa & 16 ? -1 : 1, sz = wa & 32 ? -1 : 1;
  const dax = del[3 * a], day = del[3 * a + 1], daz = del[3 * a + 2];
  const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2];
  let c0 = ownImagesDensityChange(v, a, u);
  const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
  for (let q = ls[a], q1 = ls[a + 1]; q < q1; q++) {
    const j = lj[q];
    const wb = mask[j];
    const common = ma & wb & ~((wa ^ wb) >> 3);
    if (common === 0) continue;
    const b = 3 * j;
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
      c0 += f * dot;
    }
  }
  ghostSum[0] = c0;
}

