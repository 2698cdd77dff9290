/**
 * Stage "thin" (particle.thinPull > 0): a pressure that may pull, where the liquid is sparsely sampled, estimated
 * at a second, larger scale and filtered with a kernel shaped to the feature — the internal-pressure adjustment of
 * He, Wang, Zhang, Wang, Wang & Zhou 2014, "Robust simulation of sparsely sampled thin features in SPH-based free
 * surface flows", ACM TOG 34(1) 7, as its abstract states it ("we propose to adjust the internal pressure force by
 * estimating the internal pressure at two scales and filtering the force using a geometry-aware anisotropic
 * kernel"); the paper's own equations were not at hand (docs/decisions.md, "Stop 66: thin sheets", says what was
 * read and what is this file's own choice).
 *
 * Why. The engine's pressure never pulls (pressure-kernels.ts: p ≥ 0), so nothing resists a sheet or a thread a
 * few particles thick from opening as it stretches: its particles drift apart into a net of one-particle threads
 * (gel-fan's curtain, paint-drops' drips). A pressure that pulls at the density kernel's own scale h draws such a
 * sheet into beads (the tensile instability; docs/decisions.md "cup-pour's tail at the implicit default"): with the
 * cubic spline of support h, neighbours at the rest spacing 2r = h/2 sit past the slope's peak (q = 1/3), where
 * the pull grows as two particles close, so pairs clump. Here:
 * - The small scale keeps the push: the pressure solves (pressure.ts) are unchanged.
 * - The pull is found at the large scale H = THIN_SCALE h (2h = 8r at the default kernel): its neighbours at 2r sit
 *   at q = 1/4, on the rising side of the slope, where the pull weakens as two particles close; and over 2h a sheet
 *   a few particles thick is sampled by enough of them to be read as a continuum.
 * - It acts against dilation only: the velocities' rate of change of the large-scale density,
 *   D_a = Σ_b (v_a − v_b)·∇_a W_H(x_ab), is cancelled where negative (the liquid opening up), never where the
 *   liquid is at rest or compressing, by DFSPH's divergence step with the sign's constraint turned over (Bender &
 *   Koschier 2017): λ_a = max(0, −ω D_a / (|Σ_b ∇W_ab|² + Σ_b |∇W_ab|²)), Δv_a = Σ_b (λ_a + λ_b) ∇_a W_ab,
 *   THIN_PASSES Jacobi passes, ω = particle.thinPull. A sheet that thins as a whole (stretch along, contraction
 *   across: no dilation) is left alone; only holes opening are resisted.
 * - Only sparsely sampled particles in a thin feature take a λ: ρ/ρ0 below THIN_SPARSE after the last density
 *   correction (a free surface, a sheet, a thread), λ_2 / λ_0 of their neighbourhood within H below THIN_FLAT (a
 *   sheet up to two particles thick, a thread, the outer row of a surface; not the rows under it), and not next to a
 *   body: films and coats on a body are left to the walls' and objects' stages (pulled, a coat's paints run into
 *   each other: paint-drops' blue cap took yellow spots). Next to a body is within the objects' own reach of its
 *   surface at the stage's positions — the signed distance under GUARD r + the object adhesion's support
 *   (StepContext.objectReach) + r_o, where an object's particles act on the liquid — evaluated for the particles
 *   LiquidParticles.nearObject flags alone; that flag's margin adds twice the sub-timestep's travel for the contact
 *   lists, which, with a drip falling at 2 m/s, took in everything within 4 cm of paint-drops' ball, the drips'
 *   necks included (docs/decisions.md, "paint-drops' drips"). Their neighbours, sparse or not, take the pairs' equal
 *   and opposite share.
 * - Each pass's Δv of a sparse particle is filtered with an anisotropic kernel over its neighbours within H (Yu &
 *   Turk 2013's construction, as surface/anisotropic.ts meshes with: the weighted covariance of the neighbours, its
 *   axes; the kernel's radius along each axis H √(λ_k / λ_0), at least H / THIN_KR), so a sheet's pull is smoothed
 *   within its plane, where particle-scale differences gather particles into clumps, and kept across it.
 * Equal volumes are assumed (the liquids' own densities do not weigh the pairs). The WebGPU backend runs the same
 * stage (gpu/thin-pull.ts).
 *
 * Where it runs: after the pressure's last solve and before the moves, over the sub-timestep's liquid cells
 * (StepContext.cells: edge ctx.reach ≥ h, the liquid sorted by them at the sub-timestep's start). Since that sort
 * the positions have moved a little (the second solve's position shift, pressure-shift.ts; the nozzles' hold), so
 * the stage takes each cell's box at the current positions and how far any particle has left its cell (o, in
 * cells): a pair within H is then at most R = ⌈H / edge + 2 o⌉ cells apart on each axis, R = 2 at the default
 * kernels (edge 1.25 h, H = 1.6 edges) until a particle has moved a fifth of a cell. A cell with a sparse
 * particle lists the occupied cells within R whose box comes within H of its own; its sparse particles scan
 * those, skipping a cell whose box is out of H of them. The listing, the rows' shapes and the passes are jobs
 * (thin-pull-jobs.ts) on the thread team where the engine has one; its rooms are its own (ThinRoom, one per
 * context).
 */
import type { StepContext } from './context.ts';
import { allocFloat64, allocInt32, allocUint8 } from '../parallel/memory.ts';
import { runJob } from '../parallel/run-job.ts';
import { NeighbourList } from './neighbours.ts';
import { boxGap2 } from './object-cells.ts';
import { GUARD, withinReachOfBody } from './boundaries.ts';
import { thinApplyJob, thinGradJob, thinListJob, thinPassJob, thinShapeJob } from './thin-pull-jobs.ts';

export { THIN_KR } from './thin-pull-jobs.ts';

/** The pull's support over the density kernel's, H / h. */
export const THIN_SCALE = 2;
/** ρ/ρ0 under which a particle is sparsely sampled and takes a pull (a bulk reads about 1, a free surface 0.5–0.8). */
export const THIN_SPARSE = 0.9;
/** Jacobi passes of the pull a sub-timestep. */
export const THIN_PASSES = 4;
/**
 * λ_2 / λ_0 of the neighbourhood within H (its weighted covariance) under which a sparse particle is in a thin
 * feature and takes a pull. On lattices (spacing 2r): a one-particle sheet 0, two particles thick 0.20, three 0.47,
 * the outer row of a block's face 0.42, the row under it 0.73. With no bound the rows under a resting pool's surface
 * take part, and a 10 cm water pool no longer rests to 0.005 √(g h); at 0.15–0.25 gel-fan's curtain, 3–5 particles
 * thick, is mostly left to tear (docs/decisions.md, "Stop 66: thin sheets").
 */
export const THIN_FLAT = 0.45;

/** The stage's rooms, grown as the liquid and its cells grow, kept between sub-timesteps (on shared memory with a team). */
class ThinRoom {
  /** Per particle: sparse (1) or not, its cell, the candidates its scan visits (a prefix, n + 1), λ, Δv (3), den and flat. */
  sp = new Uint8Array(0);
  pCell = new Int32Array(0);
  cp = new Int32Array(0);
  lam = new Float64Array(0);
  dv = new Float64Array(0);
  den = new Float64Array(0);
  flat = new Float64Array(0);
  /** Per cell: its particles' box at the current positions (6), its candidate cells cand[candFirst[c] .. candFirst[c + 1]) and their particles. */
  cbox = new Float64Array(0);
  candFirst = new Int32Array(0);
  cand = new Int32Array(0);
  room = new Int32Array(0);
  /** Per pair of the list: the filter's weight; per pair of a thin row: ∇_a W_H (3), the rows' from pgFirst (n + 1). */
  fw = new Float64Array(0);
  pg = new Float64Array(0);
  pgFirst = new Int32Array(0);
  readonly pairs = new NeighbourList();
  around = new Int32Array(0);
  constructor(private readonly ctx: StepContext) {
    this.pairs.shared = ctx.shared;
  }
  private grown<T extends Float64Array | Int32Array | Uint8Array>(a: T, n: number, alloc: (m: number, shared: boolean) => T): T {
    if (a.length >= n) return a;
    if (a.length > 0) this.ctx.runner.release(a.buffer);
    return alloc(Math.ceil(n * 1.25) + 16, this.ctx.shared);
  }
  ensure(n: number, nc: number): void {
    this.sp = this.grown(this.sp, n, allocUint8); this.pCell = this.grown(this.pCell, n, allocInt32); this.cp = this.grown(this.cp, n + 1, allocInt32);
    this.lam = this.grown(this.lam, n, allocFloat64); this.pgFirst = this.grown(this.pgFirst, n + 1, allocInt32); this.dv = this.grown(this.dv, 3 * n, allocFloat64);
    this.den = this.grown(this.den, n, allocFloat64); this.flat = this.grown(this.flat, n, allocFloat64);
    this.cbox = this.grown(this.cbox, 6 * nc, allocFloat64); this.candFirst = this.grown(this.candFirst, nc + 1, allocInt32);
    this.room = this.grown(this.room, nc, allocInt32);
  }
  ensureCand(m: number): void {
    if (this.cand.length >= m) return;
    const bigger = allocInt32(Math.ceil(m * 1.5) + 256, this.ctx.shared);
    bigger.set(this.cand);
    if (this.cand.length > 0) this.ctx.runner.release(this.cand.buffer);
    this.cand = bigger;
  }
  ensurePairs(p: number): void {
    this.fw = this.grown(this.fw, p, allocFloat64);
  }
  ensureGradients(p: number): void {
    this.pg = this.grown(this.pg, 3 * p, allocFloat64);
  }
}
const rooms = new WeakMap<StepContext, ThinRoom>();

/** Applies the pull for a sub-timestep; returns how many particles took part (sparse ones). */
export function pullThin(ctx: StepContext): number {
  const omega = ctx.scene.particle.thinPull;
  const L = ctx.liquid, n = L.count;
  if (!(omega > 0) || n < 2) return 0;
  let room = rooms.get(ctx);
  if (!room) rooms.set(ctx, (room = new ThinRoom(ctx)));
  const g = ctx.cells.grid, nc = g.cellCount, start = g.start, count = g.count;
  const held = nc === 0 ? 0 : start[nc - 1] + count[nc - 1];
  if (held !== n) throw new Error(`thin pull: the liquid cells hold ${held} particles, the liquid ${n}: not sorted this sub-timestep`);
  room.ensure(n, nc);
  const pos = L.pos, rho = L.density, near = L.nearObject;
  const H = THIN_SCALE * ctx.densityH, H2 = H * H, inv = 1 / g.cellSize;
  // Next to a body: within the objects' own reach of one (see the header), at the current positions.
  const bodyReach = GUARD * ctx.r + ctx.objectReach + ctx.ro;

  // The sparse particles, their cells, the cells' boxes at the current positions and how far (in cells) any
  // particle has left the cell it was sorted into.
  const sp = room.sp, pCell = room.pCell, cbox = room.cbox, candFirst = room.candFirst;
  let ns = 0, over = 0;
  for (let c = 0; c < nc; c++) {
    const a0 = start[c], a1 = a0 + count[c];
    let x0 = pos[3 * a0], y0 = pos[3 * a0 + 1], z0 = pos[3 * a0 + 2], x1 = x0, y1 = y0, z1 = z0, k = 0;
    for (let a = a0; a < a1; a++) {
      const x = pos[3 * a], y = pos[3 * a + 1], z = pos[3 * a + 2];
      if (x < x0) x0 = x; else if (x > x1) x1 = x;
      if (y < y0) y0 = y; else if (y > y1) y1 = y;
      if (z < z0) z0 = z; else if (z > z1) z1 = z;
      pCell[a] = c;
      const s = rho[a] < THIN_SPARSE && (!near[a] || !withinReachOfBody(ctx, x, y, z, bodyReach)) ? 1 : 0;
      sp[a] = s;
      k += s;
    }
    const b = 6 * c;
    cbox[b] = x0; cbox[b + 1] = y0; cbox[b + 2] = z0; cbox[b + 3] = x1; cbox[b + 4] = y1; cbox[b + 5] = z1;
    const ci = g.cellI[c], cj = g.cellJ[c], ck = g.cellK[c];
    over = Math.max(over, ci - x0 * inv, x1 * inv - ci - 1, cj - y0 * inv, y1 * inv - cj - 1, ck - z0 * inv, z1 * inv - ck - 1);
    // (candFirst[c]: the cell's sparse particles, until the cells are listed below.)
    candFirst[c] = k;
    ns += k;
  }
  if (ns === 0) return 0;

  // Each cell with a sparse particle: the occupied cells within R whose box comes within H of its own.
  const R = Math.ceil(H * inv + 2 * over + 1e-9), wanted = (2 * R + 1) ** 3;
  if (room.around.length < wanted) room.around = new Int32Array(wanted);
  const around = room.around, roomOf = room.room;
  let m = 0;
  for (let c = 0; c < nc; c++) {
    const had = candFirst[c];
    candFirst[c] = m;
    roomOf[c] = 0;
    if (had === 0) continue;
    const k = g.neighborCells(c, around, R), b = 6 * c;
    room.ensureCand(m + k);
    const cand = room.cand;
    let r = 0;
    for (let q = 0; q < k; q++) {
      const c2 = around[q];
      if (boxGap2(cbox, c2, cbox[b], cbox[b + 1], cbox[b + 2], cbox[b + 3], cbox[b + 4], cbox[b + 5]) >= H2) continue;
      cand[m++] = c2;
      r += count[c2];
    }
    roomOf[c] = r;
  }
  candFirst[nc] = m;
  const cp = room.cp;
  cp[0] = 0;
  for (let a = 0; a < n; a++) cp[a + 1] = cp[a] + (sp[a] ? roomOf[pCell[a]] : 0);

  // Each sparse particle's neighbours within H.
  const pairs = room.pairs;
  pairs.reset(n);
  const list = ctx.runner.bind(thinListJob);
  Object.assign(list.a, { pos, sp, pCell, start, count, candFirst, cand: room.cand, cbox, cp });
  list.s.H2 = H2;
  list.lists.pairs = pairs;
  runJob(list, n);
  pairs.start[n] = pairs.length;
  room.ensurePairs(pairs.length);

  // Their den, flatness and filters; then the pairs' gradients of the rows that can take a λ (thin, den > 0: the
  // pass's test) alone, the rest of the rows having none stored.
  const shape = ctx.runner.bind(thinShapeJob);
  Object.assign(shape.a, { fw: room.fw, den: room.den, flat: room.flat, pos, sp, ls: pairs.start, pj: pairs.j });
  shape.s.invH = 1 / H;
  runJob(shape, n);
  const ls = pairs.start, den = room.den, flat = room.flat, pgFirst = room.pgFirst;
  pgFirst[0] = 0;
  for (let a = 0; a < n; a++) pgFirst[a + 1] = pgFirst[a] + (den[a] > 0 && flat[a] < THIN_FLAT ? ls[a + 1] - ls[a] : 0);
  room.ensureGradients(pgFirst[n]);
  const grad = ctx.runner.bind(thinGradJob);
  Object.assign(grad.a, { pg: room.pg, pos, ls, pj: pairs.j, pgFirst });
  grad.s.invH = 1 / H;
  runJob(grad, n);

  // The passes: λ and the pairs' shares (sums), then the filtered Δv into the velocities.
  const pass = ctx.runner.bind(thinPassJob), apply = ctx.runner.bind(thinApplyJob), lam = room.lam;
  Object.assign(pass.a, { lam, dv: room.dv, vel: L.vel, ls: pairs.start, pj: pairs.j, pg: room.pg, pgFirst, den: room.den, flat: room.flat });
  pass.s.omega = omega;
  pass.s.flatMax = THIN_FLAT;
  Object.assign(apply.a, { vel: L.vel, dv: room.dv, fw: room.fw, ls: pairs.start, pj: pairs.j, sp });
  for (let k = 0; k < THIN_PASSES; k++) {
    runJob(pass, n);
    let any = false;
    for (let a = 0; a < n; a++) if (lam[a] > 0) { any = true; break; }
    if (!any) break;
    runJob(apply, n);
  }
  return ns;
}
