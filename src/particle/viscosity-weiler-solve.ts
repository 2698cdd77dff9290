/**
 * The linear system of the implicit viscosity (viscosity-weiler.ts) and its solve, as one job:
 * backward Euler on the SPH viscosity Laplacian of Weiler, Koschier, Brand & Bender 2018, "A
 * Physically Consistent Implicit Viscosity Solver for SPH Fluids" (Computer Graphics Forum 37(2),
 * §4, eq. 8–10), per unit volume and multiplied through by the rest volume so that it is symmetric:
 *
 *   ρ_i v_i + Σ_j e_ij x_ij (x_ij · (v_i − v_j)) + Σ_b e_ib x_ib (x_ib · (v_i − v_b)) + walls = ρ_i v*_i,
 *   e_ij = δt · 2(d + 2) λ V0 μ_ij F(|x_ij|),   F(r) = −W′(r) / (r (r² + 0.01 h²)),
 *
 * W the normalized cubic spline of support h (the liquids' viscosity kernel support), V0 = (2r)³
 * the rest volume of a particle, μ the dynamic viscosity (pair mean for two liquids; times the
 * harmonic mean of the two particles' temperature factors, temperature.ts), λ the factor
 * that makes the continuous integral of the estimate ∇²v exactly (viscosity-weiler.ts), b the
 * object particles (Akinci et al. 2012 volumes γ_b V0, moving with their body; the friction factor
 * of the body's material scales μ there: 1 holds the liquid, 0 lets it slide). The object terms
 * are taken on the body's tangent plane at i, T X_i T with X_i = Σ_b e_ib x_ib x_ibᵀ, T = I − n nᵀ
 * and n the direction of Σ_b e_ib x_ib (symmetric and positive semi-definite as X_i is): no-slip
 * holds the liquid's velocity along the body, and the velocity off it is the pressure's (the
 * liquid is kept out of a body by the pressure, and the full term took back each sub-timestep the
 * pressure's push off a ball, until the honey drop's film came apart; SPlisHSPlasH leaves boundary
 * viscosity out unless asked, m_boundaryViscosity 0).
 *
 * Closed domain walls take part as mirror images of the liquid (beyond the paper, which samples
 * walls with particles): particle j mirrored in the wall plane to x_j′ = M x_j is a ghost of i at
 * x′ = x_i − M x_j when |x′| < h. A "slip" wall's ghost moves with M v_j (the Laplacian of a flow
 * along the wall sees the liquid it lacks; no shear); a "noslip" or moving wall's with 2u_w − v_j
 * (the velocity is odd about the wall: zero relative velocity at the plane). The slip ghost's
 * terms are symmetric as they stand; the no-slip ghost's are taken with
 * B = ½ (x′x′ᵀ + M x′x′ᵀ M) for x′x′ᵀ, which keeps the tangential–tangential and normal–normal
 * parts (those a flow along a wall shears) and makes the matrix symmetric.
 *
 * Solved matrix-free by conjugate gradients with a 3×3 block-Jacobi preconditioner (SPlisHSPlasH's
 * Viscosity_Weiler2018 with BlockJacobiPreconditioner3D), warm-started by the stage, stopped at a
 * residual relative to that of v* (the change's size; viscosity-weiler.ts VISCOSITY_TOLERANCE). On
 * one thread the rows are half rows, each liquid pair once as g = √e_ij x_ij (single precision;
 * its block e x xᵀ is g gᵀ), and the product adds u g, u = g · (v_i − v_j), to one end and takes
 * it from the other; on a team every thread
 * sets up and updates its own share of full rows; dot products are added per thread and then over
 * the threads in rank order (each thread adds the same numbers in the same order, so all take the
 * same step and stop together), between barriers. A given thread count repeats bit for bit. The
 * iterate is shifted at the end by the residual's sum over the liquid's mass, which keeps the
 * liquid's momentum to round-off (the pair terms conserve it; a CG iterate does not).
 */
import { defineJob, type JobArrays } from '../parallel/job.ts';
import { cubicSplineSlope } from '../math/kernels.ts';
import { VISCOSITY_MIN_PARTICLES } from './work.ts';

/** Entries of `red` per thread (partial dot products); the results follow the threads' blocks. */
export const RED_STRIDE = 5;
/** Wall table entries per closed wall: axis, plane, kind (0 slip, 1 no-slip), u_w. */
export const WALL_STRIDE = 6;
/** A ghost list entry is GHOST_WALLS j + wall (viscosity-weiler-walls.ts listGhosts). */
export const GHOST_WALLS = 8;

/** F(r) of the header for squared distance r2 < h² (0 at r = 0, where the pair has no direction). */
export function pairFactor(r2: number, h: number): number {
  if (!(r2 > 0)) return 0;
  const r = Math.sqrt(r2), sigma = 8 / (Math.PI * h * h * h);
  return (-sigma * cubicSplineSlope(r / h)) / (h * r * (r2 + 0.01 * h * h));
}

/**
 * The job's arrays as fields of one class (a fixed shape the row loops read fast; the binding's
 * argument object is keyed by name), made once a run.
 */
class Rows {
  readonly pos; readonly vstar; readonly mat; readonly ls; readonly lj; readonly bs; readonly bj; readonly opos; readonly ovel;
  readonly ow; readonly pk; readonly ph; readonly rho; readonly walls; readonly gs; readonly gj; readonly gc; readonly coef;
  readonly bcoef; readonly b; readonly pinv; readonly onrm;
  /** Per-particle viscosity factors (temperature.ts), read when `thermal`. */
  readonly tf; readonly thermal: boolean;
  constructor(a: JobArrays<typeof weilerJob>, thermal: boolean) {
    this.tf = a.tf; this.thermal = thermal;
    this.pos = a.pos; this.vstar = a.vstar; this.mat = a.mat; this.ls = a.ls; this.lj = a.lj; this.bs = a.bs; this.bj = a.bj;
    this.opos = a.opos; this.ovel = a.ovel; this.ow = a.ow; this.pk = a.pk; this.ph = a.ph; this.rho = a.rho; this.walls = a.walls;
    this.gs = a.gs; this.gj = a.gj; this.gc = a.gc; this.coef = a.coef; this.bcoef = a.bcoef; this.b = a.b; this.pinv = a.pinv;
    this.onrm = a.onrm;
  }
}
type A = Rows;

export const weilerJob = defineJob({
  name: 'viscosity-weiler',
  arrays: { x: 'f64', r: 'f64', z: 'f64', p: 'f64', q: 'f64', pinv: 'f64', b: 'f64', onrm: 'f64', coef: 'f32', bcoef: 'f32', red: 'f64' },
  inputs: {
    pos: 'f64', vstar: 'f64', mat: 'u16', ls: 'i32', lj: 'i32', bs: 'i32', bj: 'i32', opos: 'f64', ovel: 'f64', ow: 'f64',
    pk: 'f64', ph: 'f64', rho: 'f64', walls: 'f64', gs: 'i32', gj: 'i32', gc: 'f32', tf: 'f64',
  },
  scalars: ['nm', 'tol', 'maxIter', 'thermal', 'half'],
  split: 'items',
  minItems: () => VISCOSITY_MIN_PARTICLES,
  kernel(x) {
    const a = new Rows(x.a, x.s.thermal === 1), { red } = x.a, rank = x.rank, T = x.size, from = x.from, to = x.to;
    const nm = x.s.nm, half = x.s.half === 1;
    for (let i = from; i < to; i++) setupRow(a, i, nm, half);
    if (half) setupHalf(a, to);
    for (let i = from; i < to; i++) invertBlock(a.pinv, i);
    x.barrier();
    const { r, z, p, q } = x.a, b = a.b, pinv = a.pinv, xs = x.a.x;
    let rz = 0, rr = 0, bb = 0, b2 = 0;
    // bb: |b − A v*|², the residual of the velocity before the solve (the viscous change's size),
    // which the tolerance is relative to; the warm start's own residual follows.
    if (half) applyHalf(a, a.vstar, q, to);
    for (let i = from; i < to; i++) {
      if (!half) applyRow(a, i, a.vstar, q, true);
      for (let k = 3 * i; k < 3 * i + 3; k++) {
        bb += (b[k] - q[k]) * (b[k] - q[k]);
        b2 += b[k] * b[k];
      }
    }
    if (half) applyHalf(a, xs, q, to);
    for (let i = from; i < to; i++) {
      if (!half) applyRow(a, i, xs, q, true);
      for (let k = 3 * i; k < 3 * i + 3; k++) {
        r[k] = b[k] - q[k];
        rr += r[k] * r[k];
      }
      precondition(pinv, r, z, i);
      for (let k = 3 * i; k < 3 * i + 3; k++) {
        p[k] = z[k];
        rz += r[k] * z[k];
      }
    }
    const o = RED_STRIDE * rank;
    red[o + 1] = rz; red[o + 2] = rr; red[o + 3] = bb; red[o + 4] = b2;
    x.barrier();
    rz = 0; rr = 0; bb = 0; b2 = 0;
    for (let t = 0; t < T; t++) {
      rz += red[RED_STRIDE * t + 1]; rr += red[RED_STRIDE * t + 2]; bb += red[RED_STRIDE * t + 3]; b2 += red[RED_STRIDE * t + 4];
    }
    // Where v* needs (next to) no change (a liquid in rigid motion), 1e-9 |b| is round-off's floor.
    const goal = x.s.tol * x.s.tol * bb + 1e-18 * b2, maxIter = x.s.maxIter;
    let it = 0;
    while (rr > goal && it < maxIter) {
      let pq = 0;
      if (half) applyHalf(a, p, q, to);
      for (let i = from; i < to; i++) {
        if (!half) applyRow(a, i, p, q, true);
        pq += p[3 * i] * q[3 * i] + p[3 * i + 1] * q[3 * i + 1] + p[3 * i + 2] * q[3 * i + 2];
      }
      red[o] = pq;
      x.barrier();
      pq = 0;
      for (let t = 0; t < T; t++) pq += red[RED_STRIDE * t];
      if (!(pq > 0)) break;
      const alpha = rz / pq;
      let rz1 = 0;
      rr = 0;
      for (let i = from; i < to; i++) {
        for (let k = 3 * i; k < 3 * i + 3; k++) {
          xs[k] += alpha * p[k];
          r[k] -= alpha * q[k];
          rr += r[k] * r[k];
        }
        precondition(pinv, r, z, i);
        rz1 += r[3 * i] * z[3 * i] + r[3 * i + 1] * z[3 * i + 1] + r[3 * i + 2] * z[3 * i + 2];
      }
      red[o + 1] = rz1; red[o + 2] = rr;
      x.barrier();
      rz1 = 0; rr = 0;
      for (let t = 0; t < T; t++) {
        rz1 += red[RED_STRIDE * t + 1]; rr += red[RED_STRIDE * t + 2];
      }
      it++;
      if (rr <= goal || it >= maxIter) break;
      const beta = rz1 / rz;
      rz = rz1;
      for (let k = 3 * from; k < 3 * to; k++) p[k] = z[k] + beta * p[k];
      x.barrier();
    }
    // The pair terms cancel in Σ_i (A v)_i, so the residual's sum is the momentum (per rest
    // volume) the iterate lacks: a uniform shift puts it back, leaving the pair residuals as
    // they are (the liquid's momentum then holds to round-off away from walls and objects).
    x.barrier();
    let sx = 0, sy = 0, sz = 0, srho = 0;
    for (let i = from; i < to; i++) {
      sx += r[3 * i]; sy += r[3 * i + 1]; sz += r[3 * i + 2];
      srho += a.rho[a.mat[i]];
    }
    red[o] = sx; red[o + 1] = sy; red[o + 2] = sz; red[o + 3] = srho;
    x.barrier();
    sx = sy = sz = srho = 0;
    for (let t = 0; t < T; t++) {
      sx += red[RED_STRIDE * t]; sy += red[RED_STRIDE * t + 1]; sz += red[RED_STRIDE * t + 2]; srho += red[RED_STRIDE * t + 3];
    }
    if (srho > 0) {
      sx /= srho; sy /= srho; sz /= srho;
      for (let i = from; i < to; i++) {
        xs[3 * i] += sx; xs[3 * i + 1] += sy; xs[3 * i + 2] += sz;
      }
    }
    if (rank === 0) {
      red[RED_STRIDE * T] = it;
      red[RED_STRIDE * T + 1] = rr <= goal ? 0 : Math.sqrt(rr / bb);
    }
  },
});

/** z_i = P_i r_i, P_i the inverse of row i's diagonal block (6 entries: xx, yy, zz, xy, xz, yz). */
function precondition(pinv: Float64Array, r: Float64Array, z: Float64Array, i: number): void {
  const o = 6 * i, rx = r[3 * i], ry = r[3 * i + 1], rz = r[3 * i + 2];
  z[3 * i] = pinv[o] * rx + pinv[o + 3] * ry + pinv[o + 4] * rz;
  z[3 * i + 1] = pinv[o + 3] * rx + pinv[o + 1] * ry + pinv[o + 5] * rz;
  z[3 * i + 2] = pinv[o + 4] * rx + pinv[o + 5] * ry + pinv[o + 2] * rz;
}

/**
 * Row i's object coefficients (bcoef, single precision), its right-hand side b_i and the inverse
 * of its diagonal block; the liquid pair coefficients (coef) come from the stage, which evaluates
 * each pair once for both of its entries (viscosity-weiler.ts fillRows).
 */
function setupRow(a: A, i: number, nm: number, half: boolean): void {
  const { pos, vstar, mat, ls, lj, bs, bj, opos, ovel, ow, pk, ph, rho, walls, gs, gj, gc, coef, bcoef, b, pinv, tf, thermal } = a;
  const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], mi = mat[i], rhoi = rho[mi];
  let dxx = rhoi, dyy = rhoi, dzz = rhoi, dxy = 0, dxz = 0, dyz = 0;
  let bx = rhoi * vstar[3 * i], by = rhoi * vstar[3 * i + 1], bz = rhoi * vstar[3 * i + 2];
  for (let e = ls[i], e1 = half ? ls[i] : ls[i + 1]; e < e1; e++) {
    const j = lj[e], c = coef[e];
    const dx = xi - pos[3 * j], dy = yi - pos[3 * j + 1], dz = zi - pos[3 * j + 2];
    dxx += c * dx * dx; dyy += c * dy * dy; dzz += c * dz * dz; dxy += c * dx * dy; dxz += c * dx * dz; dyz += c * dy * dz;
  }
  const self = mi * (nm + 1), hi = ph[self], ki = pk[self];
  // Object terms: X = Σ_b e_ib x_ib x_ibᵀ taken on the body's tangent plane (T X T, T = I − n nᵀ, n
  // the direction of Σ_b e_ib x_ib: see the header), and T X T v_b into b.
  let oxx = 0, oyy = 0, ozz = 0, oxy = 0, oxz = 0, oyz = 0, ux = 0, uy = 0, uz = 0, nx = 0, ny = 0, nz = 0;
  for (let e = bs[i], e1 = bs[i + 1]; e < e1; e++) {
    const s = bj[e];
    const dx = xi - opos[3 * s], dy = yi - opos[3 * s + 1], dz = zi - opos[3 * s + 2];
    const c = Math.fround(ki * ow[s] * pairFactor(dx * dx + dy * dy + dz * dz, hi) * (thermal ? tf[i] : 1));
    bcoef[e] = c;
    oxx += c * dx * dx; oyy += c * dy * dy; ozz += c * dz * dz; oxy += c * dx * dy; oxz += c * dx * dz; oyz += c * dy * dz;
    nx += c * dx; ny += c * dy; nz += c * dz;
  }
  const nl = Math.hypot(nx, ny, nz), onrm = a.onrm;
  if (nl > 0) {
    nx /= nl; ny /= nl; nz /= nl;
    // X T v_b summed over the slots (T v_b: the body's velocity along its surface).
    for (let e = bs[i], e1 = bs[i + 1]; e < e1; e++) {
      const s = bj[e], c = bcoef[e];
      const dx = xi - opos[3 * s], dy = yi - opos[3 * s + 1], dz = zi - opos[3 * s + 2];
      const wx = ovel[3 * s], wy = ovel[3 * s + 1], wz = ovel[3 * s + 2], wn = wx * nx + wy * ny + wz * nz;
      const u = c * (dx * (wx - wn * nx) + dy * (wy - wn * ny) + dz * (wz - wn * nz));
      ux += u * dx; uy += u * dy; uz += u * dz;
    }
    // T X T = X − n (Xn)ᵀ − (Xn) nᵀ + (nᵀXn) n nᵀ; T u.
    const wx = oxx * nx + oxy * ny + oxz * nz, wy = oxy * nx + oyy * ny + oyz * nz, wz = oxz * nx + oyz * ny + ozz * nz;
    const q = nx * wx + ny * wy + nz * wz, un = ux * nx + uy * ny + uz * nz;
    dxx += oxx - 2 * nx * wx + q * nx * nx; dyy += oyy - 2 * ny * wy + q * ny * ny; dzz += ozz - 2 * nz * wz + q * nz * nz;
    dxy += oxy - nx * wy - wx * ny + q * nx * ny; dxz += oxz - nx * wz - wx * nz + q * nx * nz; dyz += oyz - ny * wz - wy * nz + q * ny * nz;
    bx += ux - un * nx; by += uy - un * ny; bz += uz - un * nz;
  }
  onrm[3 * i] = nx; onrm[3 * i + 1] = ny; onrm[3 * i + 2] = nz;
  // Walls: the diagonal part of every ghost (v_j → v_i for j = i) and the no-slip walls' u_w.
  for (let e = gs[i], e1 = gs[i + 1]; e < e1; e++) {
    const code = gj[e], j = (code / GHOST_WALLS) | 0, wo = WALL_STRIDE * (code - GHOST_WALLS * j);
    const axis = walls[wo], noslip = walls[wo + 2] === 1, c = gc[e], g = ghost(pos, i, j, axis, walls[wo + 1]);
    const gx = g.x, gy = g.y, gz = g.z;
    // x′x′ᵀ (slip) or B (no-slip) on v_i; the self ghost (j = i) adds its coupling too.
    let txx = gx * gx, tyy = gy * gy, tzz = gz * gz, txy = gx * gy, txz = gx * gz, tyz = gy * gz;
    if (noslip) {
      // B: the entries that pair the normal axis with another vanish.
      if (axis === 0) txy = txz = 0;
      else if (axis === 1) txy = tyz = 0;
      else txz = tyz = 0;
    }
    const f = j === i ? 2 * c : c;
    dxx += f * txx; dyy += f * tyy; dzz += f * tzz; dxy += f * txy; dxz += f * txz; dyz += f * tyz;
    if (noslip) {
      const ux = walls[wo + 3], uy = walls[wo + 4], uz = walls[wo + 5];
      bx += 2 * c * (txx * ux + txy * uy + txz * uz);
      by += 2 * c * (txy * ux + tyy * uy + tyz * uz);
      bz += 2 * c * (txz * ux + tyz * uy + tzz * uz);
    }
  }
  b[3 * i] = bx; b[3 * i + 1] = by; b[3 * i + 2] = bz;
  const o = 6 * i;
  pinv[o] = dxx; pinv[o + 1] = dyy; pinv[o + 2] = dzz; pinv[o + 3] = dxy; pinv[o + 4] = dxz; pinv[o + 5] = dyz;
}

/** One thread, half rows (each pair once, in row min(i, j), as g = √e x_ij): their blocks g gᵀ on both diagonals. */
function setupHalf(a: A, n: number): void {
  const { ls, lj, coef, pinv } = a;
  for (let i = 0; i < n; i++) {
    let dxx = 0, dyy = 0, dzz = 0, dxy = 0, dxz = 0, dyz = 0;
    for (let e = ls[i], e1 = ls[i + 1]; e < e1; e++) {
      const gx = coef[3 * e], gy = coef[3 * e + 1], gz = coef[3 * e + 2], xx = gx * gx, yy = gy * gy, zz = gz * gz, xy = gx * gy, xz = gx * gz, yz = gy * gz;
      const o = 6 * lj[e];
      pinv[o] += xx; pinv[o + 1] += yy; pinv[o + 2] += zz; pinv[o + 3] += xy; pinv[o + 4] += xz; pinv[o + 5] += yz;
      dxx += xx; dyy += yy; dzz += zz; dxy += xy; dxz += xz; dyz += yz;
    }
    const o = 6 * i;
    pinv[o] += dxx; pinv[o + 1] += dyy; pinv[o + 2] += dzz; pinv[o + 3] += dxy; pinv[o + 4] += dxz; pinv[o + 5] += dyz;
  }
}

/** Row i's diagonal block (xx, yy, zz, xy, xz, yz) in pinv, replaced by its inverse (cofactors over the determinant). */
function invertBlock(pinv: Float64Array, i: number): void {
  const o = 6 * i, dxx = pinv[o], dyy = pinv[o + 1], dzz = pinv[o + 2], dxy = pinv[o + 3], dxz = pinv[o + 4], dyz = pinv[o + 5];
  const cxx = dyy * dzz - dyz * dyz, cxy = dxz * dyz - dxy * dzz, cxz = dxy * dyz - dxz * dyy;
  const det = dxx * cxx + dxy * cxy + dxz * cxz, inv = 1 / det;
  pinv[o] = cxx * inv;
  pinv[o + 1] = (dxx * dzz - dxz * dxz) * inv;
  pinv[o + 2] = (dxx * dyy - dxy * dxy) * inv;
  pinv[o + 3] = cxy * inv;
  pinv[o + 4] = cxz * inv;
  pinv[o + 5] = (dxy * dxz - dxx * dyz) * inv;
}

/**
 * out = A v on one thread from half rows: each row's own terms (ρ_i v_i, objects, walls), then
 * each liquid pair once, u = g · (v_i − v_j) added as u g to row i and taken from row j.
 */
function applyHalf(a: A, v: Float64Array, out: Float64Array, n: number): void {
  const { ls, lj, coef } = a;
  for (let i = 0; i < n; i++) applyRow(a, i, v, out, false);
  for (let i = 0; i < n; i++) {
    const vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2];
    let sx = 0, sy = 0, sz = 0;
    for (let e = ls[i], e1 = ls[i + 1]; e < e1; e++) {
      const j = 3 * lj[e], gx = coef[3 * e], gy = coef[3 * e + 1], gz = coef[3 * e + 2];
      const u = gx * (vx - v[j]) + gy * (vy - v[j + 1]) + gz * (vz - v[j + 2]), ux = u * gx, uy = u * gy, uz = u * gz;
      sx += ux; sy += uy; sz += uz;
      out[j] -= ux; out[j + 1] -= uy; out[j + 2] -= uz;
    }
    out[3 * i] += sx; out[3 * i + 1] += sy; out[3 * i + 2] += sz;
  }
}

/** out_i = (A v)_i (see the header); without the liquid pairs unless `pairs` (half rows: applyHalf). */
function applyRow(a: A, i: number, v: Float64Array, out: Float64Array, pairs: boolean): void {
  const { pos, mat, ls, lj, bs, bj, opos, coef, bcoef, rho, walls, gs, gj, gc } = a;
  const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], mi = mat[i];
  const vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2], rhoi = rho[mi];
  let sx = rhoi * vx, sy = rhoi * vy, sz = rhoi * vz;
  for (let e = ls[i], e1 = pairs ? ls[i + 1] : ls[i]; e < e1; e++) {
    const j = lj[e];
    const dx = xi - pos[3 * j], dy = yi - pos[3 * j + 1], dz = zi - pos[3 * j + 2];
    const u = coef[e] * (dx * (vx - v[3 * j]) + dy * (vy - v[3 * j + 1]) + dz * (vz - v[3 * j + 2]));
    sx += u * dx; sy += u * dy; sz += u * dz;
  }
  const e0 = bs[i], e1 = bs[i + 1];
  if (e0 < e1) {
    // T X T v (setupRow): v on the tangent plane, X, and the result on the tangent plane.
    const onrm = a.onrm, nx = onrm[3 * i], ny = onrm[3 * i + 1], nz = onrm[3 * i + 2], vn = vx * nx + vy * ny + vz * nz;
    const tx = vx - vn * nx, ty = vy - vn * ny, tz = vz - vn * nz;
    let ox = 0, oy = 0, oz = 0;
    for (let e = e0; e < e1; e++) {
      const s = bj[e];
      const dx = xi - opos[3 * s], dy = yi - opos[3 * s + 1], dz = zi - opos[3 * s + 2];
      const u = bcoef[e] * (dx * tx + dy * ty + dz * tz);
      ox += u * dx; oy += u * dy; oz += u * dz;
    }
    const on = ox * nx + oy * ny + oz * nz;
    sx += ox - on * nx; sy += oy - on * ny; sz += oz - on * nz;
  }
  for (let e = gs[i], e1 = gs[i + 1]; e < e1; e++) {
    const code = gj[e], j = (code / GHOST_WALLS) | 0, wo = WALL_STRIDE * (code - GHOST_WALLS * j);
    const axis = walls[wo], c = gc[e], g = ghost(pos, i, j, axis, walls[wo + 1]), gx = g.x, gy = g.y, gz = g.z;
    // The ghost velocity: M v_j (slip) or −v_j (no-slip; u_w is in b).
    const wx = v[3 * j], wy = v[3 * j + 1], wz = v[3 * j + 2];
    if (walls[wo + 2] === 1) {
      const tx = vx + wx, ty = vy + wy, tz = vz + wz;
      // B t = ½ (x′ (x′·t) + M x′ ((M x′)·t)).
      const d1 = gx * tx + gy * ty + gz * tz;
      const mx = axis === 0 ? -gx : gx, my = axis === 1 ? -gy : gy, mz = axis === 2 ? -gz : gz;
      const d2 = mx * tx + my * ty + mz * tz;
      sx += 0.5 * c * (gx * d1 + mx * d2); sy += 0.5 * c * (gy * d1 + my * d2); sz += 0.5 * c * (gz * d1 + mz * d2);
    } else {
      const mwx = axis === 0 ? -wx : wx, mwy = axis === 1 ? -wy : wy, mwz = axis === 2 ? -wz : wz;
      const u = c * (gx * (vx - mwx) + gy * (vy - mwy) + gz * (vz - mwz));
      sx += u * gx; sy += u * gy; sz += u * gz;
    }
  }
  out[3 * i] = sx; out[3 * i + 1] = sy; out[3 * i + 2] = sz;
}

const g0 = { x: 0, y: 0, z: 0, r2: 0 };
/** x′ = x_i − M x_j for the wall `plane` across `axis` (module scratch: no allocation). */
export function ghost(pos: Float64Array, i: number, j: number, axis: number, plane: number): typeof g0 {
  let gx = pos[3 * i] - pos[3 * j], gy = pos[3 * i + 1] - pos[3 * j + 1], gz = pos[3 * i + 2] - pos[3 * j + 2];
  const s = pos[3 * i + axis] + pos[3 * j + axis] - 2 * plane;
  if (axis === 0) gx = s; else if (axis === 1) gy = s; else gz = s;
  g0.x = gx; g0.y = gy; g0.z = gz; g0.r2 = gx * gx + gy * gy + gz * gz;
  return g0;
}
