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
 * residual relative to that of v* (the change's size; viscosity-weiler.ts VISCOSITY_TOLERANCE). The
 * products A v are in viscosity-weiler-product.ts: on one thread from half rows (each liquid pair
 * once as its scalar e_ij, its block e x xᵀ; the stage lists them and adds the blocks to the
 * diagonal: viscosity-weiler-rows.ts), on a team from the same half rows, each thread sweeping its
 * own range of rows and gathering the pairs from the ranges below from the cross rows
 * (viscosity-weiler-team-rows.ts), every thread setting up and updating its own share; dot
 * products are added per thread and then over the threads in rank order (each thread adds the
 * same numbers in the same order, so all take the same step and stop together), between barriers:
 * three an iteration (iterateTeam). A given thread count repeats bit for bit. The right-hand side is
 * set up in p (free until the first direction), and z = P r is formed where it is used, not kept.
 * The iterate is shifted at the end by the residual's sum over the liquid's mass, which keeps the
 * liquid's momentum to round-off (the pair terms conserve it; a CG iterate does not).
 */
import { defineJob, type JobArrays } from '../parallel/job.ts';
import { PAIR_LIST_COST, VISCOSITY_MIN_PARTICLES } from './work.ts';
import { applyHalf, applyHalfPQ, applyHalfTwo, applyTeam, applyTeamTwo, type CrossRows, ghost, GHOST_WALLS, pairFactor, RED_STRIDE, Rows, WALL_STRIDE } from './viscosity-weiler-product.ts';
import { invertBlock, jacobiBound, jacobiStepSum, stepSum, teamBlocks } from './viscosity-weiler-jacobi.ts';
import { fillCross } from './viscosity-weiler-team-rows.ts';

export { GHOST_WALLS, pairFactor, RED_STRIDE, WALL_STRIDE };

/** The set-up's arrays beyond the products' (Rows), as fields of one class, made once a run. */
class Setup extends Rows {
  readonly vstar; readonly ovel; readonly ow; readonly pk; readonly ph; readonly pinv; readonly wb;
  /** Per-particle viscosity factors (temperature.ts), read when `thermal`. */
  readonly tf; readonly thermal: boolean;
  constructor(a: JobArrays<typeof weilerJob>, thermal: boolean) {
    super(a);
    this.tf = a.tf; this.thermal = thermal;
    this.vstar = a.vstar; this.ovel = a.ovel; this.ow = a.ow; this.pk = a.pk; this.ph = a.ph; this.pinv = a.pinv; this.wb = a.wb;
  }
}
type A = Setup;

export const weilerJob = defineJob({
  name: 'viscosity-weiler',
  arrays: { x: 'f64', r: 'f64', p: 'f64', q: 'f64', pinv: 'f32', onrm: 'f32', coef: 'u16', bcoef: 'f32', red: 'f64', xj: 'index', xc: 'u16', into: 'i32' },
  inputs: {
    pos: 'f64', vstar: 'f64', mat: 'u16', ls: 'i32', lj: 'index', bs: 'i32', bj: 'i32', opos: 'f64', ovel: 'f64', ow: 'f64',
    pk: 'f64', ph: 'f64', rho: 'f64', walls: 'f64', gs: 'i32', gj: 'i32', gc: 'f32', tf: 'f64', wa: 'i32', wd: 'f64', wb: 'f64',
    xs: 'i32', cdec: 'f64',
  },
  scalars: ['nm', 'tol', 'floor', 'maxIter', 'thermal', 'half', 'onB', 'parts'],
  split: 'items',
  // Cut by pairs, as the team's row listing (viscosity-weiler-team-rows.ts): its cross rows are those of these ranges.
  cost: { prefix: ['ls'], perItem: PAIR_LIST_COST.perItem },
  minItems: () => VISCOSITY_MIN_PARTICLES,
  kernel(x) {
    const a = new Setup(x.a, x.s.thermal === 1), { red } = x.a, rank = x.rank, T = x.size, from = x.from, to = x.to;
    const nm = x.s.nm, half = x.s.half === 1;
    const { r, p, q } = x.a, pinv = a.pinv, xs = x.a.x, cross: CrossRows = x.a;
    // A team's cross rows first (each thread its crossing pairs, at its count's cursors), then,
    // once every thread's are in, the pair blocks of its rows, each pair within its range once
    // (teamBlocks), as the half rows' stage does. The right-hand side b goes into p (free until the first direction).
    if (!half) {
      if (T !== x.s.parts) throw new Error(`viscosity rows: filled on ${T} threads, counted on ${x.s.parts}`);
      fillCross(x.a, x.n, rank, from, to);
      x.barrier();
      teamBlocks(a, cross, from, to);
    }
    // spread: the largest Σ_j ‖A_ij‖ over the rows' couplings to other particles, for jacobiBound.
    let spread = 0, rhoMin = Infinity;
    for (let i = from; i < to; i++) {
      const s = setupRow(a, i, nm, p);
      if (s > spread) spread = s;
      const rhoi = a.rho[a.mat[i]];
      if (rhoi < rhoMin) rhoMin = rhoi;
    }
    for (let i = from; i < to; i++) invertBlock(pinv, i);
    // The set-up reads the object slots' velocities from q (viscosity-weiler.ts), and the first
    // product writes it: every thread's set-up is over first.
    x.barrier();
    let rz = 0, rr = 0, bb = 0, b2 = 0, srho = 0;
    const o = RED_STRIDE * rank;
    const av = q;
    let sx = 0, sy = 0, sz = 0;
    // One thread, where one Jacobi step from v* meets the stop test whatever the warm start (the
    // liquid's viscosity is low: jacobiBound): the step alone, on one product (A v*).
    if (T === 1 && half && jacobiBound(spread, rhoMin) <= x.s.tol) {
      applyHalf(a, a.vstar, av, to);
      // d = b − A v* (b in p), z = P d into p, x = v* + z.
      for (let i = from; i < to; i++) {
        const k = 3 * i, m = 6 * i, vs = a.vstar;
        const dx = p[k] - av[k], dy = p[k + 1] - av[k + 1], dz = p[k + 2] - av[k + 2];
        const zx = pinv[m] * dx + pinv[m + 3] * dy + pinv[m + 4] * dz;
        const zy = pinv[m + 3] * dx + pinv[m + 1] * dy + pinv[m + 5] * dz;
        const zz = pinv[m + 4] * dx + pinv[m + 5] * dy + pinv[m + 2] * dz;
        p[k] = zx; p[k + 1] = zy; p[k + 2] = zz;
        xs[k] = vs[k] + zx; xs[k + 1] = vs[k + 1] + zy; xs[k + 2] = vs[k + 2] + zz;
        // Σ r after the step (see jacobiStepSum), its liquid part: d − ρ z.
        const rhoi = a.rho[a.mat[i]];
        sx += dx - rhoi * zx; sy += dy - rhoi * zy; sz += dz - rhoi * zz;
        srho += rhoi;
      }
      jacobiStepSum(a, p, from, to);
      sx -= stepSum[0]; sy -= stepSum[1]; sz -= stepSum[2];
      red[o + 5] = srho;
      results(red, 1, 1, 0, 1, 1);
      red[RED_STRIDE + 2] = 1;
    } else {
    // bb: |b − A v*|², the residual of the velocity before the solve (the viscous change's size),
    // which the tolerance is relative to; the warm start's own residual r = b − A x follows.
    if (half) applyHalfTwo(a, a.vstar, av, xs, r, to);
    else applyTeamTwo(a, cross, a.vstar, av, xs, r, from, to);
    // z = P r into p (the first direction; whole at the barrier below, where a team's Jacobi step reads its ghosts' sources).
    const z = p;
    for (let i = from; i < to; i++) {
      for (let k = 3 * i; k < 3 * i + 3; k++) {
        const bk = p[k], d = bk - av[k], rk = bk - r[k];
        bb += d * d;
        b2 += bk * bk;
        r[k] = rk;
        rr += rk * rk;
      }
      const o = 6 * i, rx = r[3 * i], ry = r[3 * i + 1], rw = r[3 * i + 2];
      const zx = pinv[o] * rx + pinv[o + 3] * ry + pinv[o + 4] * rw;
      const zy = pinv[o + 3] * rx + pinv[o + 1] * ry + pinv[o + 5] * rw;
      const zz = pinv[o + 4] * rx + pinv[o + 5] * ry + pinv[o + 2] * rw;
      z[3 * i] = zx; z[3 * i + 1] = zy; z[3 * i + 2] = zz;
      rz += rx * zx + ry * zy + rw * zz;
      srho += a.rho[a.mat[i]];
    }
    red[o + 1] = rz; red[o + 2] = rr; red[o + 3] = bb; red[o + 4] = b2; red[o + 5] = srho; red[o + 9] = jacobiBound(spread, rhoMin);
    x.barrier();
    rz = 0; rr = 0; bb = 0; b2 = 0;
    let kappa = 0;
    for (let t = 0; t < T; t++) {
      rz += red[RED_STRIDE * t + 1]; rr += red[RED_STRIDE * t + 2]; bb += red[RED_STRIDE * t + 3]; b2 += red[RED_STRIDE * t + 4];
      kappa = Math.max(kappa, red[RED_STRIDE * t + 9]);
    }
    // Where v* needs (next to) no change (a liquid in rigid motion), floor |b| is round-off's (viscosity-weiler.ts).
    const goal = x.s.tol * x.s.tol * (x.s.onB === 1 ? b2 : bb) + x.s.floor * x.s.floor * b2, maxIter = x.s.maxIter;
    if (rr > goal && kappa * kappa * rr <= goal && maxIter > 0) {
      // One Jacobi step from the warm start meets the stop test (jacobiBound): x += z, no product.
      for (let i = from; i < to; i++) {
        const k = 3 * i, rhoi = a.rho[a.mat[i]];
        xs[k] += z[k]; xs[k + 1] += z[k + 1]; xs[k + 2] += z[k + 2];
        sx += r[k] - rhoi * z[k]; sy += r[k + 1] - rhoi * z[k + 1]; sz += r[k + 2] - rhoi * z[k + 2];
      }
      jacobiStepSum(a, z, from, to);
      sx -= stepSum[0]; sy -= stepSum[1]; sz -= stepSum[2];
      if (rank === 0) {
        results(red, T, 1, 0, 1, 1);
        red[RED_STRIDE * T + 2] = 1;
      }
    } else {
      if (T === 1) iterateOne(x, a, half, goal, maxIter, bb, rz, rr);
      else iterateTeam(x, a, goal, maxIter, bb, rz, rr);
      // The pair terms cancel in Σ_i (A v)_i, so the residual's sum is the momentum (per rest
      // volume) the iterate lacks: a uniform shift puts it back, leaving the pair residuals as
      // they are (the liquid's momentum then holds to round-off away from walls and objects).
      for (let i = from; i < to; i++) {
        sx += r[3 * i]; sy += r[3 * i + 1]; sz += r[3 * i + 2];
      }
    }
    }
    // The residual's partial sums have entries of their own (6–8), which no thread reads while
    // another leaves the iterations: no barrier before them.
    red[o + 6] = sx; red[o + 7] = sy; red[o + 8] = sz;
    x.barrier();
    sx = sy = sz = srho = 0;
    for (let t = 0; t < T; t++) {
      sx += red[RED_STRIDE * t + 6]; sy += red[RED_STRIDE * t + 7]; sz += red[RED_STRIDE * t + 8]; srho += red[RED_STRIDE * t + 5];
    }
    if (srho > 0) {
      sx /= srho; sy /= srho; sz /= srho;
      for (let i = from; i < to; i++) {
        xs[3 * i] += sx; xs[3 * i + 1] += sy; xs[3 * i + 2] += sz;
      }
    }
  },
});

type WeilerArgs = Parameters<typeof weilerJob.kernel>[0];

/** The iterations taken and the relative residual left (0 where it met the goal), after the threads' entries of red. */
function results(red: Float64Array, T: number, it: number, rr: number, goal: number, bb: number): void {
  red[RED_STRIDE * T] = it;
  red[RED_STRIDE * T + 1] = rr <= goal ? 0 : Math.sqrt(rr / bb);
  red[RED_STRIDE * T + 2] = 0;
}


/**
 * One thread's iterations (preconditioned CG as SPlisHSPlasH takes it: p · A p, then r and r · P r,
 * then p = P r + β p), from the first direction p = P r. With half rows and q right after p in
 * memory, p and q = A p are taken interleaved in their 6n doubles (p_i at 6i, q_i at 6i + 3:
 * viscosity-weiler-product.ts applyHalfPQ), spread in place from p; the same arithmetic either way.
 */
function iterateOne(x: WeilerArgs, a: A, half: boolean, goal: number, maxIter: number, bb: number, rz: number, rr: number): void {
  const { r, p, q, red } = x.a, pinv = a.pinv, xs = x.a.x, cross: CrossRows = x.a, from = x.from, to = x.to;
  const pq = half && from === 0 && p.buffer === q.buffer && q.byteOffset === p.byteOffset + 8 * p.length && 6 * to <= p.length + q.length
    ? new Float64Array(p.buffer, p.byteOffset, 6 * to) : null;
  // p_i to 6i, from the last row down (6i + c ≥ 3i + c: what a row overwrites has been moved).
  if (pq) for (let i = to - 1; i >= 0; i--) {
    pq[6 * i + 2] = pq[3 * i + 2]; pq[6 * i + 1] = pq[3 * i + 1]; pq[6 * i] = pq[3 * i];
  }
  const P = pq ?? p, Q = pq ?? q, sp = pq ? 6 : 3, qo = pq ? 3 : 0;
  let it = 0;
  while (rr > goal && it < maxIter) {
    const pAp = pq ? applyHalfPQ(a, pq, to) : half ? applyHalf(a, p, q, to) : applyTeam(a, cross, p, q, from, to);
    if (!(pAp > 0)) break;
    const alpha = rz / pAp;
    let rz1 = 0;
    rr = 0;
    for (let i = from; i < to; i++) {
      const k = 3 * i, pk = sp * i, qk = pk + qo;
      xs[k] += alpha * P[pk]; xs[k + 1] += alpha * P[pk + 1]; xs[k + 2] += alpha * P[pk + 2];
      const rx = r[k] - alpha * Q[qk], ry = r[k + 1] - alpha * Q[qk + 1], rw = r[k + 2] - alpha * Q[qk + 2];
      r[k] = rx; r[k + 1] = ry; r[k + 2] = rw;
      rr += rx * rx + ry * ry + rw * rw;
      const m = 6 * i;
      rz1 += rx * (pinv[m] * rx + pinv[m + 3] * ry + pinv[m + 4] * rw) + ry * (pinv[m + 3] * rx + pinv[m + 1] * ry + pinv[m + 5] * rw)
        + rw * (pinv[m + 4] * rx + pinv[m + 5] * ry + pinv[m + 2] * rw);
    }
    it++;
    if (rr <= goal || it >= maxIter) break;
    const beta = rz1 / rz;
    rz = rz1;
    // p = P r + β p.
    for (let i = from; i < to; i++) {
      const k = 3 * i, m = 6 * i, pk = sp * i, rx = r[k], ry = r[k + 1], rw = r[k + 2];
      P[pk] = pinv[m] * rx + pinv[m + 3] * ry + pinv[m + 4] * rw + beta * P[pk];
      P[pk + 1] = pinv[m + 3] * rx + pinv[m + 1] * ry + pinv[m + 5] * rw + beta * P[pk + 1];
      P[pk + 2] = pinv[m + 4] * rx + pinv[m + 5] * ry + pinv[m + 2] * rw + beta * P[pk + 2];
    }
  }
  results(red, 1, it, rr, goal, bb);
}

/**
 * A team's iterations: the same preconditioned CG as one thread's (p · A p, then r and r · P r,
 * then p = P r + β p), from the first direction p = P r, each thread over its own rows, the dot
 * products summed per thread and then over the threads in rank order, between three barriers an
 * iteration: p · A p summed; r · P r and |r|² summed; p whole for the next product, which reads the
 * other threads' p through the cross rows and the half rows' entries beyond the range (a form
 * with two kept z = P r as a vector of its own: docs/decisions.md, branch mem62).
 */
function iterateTeam(x: WeilerArgs, a: A, goal: number, maxIter: number, bb: number, rz: number, rr: number): void {
  const { r, p, q, red } = x.a, pinv = a.pinv, xs = x.a.x, cross: CrossRows = x.a, from = x.from, to = x.to;
  const T = x.size, o = RED_STRIDE * x.rank;
  let it = 0;
  while (rr > goal && it < maxIter) {
    red[o] = applyTeam(a, cross, p, q, from, to);
    x.barrier();
    let pq = 0;
    for (let t = 0; t < T; t++) pq += red[RED_STRIDE * t];
    if (!(pq > 0)) break;
    const alpha = rz / pq;
    let rz1 = 0;
    rr = 0;
    for (let i = from; i < to; i++) {
      const k = 3 * i;
      xs[k] += alpha * p[k]; xs[k + 1] += alpha * p[k + 1]; xs[k + 2] += alpha * p[k + 2];
      const rx = r[k] - alpha * q[k], ry = r[k + 1] - alpha * q[k + 1], rw = r[k + 2] - alpha * q[k + 2];
      r[k] = rx; r[k + 1] = ry; r[k + 2] = rw;
      rr += rx * rx + ry * ry + rw * rw;
      const m = 6 * i;
      rz1 += rx * (pinv[m] * rx + pinv[m + 3] * ry + pinv[m + 4] * rw) + ry * (pinv[m + 3] * rx + pinv[m + 1] * ry + pinv[m + 5] * rw)
        + rw * (pinv[m + 4] * rx + pinv[m + 5] * ry + pinv[m + 2] * rw);
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
    // p = P r + β p, then every thread's p whole.
    for (let i = from; i < to; i++) {
      const k = 3 * i, m = 6 * i, rx = r[k], ry = r[k + 1], rw = r[k + 2];
      p[k] = pinv[m] * rx + pinv[m + 3] * ry + pinv[m + 4] * rw + beta * p[k];
      p[k + 1] = pinv[m + 3] * rx + pinv[m + 1] * ry + pinv[m + 5] * rw + beta * p[k + 1];
      p[k + 2] = pinv[m + 4] * rx + pinv[m + 5] * ry + pinv[m + 2] * rw + beta * p[k + 2];
    }
    x.barrier();
  }
  if (x.rank === 0) results(red, T, it, rr, goal, bb);
}

/**
 * Row i's diagonal block (xx, yy, zz, xy, xz, yz) and right-hand side (x, y, z) as they are summed
 * (module scratch: setupRow's parts are separate functions, small enough for V8 to inline what
 * they call, so that no double is boxed for a call).
 */
const sum = new Float64Array(10);

/**
 * Row i's object coefficients (bcoef, single precision), its right-hand side b_i and its diagonal
 * block (inverted next); the liquid pair coefficients (coef) come from the stage, which evaluates
 * each pair once (viscosity-weiler-rows.ts).
 */
function setupRow(a: A, i: number, nm: number, b: Float64Array): number {
  const { vstar, mat, pinv, wa, wd, wb } = a;
  const rhoi = a.rho[mat[i]], o = 6 * i;
  // Σ_j ‖e_ij x_ij x_ijᵀ‖ = the trace of the pair blocks' sum (jacobiBound); the ghosts' couplings follow in sum[9].
  const pairSpread = pinv[o] + pinv[o + 1] + pinv[o + 2];
  sum[9] = 0;
  // The pair blocks Σ e x xᵀ are in pinv: put there by the stage on one thread (viscosity-weiler-rows.ts
  // halfRows), by teamBlocks on a team. The walls' uncovered drag (viscosity-weiler-wall-cover.ts)
  // is diagonal: wd on v_i, wb in b (0 in a row it does not cover).
  const w = i < wa.length ? 3 * wa[i] : -1, covered = w >= 0;
  const wdx = covered ? wd[w] : 0, wdy = covered ? wd[w + 1] : 0, wdz = covered ? wd[w + 2] : 0;
  const dxx = rhoi + wdx + pinv[o], dyy = rhoi + wdy + pinv[o + 1], dzz = rhoi + wdz + pinv[o + 2];
  const dxy = pinv[o + 3], dxz = pinv[o + 4], dyz = pinv[o + 5];
  sum[0] = dxx; sum[1] = dyy; sum[2] = dzz; sum[3] = dxy; sum[4] = dxz; sum[5] = dyz;
  sum[6] = rhoi * vstar[3 * i] + (covered ? wb[w] : 0);
  sum[7] = rhoi * vstar[3 * i + 1] + (covered ? wb[w + 1] : 0);
  sum[8] = rhoi * vstar[3 * i + 2] + (covered ? wb[w + 2] : 0);
  if (a.bs[i] < a.bs[i + 1]) objectTerms(a, i, nm);
  else a.onrm[3 * i] = a.onrm[3 * i + 1] = a.onrm[3 * i + 2] = 0;
  if (a.gs[i] < a.gs[i + 1]) wallTerms(a, i);
  b[3 * i] = sum[6]; b[3 * i + 1] = sum[7]; b[3 * i + 2] = sum[8];
  pinv[o] = sum[0]; pinv[o + 1] = sum[1]; pinv[o + 2] = sum[2]; pinv[o + 3] = sum[3]; pinv[o + 4] = sum[4]; pinv[o + 5] = sum[5];
  return pairSpread + sum[9];
}


/**
 * Object terms of row i into `sum`: X = Σ_b e_ib x_ib x_ibᵀ taken on the body's tangent plane
 * (T X T, T = I − n nᵀ, n the direction of Σ_b e_ib x_ib: see the header), and T X T v_b into b;
 * n into onrm.
 */
function objectTerms(a: A, i: number, nm: number): void {
  const { pos, mat, bs, bj, opos, ovel, ow, pk, ph, bcoef, tf, thermal } = a;
  const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], self = mat[i] * (nm + 1), hi = ph[self], ki = pk[self];
  const fi = thermal ? tf[i] : 1;
  let oxx = 0, oyy = 0, ozz = 0, oxy = 0, oxz = 0, oyz = 0, ux = 0, uy = 0, uz = 0, nx = 0, ny = 0, nz = 0;
  for (let e = bs[i], e1 = bs[i + 1]; e < e1; e++) {
    const s = bj[e];
    const dx = xi - opos[3 * s], dy = yi - opos[3 * s + 1], dz = zi - opos[3 * s + 2];
    const c = Math.fround(ki * ow[s] * pairFactor(dx * dx + dy * dy + dz * dz, hi) * fi);
    bcoef[e] = c;
    oxx += c * dx * dx; oyy += c * dy * dy; ozz += c * dz * dz; oxy += c * dx * dy; oxz += c * dx * dz; oyz += c * dy * dz;
    nx += c * dx; ny += c * dy; nz += c * dz;
  }
  const nl = Math.sqrt(nx * nx + ny * ny + nz * nz), onrm = a.onrm;
  if (nl > 0) {
    // n as the products read it back (single precision), so that b and A take the same plane.
    nx = Math.fround(nx / nl); ny = Math.fround(ny / nl); nz = Math.fround(nz / nl);
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
    sum[0] += oxx - 2 * nx * wx + q * nx * nx; sum[1] += oyy - 2 * ny * wy + q * ny * ny; sum[2] += ozz - 2 * nz * wz + q * nz * nz;
    sum[3] += oxy - nx * wy - wx * ny + q * nx * ny; sum[4] += oxz - nx * wz - wx * nz + q * nx * nz; sum[5] += oyz - ny * wz - wy * nz + q * ny * nz;
    sum[6] += ux - un * nx; sum[7] += uy - un * ny; sum[8] += uz - un * nz;
  }
  onrm[3 * i] = nx; onrm[3 * i + 1] = ny; onrm[3 * i + 2] = nz;
}

/** Wall terms of row i into `sum`: the diagonal part of every ghost (v_j → v_i for j = i) and the no-slip walls' u_w. */
function wallTerms(a: A, i: number): void {
  const { pos, walls, gs, gj, gc } = a;
  for (let e = gs[i], e1 = gs[i + 1]; e < e1; e++) {
    const code = gj[e], j = (code / GHOST_WALLS) | 0, wo = WALL_STRIDE * (code - GHOST_WALLS * j);
    const axis = walls[wo], noslip = walls[wo + 2] === 1, c = gc[e], g = ghost(pos, i, j, walls, wo);
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
    // A ghost of another particle couples v_i to v_j with c x′x′ᵀ M or c B (norm ≤ c |x′|²: jacobiBound).
    if (j !== i) sum[9] += c * (gx * gx + gy * gy + gz * gz);
    sum[0] += f * txx; sum[1] += f * tyy; sum[2] += f * tzz; sum[3] += f * txy; sum[4] += f * txz; sum[5] += f * tyz;
    if (noslip) {
      const ux = walls[wo + 3], uy = walls[wo + 4], uz = walls[wo + 5];
      sum[6] += 2 * c * (txx * ux + txy * uy + txz * uz);
      sum[7] += 2 * c * (txy * ux + tyy * uy + tyz * uz);
      sum[8] += 2 * c * (txz * ux + tyz * uy + tzz * uz);
    }
  }
}


