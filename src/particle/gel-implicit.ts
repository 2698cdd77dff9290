/**
 * Stage "gel" with particle.densitySolver "pbf": the gel's springs (gel.ts: Clavet, Beaudoin &
 * Poulin 2005 §5, their plastic flow as there) stepped once a sub-timestep among the non-pressure
 * forces, after the viscosity and before the pressure's second solve (with one solve, before it),
 * the order of DFSPH (Bender & Koschier 2017, Algorithm 1: non-pressure forces, then the density
 * solve) and of SPlisHSPlasH's elastic solids, whose force enters the velocity the pressure then
 * corrects. Acting in the moves after the solves, the springs' push on a wall was met by the
 * wall's pressure a sub-timestep late, a delayed spring that pumped a block resting against walls
 * (docs/decisions.md "A gel block at rest against walls").
 *
 * One explicit step over a whole sub-timestep would be past the stable elastic step (gel.ts
 * GEL_COURANT), so the step is implicit, as Peer, Gissler & Teschner 2018 ("An Implicit SPH
 * Formulation for Incompressible Linearly Elastic Solids", §4) step their elastic forces: backward
 * Euler on the spring forces, linearized about the positions at the start of the step,
 *
 *   (M + δt² K) Δv = δt (f(x) − δt K (v + c)),   the forces at x + δt (v + Δv + c),
 *
 * f_i = Σ_s k_s (r_s − L_s) n_s over i's springs (n_s the unit vector from i to its partner,
 * k_s = κ (1 − L_s/h) as gel.ts), K the springs' stiffness, each spring's block
 * H_s = k_s (n nᵀ + max(0, 1 − L/r) (I − n nᵀ)) coupling its two ends (the transverse part of a
 * compressed spring, negative, left out, so that K is positive semi-definite and the system
 * symmetric positive definite). It is stable at any δt, but its damping and the bias below grow
 * with the step: the sub-timestep is cut into the pieces the explicit springs take (gel.ts
 * gelPieces, at `moves` explicit steps a piece: a 2 mm jello at one piece rebounded to 0.77 of its
 * rest height, 1.12 at two, 1.21 with the explicit springs), and where it is cut each piece takes
 * two solves of δt/2, the positions moved on along the solves' path between them (1.19; two solves
 * of an uncut sub-timestep let a block creep down: docs/decisions.md, jelly18). c, the carry: backward Euler takes the springs where the velocity after them would
 * carry the particles, but the stages after the springs (the pressure's hold on a floor, the
 * moves' contacts, PBF) change that velocity, and at a whole sub-timestep the springs so taken were
 * softer by about 1 + ω²δt² (a 4 mm jello settled at 0.79 of its rest height, 0.90 with the
 * explicit springs). c is GEL_CARRY times what those stages did to each particle's velocity in the
 * last sub-timestep (its velocity at this sub-timestep's start less its velocity after the last
 * springs), expected again; at rest it makes the springs' own positions the ones they are taken
 * at. A carry of 1 let the jello creep down over 1 s (a lagged term with no margin); 0.75 holds.
 *
 * Solved matrix-free by conjugate gradients with a 3×3 block-Jacobi preconditioner (as Peer et al.
 * and SPlisHSPlasH's Elasticity_Peer2018 solve theirs), warm-started from the previous
 * sub-timestep's acceleration of each particle (by id), stopped where the preconditioned residual
 * r · P r is GEL_TOLERANCE² of b · P b (or the round-off floor GEL_FLOOR m/s). The sums are taken
 * per block of BLOCK particles and the blocks added in order by every thread, so any number of
 * threads, one included, gives the same bits. The iterate is shifted at the end by its momentum
 * over the mass of the particles with springs: the pair terms conserve momentum, a CG iterate
 * does not, and the shift puts it back to round-off.
 */
import type { StepContext } from './context.ts';
import { defineJob } from '../parallel/job.ts';
import { allocFloat64, isShared } from '../parallel/memory.ts';
import { runJob } from '../parallel/run-job.ts';
import { teamWork } from './work.ts';
import { gelPlasticRange as gelPlasticRange_, listSprings, plasticFactors, type GelState } from './gel.ts';
// Imported bindings are getters under tsx's module transform: copied to a module constant for the loops.
const gelPlasticRange = gelPlasticRange_;

/** Relative residual (preconditioned) the solve stops at. */
export const GEL_TOLERANCE = 1e-3;
/** Velocity (m/s) below which a residual is round-off's. */
export const GEL_FLOOR = 1e-9;
/** The share of the last sub-timestep's later stages the springs expect again (the header's c). */
export const GEL_CARRY = 0.75;
/** The carry where a piece takes two solves (it enters both): 0.75 let the 2 mm jello sink 0.03 over 1 s, 0.6 stands. */
export const GEL_CARRY_SPLIT = 0.6;
/** Most iterations a solve takes. */
export const GEL_MAX_ITERATIONS = 200;
/** Particles a partial sum covers. */
const BLOCK = 256;
/** Entries per spring in `coef`: n (3), k, k_t, k (r − L). */
const COEF = 6;

/** The solve's arrays (shared on a thread team), kept between sub-timesteps, and the warm start by id. */
export class GelSolve {
  x: Float64Array = new Float64Array(0);
  r: Float64Array = new Float64Array(0);
  p: Float64Array = new Float64Array(0);
  q: Float64Array = new Float64Array(0);
  pinv: Float64Array = new Float64Array(0);
  coef: Float64Array = new Float64Array(0);
  part: Float64Array = new Float64Array(0);
  out: Float64Array = new Float64Array(4);
  /** The last solve's Δv / δt per particle id (0 for an id not yet solved). */
  warm = new Float64Array(0);
  /** Per particle id: its velocity after the last solve, and the solve (solves + 1) that wrote it. */
  after = new Float64Array(0);
  stamp = new Int32Array(0);
  solves = 0;
  /** Per particle: what the rest of the last sub-timestep added to its velocity after the springs. */
  carry: Float64Array = new Float64Array(0);
  /** Per particle id: its velocity at the start of this sub-timestep (gelNoteStart). */
  begin = new Float64Array(0);
  private shared = false;

  size(n: number, springs: number, nextId: number, shared: boolean): void {
    const grow = (a: Float64Array, len: number, keep = false): Float64Array => {
      if (a.length >= len && (!shared || isShared(a))) return a;
      const b = allocFloat64(Math.ceil(len * 1.25) + 64, shared);
      if (keep) b.set(a);
      return b;
    };
    if (shared && !this.shared) {
      this.shared = true;
      this.out = grow(this.out, 4);
    }
    this.x = grow(this.x, 3 * n); this.r = grow(this.r, 3 * n); this.p = grow(this.p, 3 * n); this.q = grow(this.q, 3 * n);
    this.pinv = grow(this.pinv, 6 * n);
    this.coef = grow(this.coef, COEF * springs);
    this.part = grow(this.part, 9 * Math.ceil(n / BLOCK));
    this.carry = grow(this.carry, 3 * n);
    if (this.warm.length < 3 * nextId) {
      const len = Math.ceil(nextId * 1.25) + 64, w = new Float64Array(3 * len), af = new Float64Array(3 * len), bg = new Float64Array(3 * len);
      const st = new Int32Array(len);
      w.set(this.warm); af.set(this.after); bg.set(this.begin); st.set(this.stamp);
      this.warm = w; this.after = af; this.begin = bg; this.stamp = st;
    }
  }
}

/**
 * The springs' stage of a sub-timestep of δt = `dt`: the springs listed for this sub-timestep's
 * order (made and broken, gel.ts), their plastic flow over δt and the implicit step of their forces
 * into the velocities. Returns the conjugate-gradient iterations taken.
 */
export function stepGelImplicit(ctx: StepContext, dt: number): number {
  const gel = ctx.gel;
  if (gel === null) return 0;
  const L = ctx.liquid, n = L.count;
  listSprings(ctx, gel);
  if (ctx.shared && !isShared(gel.rest)) gel.shareRest();
  const solve = (gel.implicit ??= new GelSolve());
  solve.size(n, gel.count, L.nextId, ctx.shared);
  const x = solve.x, warm = solve.warm, ids = L.id;
  const CC = gel.solvesPerPiece > 1 ? GEL_CARRY_SPLIT : GEL_CARRY;
  const carry = solve.carry, after = solve.after, begin = solve.begin, stamp = solve.stamp, vel = L.vel, last = solve.solves;
  for (let i = 0; i < n; i++) {
    const w = 3 * ids[i], k = 3 * i, known = last > 0 && stamp[ids[i]] === last;
    carry[k] = known ? CC * (begin[w] - after[w]) : 0;
    carry[k + 1] = known ? CC * (begin[w + 1] - after[w + 1]) : 0;
    carry[k + 2] = known ? CC * (begin[w + 2] - after[w + 2]) : 0;
  }
  const K = gel.solvesPerPiece, h = dt / K, pos = L.pos;
  let iterations = 0;
  for (let sub = 0; sub < K; sub++) {
    plasticFactors(gel, h);
    const springs = ctx.runner.bind(gelSpringsJob), sa = springs.a;
    sa.pos = L.pos; sa.material = L.material; sa.a = gel.a; sa.b = gel.b; sa.rest = gel.rest; sa.coef = solve.coef;
    sa.limit = gel.limit; sa.grow = gel.grow; sa.shrink = gel.shrink; sa.fade = gel.fade; sa.stiffness = gel.stiffness;
    springs.s.materials = gel.materials; springs.s.invReach = 1 / gel.reach;
    runJob(springs, gel.count);
    for (let i = 0; i < n; i++) {
      const w = 3 * ids[i];
      x[3 * i] = warm[w] * h; x[3 * i + 1] = warm[w + 1] * h; x[3 * i + 2] = warm[w + 2] * h;
    }
    const job = ctx.runner.bind(gelSolveJob), a = job.a;
    a.x = x; a.r = solve.r; a.p = solve.p; a.q = solve.q; a.pinv = solve.pinv; a.part = solve.part; a.out = solve.out; a.vel = L.vel;
    a.carry = carry; a.coef = solve.coef; a.material = L.material; a.sa = gel.a; a.sb = gel.b; a.start = gel.start; a.rows = gel.rows; a.invMass = gel.invMass;
    job.s.dt = h; job.s.tol = GEL_TOLERANCE; job.s.floor = GEL_FLOOR; job.s.maxIter = GEL_MAX_ITERATIONS;
    runJob(job, n);
    iterations += solve.out[0];
    const inv = 1 / h;
    for (let i = 0; i < n; i++) {
      const w = 3 * ids[i];
      warm[w] = x[3 * i] * inv; warm[w + 1] = x[3 * i + 1] * inv; warm[w + 2] = x[3 * i + 2] * inv;
    }
    if (sub < K - 1) for (let k = 0; k < 3 * n; k++) pos[k] += h * (vel[k] + carry[k]);
  }
  if (K > 1) {
    // Where the solves' path took the positions, x + Σ h v_s, less what the moves will add at the
    // last velocity, δt v_K: the moves then end the piece where the path did (the carry cancels).
    for (let k = 0; k < 3 * n; k++) pos[k] += h * (vel[k] + carry[k]) - dt * (vel[k] + carry[k]);
  }
  for (let i = 0; i < n; i++) {
    const w = 3 * ids[i];
    after[w] = vel[3 * i]; after[w + 1] = vel[3 * i + 1]; after[w + 2] = vel[3 * i + 2];
    stamp[ids[i]] = last + 1;
  }
  solve.solves = last + 1;
  ctx.count('gelSolves');
  ctx.count('gelIterations', iterations);
  return iterations;
}

/** At the start of a sub-timestep (before its body forces): each particle's velocity by id, from which the carry is measured. */
export function gelNoteStart(ctx: StepContext): void {
  const solve = ctx.gel?.implicit;
  if (!solve) return;
  const L = ctx.liquid, ids = L.id, vel = L.vel, begin = solve.begin;
  solve.size(0, 0, L.nextId, false);
  for (let i = 0; i < L.count; i++) {
    const w = 3 * ids[i];
    begin[w] = vel[3 * i]; begin[w + 1] = vel[3 * i + 1]; begin[w + 2] = vel[3 * i + 2];
  }
}

/**
 * Springs [s0, s1): their plastic flow over δt (gel.ts gelPlasticRange), then each spring's
 * direction n (from a to b), stiffness k = κ (1 − L/h) along it, k max(0, 1 − L/r) across it, and
 * force k (r − L) into coef. A spring past its reach or of zero length gets zeros. Writes only its own entries.
 */
export function gelSpringsRange(s: Parameters<typeof gelSpringsJob.kernel>[0]['a'] & { materials: number; invReach: number }, s0: number, s1: number): void {
  gelPlasticRange(s, s0, s1);
  const { pos, material, a, b, rest, coef, stiffness, materials: nm, invReach } = s;
  for (let q = s0; q < s1; q++) {
    const i = a[q], j = b[q], o = COEF * q;
    const dx = pos[3 * j] - pos[3 * i], dy = pos[3 * j + 1] - pos[3 * i + 1], dz = pos[3 * j + 2] - pos[3 * i + 2];
    const r = Math.sqrt(dx * dx + dy * dy + dz * dz), L = rest[q], w = 1 - L * invReach;
    if (!(r > 0) || !(w > 0)) {
      coef[o] = coef[o + 1] = coef[o + 2] = coef[o + 3] = coef[o + 4] = coef[o + 5] = 0;
      continue;
    }
    const k = stiffness[material[i] * nm + material[j]] * w, inv = 1 / r;
    coef[o] = dx * inv; coef[o + 1] = dy * inv; coef[o + 2] = dz * inv;
    coef[o + 3] = k;
    coef[o + 4] = r > L ? k * (1 - L * inv) : 0;
    coef[o + 5] = k * (r - L);
  }
}

/** Plastic flow and the springs' coefficients (gelSpringsRange): each spring writes only its own. */
export const gelSpringsJob = defineJob({
  name: 'gelSprings',
  arrays: { rest: 'f64', coef: 'f64' },
  inputs: { pos: 'f64', material: 'u16', a: 'i32', b: 'i32', limit: 'f64', grow: 'f64', shrink: 'f64', fade: 'f64', stiffness: 'f64' },
  scalars: ['materials', 'invReach'],
  split: 'items',
  minItems: () => 8 * teamWork.minParticles,
  kernel(x) {
    gelSpringsRange({ ...x.a, materials: x.s.materials, invReach: x.s.invReach }, x.from, x.to);
  },
});

type SolveArgs = Parameters<typeof gelSolveJob.kernel>[0]['a'];

/** y_i = (A p)_i = m_i p_i + δt² Σ_s H_s (p_i − p_j) for particles [i0, i1); returns Σ p · y over them. */
function product(a: SolveArgs, p: Float64Array, y: Float64Array, dt2: number, i0: number, i1: number): number {
  const { coef, material, sa, sb, start, rows, invMass } = a;
  let py = 0;
  for (let i = i0; i < i1; i++) {
    const px = p[3 * i], pyy = p[3 * i + 1], pz = p[3 * i + 2];
    let sx = 0, sy = 0, sz = 0;
    for (let e = start[i], e1 = start[i + 1]; e < e1; e++) {
      const s = rows[e], j = sa[s] + sb[s] - i, o = COEF * s;
      const dx = px - p[3 * j], dy = pyy - p[3 * j + 1], dz = pz - p[3 * j + 2];
      const nx = coef[o], ny = coef[o + 1], nz = coef[o + 2], kt = coef[o + 4];
      const along = (coef[o + 3] - kt) * (nx * dx + ny * dy + nz * dz);
      sx += kt * dx + along * nx; sy += kt * dy + along * ny; sz += kt * dz + along * nz;
    }
    const m = 1 / invMass[material[i]];
    const yx = m * px + dt2 * sx, yy = m * pyy + dt2 * sy, yz = m * pz + dt2 * sz;
    y[3 * i] = yx; y[3 * i + 1] = yy; y[3 * i + 2] = yz;
    py += px * yx + pyy * yy + pz * yz;
  }
  return py;
}

/**
 * Rows [i0, i1): the right-hand side b = δt (f − δt K (v + c)), the diagonal block's inverse into pinv,
 * r = b − A x (x the warm start), p = P r; into part at `at`: per block, r · P r, b · P b and the
 * mass of the particles with springs.
 */
function setup(a: SolveArgs, dt: number, i0: number, i1: number, at: number, nb: number): void {
  const { carry, coef, material, sa, sb, start, rows, invMass, vel, x, r, p, pinv, part } = a;
  const dt2 = dt * dt;
  let rz = 0, bz = 0, mass = 0;
  for (let i = i0; i < i1; i++) {
    const vx = vel[3 * i] + carry[3 * i], vy = vel[3 * i + 1] + carry[3 * i + 1], vz = vel[3 * i + 2] + carry[3 * i + 2], xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2];
    let fx = 0, fy = 0, fz = 0, kx = 0, ky = 0, kz = 0, ax = 0, ay = 0, az = 0;
    let dxx = 0, dyy = 0, dzz = 0, dxy = 0, dxz = 0, dyz = 0;
    for (let e = start[i], e1 = start[i + 1]; e < e1; e++) {
      const s = rows[e], j = sa[s] + sb[s] - i, o = COEF * s;
      const nx = coef[o], ny = coef[o + 1], nz = coef[o + 2], k = coef[o + 3], kt = coef[o + 4], f = coef[o + 5], kl = k - kt;
      // The force on i (along n, from i to its partner) and K v, K x: H (w_i − w_j).
      const sign = sa[s] === i ? 1 : -1;
      fx += sign * f * nx; fy += sign * f * ny; fz += sign * f * nz;
      const ux = vx - vel[3 * j] - carry[3 * j], uy = vy - vel[3 * j + 1] - carry[3 * j + 1], uz = vz - vel[3 * j + 2] - carry[3 * j + 2], un = kl * (nx * ux + ny * uy + nz * uz);
      kx += kt * ux + un * nx; ky += kt * uy + un * ny; kz += kt * uz + un * nz;
      const wx = xi - x[3 * j], wy = yi - x[3 * j + 1], wz = zi - x[3 * j + 2], wn = kl * (nx * wx + ny * wy + nz * wz);
      ax += kt * wx + wn * nx; ay += kt * wy + wn * ny; az += kt * wz + wn * nz;
      dxx += kt + kl * nx * nx; dyy += kt + kl * ny * ny; dzz += kt + kl * nz * nz;
      dxy += kl * nx * ny; dxz += kl * nx * nz; dyz += kl * ny * nz;
    }
    const m = 1 / invMass[material[i]];
    const bx = dt * (fx - dt * kx), by = dt * (fy - dt * ky), bw = dt * (fz - dt * kz);
    const rx = bx - m * xi - dt2 * ax, ry = by - m * yi - dt2 * ay, rw = bw - m * zi - dt2 * az;
    r[3 * i] = rx; r[3 * i + 1] = ry; r[3 * i + 2] = rw;
    // The diagonal block m I + δt² Σ H_s, inverted.
    const cxx = m + dt2 * dxx, cyy = m + dt2 * dyy, czz = m + dt2 * dzz, cxy = dt2 * dxy, cxz = dt2 * dxz, cyz = dt2 * dyz;
    const ixx = cyy * czz - cyz * cyz, ixy = cxz * cyz - cxy * czz, ixz = cxy * cyz - cxz * cyy;
    const inv = 1 / (cxx * ixx + cxy * ixy + cxz * ixz), o = 6 * i;
    const pxx = ixx * inv, pyy = (cxx * czz - cxz * cxz) * inv, pzz = (cxx * cyy - cxy * cxy) * inv;
    const pxy = ixy * inv, pxz = ixz * inv, pyz = (cxy * cxz - cxx * cyz) * inv;
    pinv[o] = pxx; pinv[o + 1] = pyy; pinv[o + 2] = pzz; pinv[o + 3] = pxy; pinv[o + 4] = pxz; pinv[o + 5] = pyz;
    const zx = pxx * rx + pxy * ry + pxz * rw, zy = pxy * rx + pyy * ry + pyz * rw, zz = pxz * rx + pyz * ry + pzz * rw;
    p[3 * i] = zx; p[3 * i + 1] = zy; p[3 * i + 2] = zz;
    rz += rx * zx + ry * zy + rw * zz;
    bz += bx * (pxx * bx + pxy * by + pxz * bw) + by * (pxy * bx + pyy * by + pyz * bw) + bw * (pxz * bx + pyz * by + pzz * bw);
    if (start[i] < start[i + 1]) mass += m;
    if (i + 1 === i1 || (i + 1) % BLOCK === 0) {
      const b = ((i / BLOCK) | 0);
      part[at + b] = rz; part[at + nb + b] = bz; part[at + 2 * nb + b] = mass;
      rz = bz = mass = 0;
    }
  }
}

/**
 * The conjugate-gradient solve (preconditioned, p · A p, then r and r · P r, then p = P r + β p)
 * and the momentum shift, then v += Δv, as one job whose threads meet at barriers: each thread
 * takes whole blocks of BLOCK particles, its partial sums per block, every thread adding the
 * blocks in order. out: iterations, the relative residual left.
 */
export const gelSolveJob = defineJob({
  name: 'gelSolve',
  arrays: { x: 'f64', r: 'f64', p: 'f64', q: 'f64', pinv: 'f64', part: 'f64', out: 'f64', vel: 'f64' },
  inputs: { carry: 'f64', coef: 'f64', material: 'u16', sa: 'i32', sb: 'i32', start: 'i32', rows: 'i32', invMass: 'f64' },
  scalars: ['dt', 'tol', 'floor', 'maxIter'],
  split: 'ranks',
  minItems: () => teamWork.minParticles,
  kernel(w) {
    const a = w.a, { x, r, p, q, pinv, part, out, vel } = a, n = w.n, R = w.rank, T = w.size;
    const dt = w.s.dt, dt2 = dt * dt, maxIter = w.s.maxIter, nb = Math.ceil(n / BLOCK);
    const b0 = Math.floor((nb * R) / T), b1 = Math.floor((nb * (R + 1)) / T);
    const i0 = b0 * BLOCK, i1 = Math.min(n, b1 * BLOCK);
    // Regions of part: the set-up's three sums (S), p · A p (PA), r · P r (PB), the shift's four (PC).
    const S = 0, PA = 3 * nb, PB = 4 * nb, PC = 5 * nb;
    const sum = (at: number) => {
      let v = 0;
      for (let b = 0; b < nb; b++) v += part[at + b];
      return v;
    };
    setup(a, dt, i0, i1, S, nb);
    w.barrier();
    let rz = sum(S);
    const goal = w.s.tol * w.s.tol * sum(S + nb) + w.s.floor * w.s.floor * sum(S + 2 * nb);
    let it = 0;
    while (rz > goal && it < maxIter) {
      for (let b = b0; b < b1; b++) part[PA + b] = product(a, p, q, dt2, b * BLOCK, Math.min(n, (b + 1) * BLOCK));
      w.barrier();
      const pq = sum(PA);
      if (!(pq > 0)) break;
      const alpha = rz / pq;
      for (let b = b0; b < b1; b++) {
        let rz1 = 0;
        for (let i = b * BLOCK, e = Math.min(n, (b + 1) * BLOCK); i < e; i++) {
          const k = 3 * i, m = 6 * i;
          x[k] += alpha * p[k]; x[k + 1] += alpha * p[k + 1]; x[k + 2] += alpha * p[k + 2];
          const rx = r[k] - alpha * q[k], ry = r[k + 1] - alpha * q[k + 1], rw = r[k + 2] - alpha * q[k + 2];
          r[k] = rx; r[k + 1] = ry; r[k + 2] = rw;
          rz1 += rx * (pinv[m] * rx + pinv[m + 3] * ry + pinv[m + 4] * rw) + ry * (pinv[m + 3] * rx + pinv[m + 1] * ry + pinv[m + 5] * rw)
            + rw * (pinv[m + 4] * rx + pinv[m + 5] * ry + pinv[m + 2] * rw);
        }
        part[PB + b] = rz1;
      }
      w.barrier();
      const rz1 = sum(PB);
      it++;
      if (rz1 <= goal || it >= maxIter) {
        rz = rz1;
        break;
      }
      const beta = rz1 / rz;
      rz = rz1;
      for (let i = i0; i < i1; i++) {
        const k = 3 * i, m = 6 * i, rx = r[k], ry = r[k + 1], rw = r[k + 2];
        p[k] = pinv[m] * rx + pinv[m + 3] * ry + pinv[m + 4] * rw + beta * p[k];
        p[k + 1] = pinv[m + 3] * rx + pinv[m + 1] * ry + pinv[m + 5] * rw + beta * p[k + 1];
        p[k + 2] = pinv[m + 4] * rx + pinv[m + 5] * ry + pinv[m + 2] * rw + beta * p[k + 2];
      }
      w.barrier();
    }
    // The momentum the iterate carries, over the particles with springs, taken back uniformly.
    const { start, material, invMass } = a;
    for (let b = b0; b < b1; b++) {
      let mx = 0, my = 0, mz = 0, mass = 0;
      for (let i = b * BLOCK, e = Math.min(n, (b + 1) * BLOCK); i < e; i++) {
        if (start[i] === start[i + 1]) continue;
        const m = 1 / invMass[material[i]];
        mx += m * x[3 * i]; my += m * x[3 * i + 1]; mz += m * x[3 * i + 2]; mass += m;
      }
      part[PC + b] = mx; part[PC + nb + b] = my; part[PC + 2 * nb + b] = mz; part[PC + 3 * nb + b] = mass;
    }
    w.barrier();
    const mass = sum(PC + 3 * nb);
    const sx = mass > 0 ? sum(PC) / mass : 0, sy = mass > 0 ? sum(PC + nb) / mass : 0, sz = mass > 0 ? sum(PC + 2 * nb) / mass : 0;
    for (let i = i0; i < i1; i++) {
      if (start[i] === start[i + 1]) continue;
      const k = 3 * i;
      x[k] -= sx; x[k + 1] -= sy; x[k + 2] -= sz;
      vel[k] += x[k]; vel[k + 1] += x[k + 1]; vel[k + 2] += x[k + 2];
    }
    if (R === 0) {
      const bz = sum(S + nb);
      out[0] = it; out[1] = bz > 0 ? Math.sqrt(rz / bz) : 0;
    }
  },
});

