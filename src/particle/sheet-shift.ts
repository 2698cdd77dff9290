/**
 * Stage "sheet" (particle.sheetShift > 0): particle shifting within thin sheets and threads of
 * liquid. Particle shifting (Xu, Stansby & Laurence 2009, "Accuracy and stability in
 * incompressible SPH (ISPH) based on the projection method and a new approach", J. Comput. Phys.
 * 228; in Fick's form of Lind, Xu, Stansby & Rogers 2012, "Incompressible smoothed particle
 * hydrodynamics for free-surface flows: a generalised diffusion-based algorithm for stability and
 * validations for impulsive flows and propagating waves", J. Comput. Phys. 231) moves each
 * particle down the gradient of the particles' concentration, δx_a = −D ∇C_a, so that particles
 * drift from where they crowd into where they are sparse; at a free surface Lind et al. keep only
 * the shift's part along the surface.
 *
 * Here it acts only where the liquid is one particle thick: a stretched sheet one particle
 * across (cup-pour's curtain under the lip) has no thickness to thin through, so it thins by
 * its particles drifting apart along the stretch and goes to lace (docs/decisions.md, "cup-pour's
 * curtain stage by stage"). Which particles, and in which directions:
 * - The neighbourhood's principal axes: the weighted covariance of the neighbours within the
 *   density kernel h about their centroid (self included, weights the cubic spline W(d/h)), its
 *   eigenvalues λ0 ≥ λ1 ≥ λ2. A particle is in a thin feature when λ2 < THIN λ0 (a one-particle
 *   sheet has λ2 ≈ 0; a two-particle-thick sheet, a free surface of a bulk and the bulk itself
 *   have λ2 / λ0 of 0.3 and more). Its tangent directions are the axes with λ ≥ THIN λ0: two in a
 *   sheet (its plane), one in a thread (its axis). The shift never leaves them, so a sheet is
 *   never thickened or thinned by it, only evened out within its own plane.
 * - The feature's own edge (the sheet's rim, a thread's end): where the neighbours' plain centroid
 *   lies more than EDGE h from the particle within the tangent directions, the shift's part along that offset is
 *   dropped (Lind et al.'s free-surface rule, one dimension down), so that a rim is not spread
 *   outward by its own concentration gradient.
 * - Not next to a body (LiquidParticles.nearObject): a film on a floor, a cup or a ball is left
 *   to the walls' and objects' stages. Not with a gel in the scene (its springs hold rest positions).
 *
 * D = sheetShift h² δt (sheetShift a rate, 1/s, so that the evening goes at the same pace at any
 * radius and step), ∇C / C the gradient of the spline sum over the sum itself (so a sparse sheet
 * evens as fast as a dense one), each shift at most MAX_SHIFT r; the shifted particle's velocity
 * corrected to its new place by the velocity's gradient in the tangents (Lind et al. 2012 §2.3's
 * Taylor step; correctVelocities). All shifts are found at the same positions and velocities
 * (Jacobi), then applied. Reads the pair list the adhesion stage left
 * (ctx.cells.pairs, every pair within ctx.reach ≥ h once), on the calling thread.
 * docs/decisions.md "A curtain evened within its own plane" has the figures.
 */
import type { StepContext } from './context.ts';
import { cubicSpline, cubicSplineSlope } from '../math/kernels.ts';
import { eigenSystemOf } from '../surface/anisotropic.ts';

/** A direction with less spread than this share of the largest is across the feature (thin). */
export const SHEET_THIN = 0.1;
/**
 * Offset of the neighbours' plain centroid (self included, every neighbour within h alike, as the
 * surface test's, surface.ts) within the feature, densityH, past which a particle is on the
 * feature's edge: the outer row of a square sheet (spacing 2r, h 4r) has 0.25 h, a particle beside
 * a sparse band across the sheet (every other particle missing) 0.06 h, a jittered interior one
 * (±0.1 spacings) about 0.02 h. The spline-weighted centroid tells these apart less well (0.095 h
 * against 0.064 h: the particle's own weight is most of the sum).
 */
export const SHEET_EDGE = 0.15;
/** The largest shift in one sub-timestep, radii. */
export const SHEET_MAX_SHIFT = 0.25;

const m6 = new Float64Array(6), vals = new Float64Array(3), vecs = new Float64Array(9);

/** Shifts the thin features' particles for a sub-timestep of dt; returns how many it moved. */
export function shiftSheets(ctx: StepContext, dt: number): number {
  const rate = ctx.scene.particle.sheetShift;
  if (!(rate > 0) || ctx.gel) return 0;
  const L = ctx.liquid, n = L.count, pos = L.pos, near = L.nearObject;
  const h = ctx.densityH, h2 = h * h, invH = 1 / h;
  const mem = ctx.stageScratch(8 * 28 * n + n + 128, false);
  const sw = mem.f64(n), sx = mem.f64(3 * n), su = mem.f64(3 * n), sm = mem.f64(6 * n), grad = mem.f64(3 * n), dx = mem.f64(3 * n);
  const cnt = mem.i32(n);
  sw.fill(cubicSpline(0), 0, n);
  sx.fill(0, 0, 3 * n); su.fill(0, 0, 3 * n); sm.fill(0, 0, 6 * n); grad.fill(0, 0, 3 * n); cnt.fill(0, 0, n);
  const ls = ctx.cells.pairs.start, lj = ctx.cells.pairs.j;
  // Σ w, Σ w o, Σ w o⊗o (o the neighbour's offset) and ∇C = Σ ∇W, both ends of each pair.
  for (let i = 0; i < n; i++) {
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    for (let q = ls[i], q1 = ls[i + 1]; q < q1; q++) {
      const j = lj[q];
      const ox = pos[3 * j] - xi, oy = pos[3 * j + 1] - yi, oz = pos[3 * j + 2] - zi;
      const d2 = ox * ox + oy * oy + oz * oz;
      if (d2 >= h2 || d2 === 0) continue;
      const d = Math.sqrt(d2), w = cubicSpline(d * invH);
      // ∇_i W(|x_i − x_j|) = W'(d) (x_i − x_j) / d, toward j (W' ≤ 0).
      const g = (-cubicSplineSlope(d * invH) * invH) / d;
      sw[i] += w; sw[j] += w; cnt[i]++; cnt[j]++;
      sx[3 * i] += w * ox; sx[3 * i + 1] += w * oy; sx[3 * i + 2] += w * oz;
      sx[3 * j] -= w * ox; sx[3 * j + 1] -= w * oy; sx[3 * j + 2] -= w * oz;
      su[3 * i] += ox; su[3 * i + 1] += oy; su[3 * i + 2] += oz;
      su[3 * j] -= ox; su[3 * j + 1] -= oy; su[3 * j + 2] -= oz;
      const xx = w * ox * ox, yy = w * oy * oy, zz = w * oz * oz, xy = w * ox * oy, xz = w * ox * oz, yz = w * oy * oz;
      sm[6 * i] += xx; sm[6 * i + 1] += yy; sm[6 * i + 2] += zz; sm[6 * i + 3] += xy; sm[6 * i + 4] += xz; sm[6 * i + 5] += yz;
      sm[6 * j] += xx; sm[6 * j + 1] += yy; sm[6 * j + 2] += zz; sm[6 * j + 3] += xy; sm[6 * j + 4] += xz; sm[6 * j + 5] += yz;
      grad[3 * i] += g * ox; grad[3 * i + 1] += g * oy; grad[3 * i + 2] += g * oz;
      grad[3 * j] -= g * ox; grad[3 * j + 1] -= g * oy; grad[3 * j + 2] -= g * oz;
    }
  }
  const D = rate * h2 * dt, cap = SHEET_MAX_SHIFT * ctx.r, edge = SHEET_EDGE * h;
  // Per thin particle: its shift within the tangents (dx), its tangents (tan, zero past the
  // first where a thread) and, on the feature's edge, its outward direction within them (out).
  const tan = mem.f64(6 * n), out = mem.f64(3 * n), thin = mem.u8(n);
  for (let i = 0; i < n; i++) {
    dx[3 * i] = dx[3 * i + 1] = dx[3 * i + 2] = 0;
    out[3 * i] = out[3 * i + 1] = out[3 * i + 2] = 0;
    thin[i] = 0;
    if (cnt[i] < 2 || near[i]) continue;
    if (thinAxes(sw[i], sx, sm, i) === 0) continue;
    const tangents = vals[1] >= SHEET_THIN * vals[0] ? 2 : 1;
    thin[i] = 1;
    // −D ∇C / C, and the centroid's offset, each within the tangent directions.
    const f = -D / sw[i], gx = f * grad[3 * i], gy = f * grad[3 * i + 1], gz = f * grad[3 * i + 2];
    const u = 1 / (cnt[i] + 1), cx = su[3 * i] * u, cy = su[3 * i + 1] * u, cz = su[3 * i + 2] * u;
    let tx = 0, ty = 0, tz = 0, ex = 0, ey = 0, ez = 0;
    for (let k = 0; k < 2; k++) {
      const ax = k < tangents ? vecs[3 * k] : 0, ay = k < tangents ? vecs[3 * k + 1] : 0, az = k < tangents ? vecs[3 * k + 2] : 0;
      tan[6 * i + 3 * k] = ax; tan[6 * i + 3 * k + 1] = ay; tan[6 * i + 3 * k + 2] = az;
      const a = gx * ax + gy * ay + gz * az, b = cx * ax + cy * ay + cz * az;
      tx += a * ax; ty += a * ay; tz += a * az;
      ex += b * ax; ey += b * ay; ez += b * az;
    }
    dx[3 * i] = tx; dx[3 * i + 1] = ty; dx[3 * i + 2] = tz;
    const e = Math.hypot(ex, ey, ez);
    if (e > edge) { out[3 * i] = -ex / e; out[3 * i + 1] = -ey / e; out[3 * i + 2] = -ez / e; }
  }
  // The edge's band: each thin particle's outward direction summed with its thin neighbours' within h
  // (the rows behind a rim, whose kernels reach past it, would else spread it outward), into sx.
  for (let i = 0; i < n; i++) if (thin[i]) { sx[3 * i] = out[3 * i]; sx[3 * i + 1] = out[3 * i + 1]; sx[3 * i + 2] = out[3 * i + 2]; }
  for (let i = 0; i < n; i++) {
    if (!thin[i]) continue;
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    for (let q = ls[i], q1 = ls[i + 1]; q < q1; q++) {
      const j = lj[q];
      if (!thin[j]) continue;
      const ox = pos[3 * j] - xi, oy = pos[3 * j + 1] - yi, oz = pos[3 * j + 2] - zi;
      if (ox * ox + oy * oy + oz * oz >= h2) continue;
      sx[3 * i] += out[3 * j]; sx[3 * i + 1] += out[3 * j + 1]; sx[3 * i + 2] += out[3 * j + 2];
      sx[3 * j] += out[3 * i]; sx[3 * j + 1] += out[3 * i + 1]; sx[3 * j + 2] += out[3 * i + 2];
    }
  }
  let moved = 0;
  for (let i = 0; i < n; i++) {
    if (!thin[i]) continue;
    let tx = dx[3 * i], ty = dx[3 * i + 1], tz = dx[3 * i + 2];
    // The band's outward direction within i's tangents; the shift's part along it dropped where outward.
    let ox = 0, oy = 0, oz = 0;
    for (let k = 0; k < 2; k++) {
      const ax = tan[6 * i + 3 * k], ay = tan[6 * i + 3 * k + 1], az = tan[6 * i + 3 * k + 2];
      const b = sx[3 * i] * ax + sx[3 * i + 1] * ay + sx[3 * i + 2] * az;
      ox += b * ax; oy += b * ay; oz += b * az;
    }
    const o2 = ox * ox + oy * oy + oz * oz, along = tx * ox + ty * oy + tz * oz;
    if (o2 > 0 && along > 0) { tx -= (along / o2) * ox; ty -= (along / o2) * oy; tz -= (along / o2) * oz; }
    const t = Math.hypot(tx, ty, tz);
    const f = t > cap ? cap / t : 1;
    dx[3 * i] = f * tx; dx[3 * i + 1] = f * ty; dx[3 * i + 2] = f * tz;
    if (t > 0) moved++;
  }
  if (moved > 0) correctVelocities(ctx, thin, tan, dx, sm, su);
  for (let i = 0; i < n; i++) if (thin[i]) { pos[3 * i] += dx[3 * i]; pos[3 * i + 1] += dx[3 * i + 1]; pos[3 * i + 2] += dx[3 * i + 2]; }
  return moved;
}

/**
 * Lind et al.'s correction of the shifted particle's velocity to its new place, v += (δx · ∇) v, the
 * gradient by least squares over the neighbours within h in the feature's tangents (M g = b, M_kl =
 * Σ w (o·t_k)(o·t_l), b_k = Σ w (o·t_k)(v_j − v_i), w the spline), so that a particle shifted into a
 * gap takes the velocity of the stretch there rather than carrying its own. B (6n) and M (3n) are
 * scratch.
 */
function correctVelocities(ctx: StepContext, thin: Uint8Array, tan: Float64Array, dx: Float64Array, B: Float64Array, M: Float64Array): void {
  const L = ctx.liquid, n = L.count, pos = L.pos, vel = L.vel, h = ctx.densityH, h2 = h * h, invH = 1 / h;
  const ls = ctx.cells.pairs.start, lj = ctx.cells.pairs.j;
  B.fill(0, 0, 6 * n); M.fill(0, 0, 3 * n);
  const add = (i: number, ox: number, oy: number, oz: number, w: number, ux: number, uy: number, uz: number): void => {
    const t = 6 * i, a = ox * tan[t] + oy * tan[t + 1] + oz * tan[t + 2], b = ox * tan[t + 3] + oy * tan[t + 4] + oz * tan[t + 5];
    M[3 * i] += w * a * a; M[3 * i + 1] += w * a * b; M[3 * i + 2] += w * b * b;
    B[t] += w * a * ux; B[t + 1] += w * a * uy; B[t + 2] += w * a * uz;
    B[t + 3] += w * b * ux; B[t + 4] += w * b * uy; B[t + 5] += w * b * uz;
  };
  for (let i = 0; i < n; i++) {
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    for (let q = ls[i], q1 = ls[i + 1]; q < q1; q++) {
      const j = lj[q];
      if (!thin[i] && !thin[j]) continue;
      const ox = pos[3 * j] - xi, oy = pos[3 * j + 1] - yi, oz = pos[3 * j + 2] - zi, d2 = ox * ox + oy * oy + oz * oz;
      if (d2 >= h2) continue;
      const w = cubicSpline(Math.sqrt(d2) * invH), ux = vel[3 * j] - vel[3 * i], uy = vel[3 * j + 1] - vel[3 * i + 1], uz = vel[3 * j + 2] - vel[3 * i + 2];
      if (thin[i]) add(i, ox, oy, oz, w, ux, uy, uz);
      if (thin[j]) add(j, -ox, -oy, -oz, w, -ux, -uy, -uz);
    }
  }
  for (let i = 0; i < n; i++) {
    if (!thin[i]) continue;
    const t = 6 * i, m11 = M[3 * i], m12 = M[3 * i + 1], m22 = M[3 * i + 2];
    const s1 = dx[3 * i] * tan[t] + dx[3 * i + 1] * tan[t + 1] + dx[3 * i + 2] * tan[t + 2];
    const s2 = dx[3 * i] * tan[t + 3] + dx[3 * i + 1] * tan[t + 4] + dx[3 * i + 2] * tan[t + 5];
    if (s1 === 0 && s2 === 0) continue;
    const det = m11 * m22 - m12 * m12;
    // The steps along the tangents solved for the gradient: c1, c2 with g = c1 b_1 + c2 b_2.
    let c1 = 0, c2 = 0;
    if (m22 > 0 && det > 1e-6 * m11 * m22) { c1 = (s1 * m22 - s2 * m12) / det; c2 = (s2 * m11 - s1 * m12) / det; }
    else if (m11 > 0) c1 = s1 / m11;
    for (let k = 0; k < 3; k++) vel[3 * i + k] += c1 * B[t + k] + c2 * B[t + 3 + k];
  }
}

/**
 * The principal axes of particle i's neighbourhood into vals / vecs (descending); returns 1 where
 * it is thin (λ2 < SHEET_THIN λ0), else 0.
 */
function thinAxes(w: number, sx: Float64Array, sm: Float64Array, i: number): number {
  const cx = sx[3 * i] / w, cy = sx[3 * i + 1] / w, cz = sx[3 * i + 2] / w;
  m6[0] = sm[6 * i] / w - cx * cx; m6[1] = sm[6 * i + 1] / w - cy * cy; m6[2] = sm[6 * i + 2] / w - cz * cz;
  m6[3] = sm[6 * i + 3] / w - cx * cy; m6[4] = sm[6 * i + 4] / w - cx * cz; m6[5] = sm[6 * i + 5] / w - cy * cz;
  eigenSystemOf(m6, vals, vecs);
  return vals[0] > 0 && vals[2] < SHEET_THIN * vals[0] ? 1 : 0;
}

/** For the tests: whether particle i's neighbourhood, given as offsets with weights, is thin, and its axes. */
export function sheetAxesOf(offsets: ArrayLike<number>, h: number): { thin: boolean; values: number[]; axes: number[] } {
  const m = offsets.length / 3, sx1 = new Float64Array(3), sm1 = new Float64Array(6);
  let w = cubicSpline(0);
  for (let k = 0; k < m; k++) {
    const ox = offsets[3 * k], oy = offsets[3 * k + 1], oz = offsets[3 * k + 2], d = Math.hypot(ox, oy, oz);
    if (d >= h || d === 0) continue;
    const wk = cubicSpline(d / h);
    w += wk;
    sx1[0] += wk * ox; sx1[1] += wk * oy; sx1[2] += wk * oz;
    sm1[0] += wk * ox * ox; sm1[1] += wk * oy * oy; sm1[2] += wk * oz * oz; sm1[3] += wk * ox * oy; sm1[4] += wk * ox * oz; sm1[5] += wk * oy * oz;
  }
  const thin = thinAxes(w, sx1, sm1, 0) === 1;
  return { thin, values: Array.from(vals), axes: Array.from(vecs) };
}
