/**
 * Stage "viscosity" with particle.viscositySolver = "implicit", the default (beyond Steele et al.
 * 2004, whose momentum exchange, viscosity.ts, is "exchange"): the implicit
 * viscosity of Weiler, Koschier, Brand & Bender 2018, "A Physically Consistent Implicit Viscosity
 * Solver for SPH Fluids", Computer Graphics Forum 37(2), as SPlisHSPlasH's Viscosity_Weiler2018
 * runs it. The viscous term is the SPH estimate of the velocity Laplacian (their eq. 8,
 * 2(d + 2) Σ_j V_j (v_ij · x_ij)/(|x_ij|² + 0.01 h²) ∇W_ij, which holds ∇²v for a divergence-free
 * field without the error of Monaghan's scalar form on the velocity's direction), integrated by
 * backward Euler, so a sub-timestep reaches the viscosity asked for at any resolution and step:
 * the exchange's one sweep saturates at C r²/δt. The system (viscosity-weiler-solve.ts) is
 * symmetric and positive definite and is solved matrix-free by conjugate gradients with a 3×3
 * block-Jacobi preconditioner, started from the velocity after the body forces plus the change
 * the last solve made to the same particle (warm start, §5 of the paper for the method,
 * SPlisHSPlasH's m_vDiff), kept on a per-particle channel (channels.ts) that the sort, sinks and
 * sources carry. With particle.densitySolver "pbf" it runs between the two pressure solves, or
 * before the one (step.ts). Object particles take part as boundary particles (Akinci volumes,
 * no-slip through their body's friction, along the body's surface only: viscosity-weiler-solve.ts),
 * closed domain walls as mirror images of the liquid (no-slip, moving or slip), with the part of a
 * no-slip wall that a free surface leaves without images taken as ghosts moving with the particle
 * (viscosity-weiler-wall-cover.ts). Several liquids: each its own μ = ρ ν, a pair the mean of the
 * two, and the mean of the two kernel supports. A liquid whose viscosity follows its temperature
 * (temperature.ts) has μ_i = μ f_i per particle; a pair takes the harmonic mean of its two
 * particles' f (as the exchange does: temperature.ts scaleExchangeWeights says why), an object or
 * wall term the particle's own.
 *
 * The kernel is the cubic spline, normalized, over each liquid's viscosity kernel support
 * (material.particle.kernelSupport radii, 5 by default), its pairs (liquid, object and wall ghost
 * alike) taken within material.particle.kernelReach of the support (1 by default, the paper's
 * kernel whole; 0.81 takes 4.05 radii, so that a thread drawn to twice the rest spacing keeps its
 * neighbours, about 35 neighbours for the whole support's 65). The cut keeps the kernel's shape and
 * drops the pairs of least weight (8 % of the lattice's shear sum); the lattice constant below is
 * summed over the pairs kept, and with them a shear flow reads 5 % more viscous in layers sliding
 * past each other and 11 % in a disordered liquid than on the rest lattice, where the whole kernel
 * reads 7 % and 13 % more (bench/viscosity-lattice.ts). The volumes are the paper's m_j/ρ_j
 * below the rest density and the rest volume (2r)³ at and above it, each pair weighed by both of
 * its particles' (viscosity-weiler-volumes.ts), and
 * the constant 2(d + 2) V_j is taken from the rest lattice (latticeLaplacianConstant) rather than
 * from the continuous integral: on the lattice of spacing 2r the paper's constant reads a shear
 * flow's Laplacian 28 % low at 4 radii, 12 % at 5, 3 % at 6 (docs/decisions.md).
 */
import type { StepContext } from './context.ts';
import type { LiquidMaterial } from '../scene/schema.ts';
import { allocFloat64 } from '../parallel/memory.ts';
import { runJob } from '../parallel/run-job.ts';
import { NeighbourList } from './neighbours.ts';
import { SlotRows } from './slot-rows.ts';
import { viscosityOfExchange } from './calibration.ts';
import { kinematicViscosity } from '../scene/material.ts';
import { solveState } from './solve-setup.ts';
import { teamWork } from './work.ts';
import { listGhosts, wallTable } from './viscosity-weiler-walls.ts';
import { coverWalls, WallCover } from './viscosity-weiler-wall-cover.ts';
import { holdWallDrag, type WallHold } from './viscosity-weiler-wall-hold.ts';
import { boundaryCoefs, CallRoom, listBoundary, returnRoom } from './viscosity-weiler-boundary.ts';
import { volumeRatios } from './viscosity-weiler-volumes.ts';
import { pairFactor, RED_STRIDE, WALL_STRIDE, weilerJob } from './viscosity-weiler-solve.ts';
import { halfRows, type RowLayout } from './viscosity-weiler-rows.ts';
import { countTeamRows, TeamRowScratch } from './viscosity-weiler-team-rows.ts';
import { channelKey } from './channels.ts';
import type { CheckpointReader } from '../io/checkpoint.ts';
import type { ParticleChannel } from './channels.ts';
import { RoomShrink } from './room-shrink.ts';

const NO_FACTORS = new Float64Array(0);
/** A team's count blocks, the cursors of the solve's fill of its cross rows (fillCross); unread on one thread. */
const NO_COUNTS = new Int32Array(0);
/**
 * The coefficients' room's shrink (ImplicitViscosityState.coefRoom): calls between looks (`after`:
 * every call, so that the room follows a list that thins out, as the honey drop's does from its
 * impact on), and how far above the most pairs of those calls it must have stayed (`below`: 3 %,
 * over the 1/32 the room keeps, so that the impact's first call finds it cut);
 * settable for the tests (tests/parallel/stage-scratch-poison.test.ts).
 */
export const coefShrink = { after: 1, below: 1.03 };

/**
 * The conjugate gradients stop at |b − A v| ≤ this × |b − A v*|: relative to the residual of the
 * velocity before the solve, the size of the change the step makes (not to |b| = |ρ v*|, which a
 * moving liquid makes large and a warm start can meet with its own leftover; SPlisHSPlasH's
 * Eigen CG stops at viscoMaxError × |b|, 5 % in its ViscousBunny: on the honey drop's frames 3–14
 * 5 % of |b| takes 6.6 iterations a solve here and 1 % of |b| 10.8, this test 5.2, so this test
 * is the looser one there: BENCHMARKS.md, branch peer11). 1 % of the
 * change: at 2 % the honey drop's solves take 4.4 iterations rather than 6.0, but the velocities
 * after the stage stand 10.9 % of the change from a converged solve against 4.5 % at 1 %, and at 5 %
 * the slot Poiseuille at ν 0.01 reads 29 % high (docs/decisions.md): the viscosity the scene asks
 * for comes first.
 */
export const VISCOSITY_TOLERANCE = 1e-2;
/** Where v* needs (next to) no change (a liquid in rigid motion), the stop test's floor: |r| ≤ this × |b|, round-off's. */
export const VISCOSITY_FLOOR = 1e-9;
/** Most conjugate-gradient iterations a solve takes (past it the step counts `viscosityIterationCap`). */
export const VISCOSITY_MAX_ITERATIONS = 100;
/**
 * The stop test as the stage runs it: `tolerance` (VISCOSITY_TOLERANCE), relative to |b − A v*|, or
 * to |b| where `relativeToB` (SPlisHSPlasH's measure, viscoMaxError × |b|). Benches vary it
 * (bench/viscosity-stop.ts), as teamWork's switches (work.ts); the engine does not.
 */
export const viscosityStop = {
  tolerance: VISCOSITY_TOLERANCE, relativeToB: false, maxIterations: VISCOSITY_MAX_ITERATIONS,
  /** Called at the start of each call, before it reads anything (a bench's look at the states the stage is handed), where set. */
  probe: null as ((ctx: StepContext, dt: number) => void) | null,
};

/**
 * K in place of 2(d + 2) V_j: the constant that makes the estimate read ∇²v exactly on the rest
 * lattice (spacing s = 2r, the one the pressure stage holds the liquid at) for a shear flow, K Σ_d
 * F(|d|) d_x² d_y² = 2 over the lattice points d within the pairs' reach (u = (y², 0, 0), ∇²u = 2):
 * the support h, or the material's kernelReach of it (the kernel F of support h cut at the reach).
 * Weiler's 2(d + 2) V0 makes the continuous integral exact (less 3.7 % for the regularizing
 * 0.01 h²); the lattice sum falls short of it, by 12 % at h = 5r, 28 % at 4r, 3 % at 6r, and the
 * shear flows between walls read that much too little viscosity (docs/decisions.md).
 */
export function latticeLaplacianConstant(h: number, s: number, reach = h): number {
  const m = Math.ceil(reach / s);
  let sum = 0;
  for (let a = -m; a <= m; a++) {
    for (let b = -m; b <= m; b++) {
      for (let c = -m; c <= m; c++) {
        const dx = a * s, dy = b * s, dz = c * s, d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < reach * reach) sum += pairFactor(d2, h) * dx * dx * dy * dy;
      }
    }
  }
  return 2 / sum;
}

/** What the stage keeps between sub-timesteps (StepContext.viscositySolve). */
const isSharedArray = (a: Float64Array | Float32Array): boolean => typeof SharedArrayBuffer !== 'undefined' && a.buffer instanceof SharedArrayBuffer;

export class ImplicitViscosityState {
  /**
   * A team's cross rows (the pairs between the threads' ranges: viscosity-weiler-team-rows.ts), or
   * half rows compacted from the pair list (one thread, where it names many pairs beyond the
   * supports; one liquid's entries lent within the call from the pair codes' room:
   * viscosity-weiler-rows.ts lendRows), 16-bit entries while the liquid fits (slot-rows.ts); the
   * object slots within each particle's support.
   */
  readonly rows = new SlotRows();
  /** Within a call (its starts and entries in the call's idle room where it has it: viscosity-weiler-boundary.ts listBoundary). */
  readonly boundary = new NeighbourList();
  /** Each row's wall ghosts and their coefficients (viscosity-weiler-walls.ts listGhosts; the starts in the call's idle room where it has it). */
  readonly ghosts = new NeighbourList();
  ghostCoef = new Float32Array(0);
  /** The ghosts as found (GHOST_WALLS j + wall, row i's from ghostFoundStart[i]) and their coefficients, before they are laid out by row. */
  ghostFound = new Int32Array(0);
  ghostFoundStart = new Int32Array(0);
  ghostFoundCoef = new Float32Array(0);
  cursor = new Int32Array(0);
  /**
   * The coefficients' room: the most pairs the list has held, and 1/32 more, cut by coefShrink's
   * rule to the recent calls' most (room-shrink.ts).
   */
  coefRoom = 0;
  readonly coefLook = new RoomShrink(coefShrink);
  /** A team's row listing (viscosity-weiler-team-rows.ts). */
  readonly teamRows = new TeamRowScratch();
  /**
   * Each particle's volume ratio q (viscosity-weiler-volumes.ts), filled once a solve from ρ/ρ0:
   * a view of LiquidParticles.scalar, whose Σk only the exchange viscosity reads (on shared memory
   * with a team, as the liquid's arrays are).
   */
  vol = new Float64Array(0);
  /**
   * Per object slot: velocity, γ · friction; the slot positions on shared memory for a team (on one
   * thread the solve reads ctx.objectSlotPos).
   */
  ovel = new Float64Array(0);
  ow = new Float64Array(0);
  opos = new Float64Array(0);
  /**
   * Each boundary entry's coefficient (single precision), written by the solve's set-up: here
   * where the stage buffer has no room for them past this call's pair codes and the entries
   * (viscosity-weiler-boundary.ts CallRoom, boundaryCoefs), not in the request, which is sized by
   * capacities that stay put while the boundary rows grow entry by entry as the liquid spreads
   * over a body (StepContext.stageScratch).
   */
  bcoef = new Float32Array(0);
  /**
   * Per material pair: δt-free coefficient K μ (latticeLaplacianConstant), support h, and the
   * squared reach of its pairs (kernelReach h)²; per material ρ.
   */
  pk0: Float64Array;
  pk: Float64Array;
  ph: Float64Array;
  ph2: Float64Array;
  /** Per material pair, for half rows (viscosity-weiler-rows.ts): √(pk h⁻⁷), and the table's intervals over h². */
  pairRoot: Float64Array;
  pairToTable: Float64Array;
  /** Per material pair: √(pk h⁻⁷) on the 16-bit codes' scale (viscosity-weiler-coef.ts, viscosity-weiler-rows.ts pairTables). */
  pairRootCode: Float64Array;
  /** The pair coefficients' decoding table for this solve (viscosity-weiler-coef.ts); on shared memory for a team. */
  coefDec: Float64Array;
  rho: Float64Array;
  walls = new Float64Array(6 * WALL_STRIDE);
  /** The no-slip walls' drag where the ghosts do not cover the wall (viscosity-weiler-wall-cover.ts). */
  readonly cover: WallCover;
  /** The bodies' sums of the static walls' hold (viscosity-weiler-wall-hold.ts), made at the first wall term. */
  wallHold?: WallHold;
  /**
   * The warm start: the change v − v* of each particle's last solve (single precision, 3 a
   * particle; zero for a particle the solve has not had: emitted, or before the first solve).
   */
  readonly change: ParticleChannel<'f32'>;

  constructor(ctx: StepContext) {
    const sc = ctx.scene, names = sc.materialNames, nm = names.length, r = ctx.r;
    // Registered on the stage's first use (or on restore from a checkpoint that has it).
    this.change = warmStartChannel(ctx);
    const dt = 1 / (sc.fps * sc.particle.substeps);
    const mu = new Float64Array(nm), h = new Float64Array(nm), cut = new Float64Array(nm);
    this.rho = new Float64Array(nm);
    names.forEach((name, a) => {
      const mat = sc.materials[name];
      if (mat.kind !== 'liquid') return;
      this.rho[a] = mat.density;
      mu[a] = mat.density * liquidViscosity(mat, r, dt);
      h[a] = ctx.kernelSupport[a];
      cut[a] = mat.particle.kernelReach;
    });
    this.pk0 = new Float64Array(nm * nm);
    this.pk = new Float64Array(nm * nm);
    this.ph = new Float64Array(nm * nm);
    this.ph2 = new Float64Array(nm * nm);
    this.pairRoot = new Float64Array(nm * nm);
    this.pairToTable = new Float64Array(nm * nm);
    this.pairRootCode = new Float64Array(nm * nm);
    for (let a = 0; a < nm; a++) {
      for (let b = 0; b < nm; b++) {
        const e = a * nm + b;
        if (!ctx.isLiquid[a] || !ctx.isLiquid[b]) continue;
        this.ph[e] = a === b ? h[a] : 0.5 * (h[a] + h[b]);
        const reach = this.ph[e] * (a === b ? cut[a] : 0.5 * (cut[a] + cut[b]));
        this.pk0[e] = latticeLaplacianConstant(this.ph[e], 2 * r, reach) * (a === b ? mu[a] : 0.5 * (mu[a] + mu[b]));
        this.ph2[e] = reach * reach;
      }
    }
    this.cover = new WallCover(ctx, this.ph, this.ph2);
    this.coefDec = allocFloat64(32, ctx.shared);
  }
}

/**
 * The kinematic viscosity the solve gives a liquid, m²/s: its physical viscosity, or, where the
 * scene sets particle.exchangeRate, the viscosity that rate gives the exchange (calibration.ts).
 */
export function liquidViscosity(mat: LiquidMaterial, r: number, dt: number): number {
  const v = mat.particle.exchangeRate;
  return v === undefined ? kinematicViscosity(mat) : viscosityOfExchange(v, r, dt, mat.particle.kernelSupport);
}

/** The implicit viscosity of one sub-timestep of length dt (see the header): changes only velocities. */
export function applyImplicitViscosity(ctx: StepContext, dt: number): void {
  const L = ctx.liquid, n = L.count;
  if (n === 0) return;
  if (viscosityStop.probe) viscosityStop.probe(ctx, dt);
  // Reads the pair list and leaves it as it is: with "pbf" the pressure stage reads it next (step.ts).
  if (!ctx.adhesionPairsCurrent) throw new Error('viscosity: the pair list is not at the current positions (the adhesion stage lists it)');
  const st = (ctx.viscositySolve ??= new ImplicitViscosityState(ctx));
  const nm = ctx.mass.length;
  for (let e = 0; e < nm * nm; e++) st.pk[e] = dt * st.pk0[e];
  const job = ctx.runner.bind(weilerJob), T = job.threads(n);
  // One thread: half rows, each pair once (its e_ij as a 16-bit code, viscosity-weiler-coef.ts); a team: the same half rows
  // and the cross rows between the threads' ranges, listed by the team (viscosity-weiler-team-rows.ts).
  const half = T === 1 && !teamWork.teamRowsOnOneThread;
  // In LiquidParticles.scalar: its Σk (adhesion's) is read by the exchange viscosity alone.
  st.vol = L.scalar;
  if (ctx.shared && !isSharedArray(st.coefDec)) st.coefDec = allocFloat64(32, true);
  volumeRatios(L.density, n, st.vol);

  // At the capacities of the liquid and of the lists (the same views from one call to the next, for
  // a team; an exact request, StepContext.stageScratch).
  const m = Math.max(n, L.capacity);
  // A coefficient for each pair the list holds (one thread's half rows and a team's alike), room
  // kept at the most it has held and 1/32 more (the list's own capacity, with its growth and a
  // cell's candidates of room, was a third over its pairs on the honey drop), shrunk where the
  // list has stayed well below it (ImplicitViscosityState.coefRoom).
  const np = ctx.cells.pairs.length, need = Math.ceil(np * (1 + 1 / 32));
  if (np > st.coefRoom) st.coefRoom = need;
  st.coefRoom = st.coefLook.look(st.coefRoom, need) || st.coefRoom;
  const cn = st.coefRoom, nb = ctx.objects.count;
  const mem = ctx.stageScratch(8 * (4 * 3 * m + RED_STRIDE * 64 + 8) + 4 * 6 * m + 2 * cn + 64, ctx.shared, true);
  const x = mem.f64(3 * m), r = mem.f64(3 * m), p = mem.f64(3 * m), q = mem.f64(3 * m), red = mem.f64(RED_STRIDE * 64 + 8);
  // The object slots' velocities and weights are read by the set-up alone (the object terms' share
  // of b), before the first product writes q: they are kept in q where 4 doubles a slot fit in its
  // 3 a liquid particle, else in the state (in stage scratch of their own they made the viscosity's
  // request the largest of the honey drop's, and the buffer grew by more than they hold).
  const inQ = 4 * nb <= 3 * m;
  if (nb > 0 && !inQ && (st.ow.length < nb || (ctx.shared && !isSharedArray(st.ow)))) {
    st.ow = allocFloat64(nb, ctx.shared);
    st.ovel = allocFloat64(3 * nb, ctx.shared);
  }
  const ovel = inQ ? q.subarray(0, 3 * nb) : st.ovel, ow = inQ ? q.subarray(3 * nb, 4 * nb) : st.ow;
  const pinv = mem.f32(6 * m), coef = mem.u16(cn);
  // What lives only within this call (the ghosts' and the boundary rows' starts, the boundary
  // entries and their coefficients) in memory idle through it: the stage buffer past this call's
  // pair codes (coef's room is kept at the most pairs the list has held) and past the request
  // (where a larger one of another stage grew the buffer), and the list store past the pair list's
  // entries (the object contact lists' part, listed after viscosity: list-store.ts); where those
  // are short, in memory of their own (viscosity-weiler-boundary.ts).
  const pairs = ctx.cells.pairs, room = new CallRoom();
  if (pairs.store) room.add(pairs.j.buffer, pairs.j.byteOffset + pairs.j.BYTES_PER_ELEMENT * pairs.length, ctx.shared);
  // The warm start first: the body normals (onrm, 3 a particle) take the warm-start channel's
  // memory from here until keepChange writes it again (the set-up writes every particle's normal,
  // bodyReaction reads them before keepChange); before the set-up, √q of each particle for the
  // rows' codes.
  warmStart(st.change.array, L.vel, x, n);
  const onrm = st.change.array;
  let rows: RowLayout = ctx.cells.pairs;
  // One thread's half rows before the rest of the room is carved: compacted rows keep their entries in the
  // codes' room (viscosity-weiler-rows.ts lendRows), and the stage buffer's room begins past them.
  if (half) rows = halfRows(ctx, st, n, coef, pinv, onrm, room);
  const inCodes = rows.j.buffer === coef.buffer;
  room.add(mem.buffer, inCodes ? rows.j.byteOffset + 2 * rows.start[n] : coef.byteOffset + 2 * pairs.length, ctx.shared);
  const gstart = room.i32(n + 1);
  if (gstart) st.ghosts.start = gstart;
  listBoundary(ctx, st, n, room);
  const bcoef = boundaryCoefs(ctx, st, room);
  const opos = nb > 0 && ctx.shared && !isSharedArray(ctx.objectSlotPos) ? st.opos : ctx.objectSlotPos;
  if (nb > 0) objectSlots(ctx, ovel, ow);
  if (!half) {
    countTeamRows(ctx, st, st.teamRows, n, coef, onrm, room);
  }
  const nw = wallTable(ctx, st);
  listGhosts(ctx, st, n, nw, true, rows);
  coverWalls(ctx, st, n, nw);

  const a = job.a;
  a.x = x; a.r = r; a.p = p; a.q = q; a.onrm = onrm; a.pinv = pinv; a.red = red; a.coef = coef; a.cdec = st.coefDec; a.bcoef = bcoef;
  a.pos = L.pos; a.vstar = L.vel; a.mat = L.material;
  a.ls = rows.start; a.lj = rows.j; a.bs = st.boundary.start; a.bj = st.boundary.j;
  a.opos = opos; a.ovel = ovel; a.ow = ow;
  a.pk = st.pk; a.ph = st.ph; a.rho = st.rho; a.walls = st.walls;
  a.gs = st.ghosts.start; a.gj = st.ghosts.j; a.gc = st.ghostCoef; a.wa = st.cover.at; a.wd = st.cover.diag; a.wb = st.cover.rhs;
  // A team's cross rows (viscosity-weiler-team-rows.ts); unread on one thread.
  a.xs = st.rows.start; a.xj = st.rows.j; a.xc = st.teamRows.xc; a.into = half ? NO_COUNTS : ctx.teamRowCounts.into;
  job.s.parts = st.teamRows.parts;
  // Per-particle viscosity (temperature.ts): μ_i = μ f_i, a pair the harmonic mean.
  a.tf = ctx.temperature ? ctx.temperature.factor : NO_FACTORS;
  job.s.thermal = ctx.temperature ? 1 : 0;
  job.s.half = half ? 1 : 0;
  job.s.nm = nm; job.s.tol = viscosityStop.tolerance; job.s.floor = VISCOSITY_FLOOR; job.s.maxIter = viscosityStop.maxIterations;
  job.s.onB = viscosityStop.relativeToB ? 1 : 0;
  runJob(job, n);
  const used = job.threads(n), iterations = red[RED_STRIDE * used], residual = red[RED_STRIDE * used + 1];
  if (ctx.freeBodies && nb > 0) bodyReaction(ctx, st, x, bcoef, onrm, opos, n);
  // A static wall's net drag on a body may slow it, not push it (the residual r is free scratch now).
  const held = holdWallDrag(ctx, st, x, L.vel, n, nw, new Int32Array(r.buffer, r.byteOffset, n), onrm, opos, bcoef);
  if (held > 0) ctx.count('wallHolds', held);
  keepChange(st.change.array, L.vel, x, n);
  returnRoom(ctx, st, room);
  ctx.count('viscositySolves');
  ctx.count('viscosityIterations', iterations);
  if (red[RED_STRIDE * used + 2] === 1) ctx.count('viscosityJacobiSteps');
  if (residual > viscosityStop.tolerance) ctx.count('viscosityIterationCap');
}

/** The object slots' velocities (3 a slot) and friction-weighted volumes γ · friction. */
function objectSlots(ctx: StepContext, ovel: Float64Array, ow: Float64Array): void {
  const O = ctx.objects, no = O.count, gamma = solveState(ctx).gamma, oorder = ctx.objectCells.grid.order, body = O.body, vel = O.vel;
  const bodies = O.bodies, still = vel.length === 0;
  for (let s = 0; s < no; s++) {
    const o = oorder[s];
    ow[s] = gamma[o] * bodies[body[o]].friction;
    // (No velocities where no body moves: ObjectParticles.vel.)
    if (still) ovel[3 * s] = ovel[3 * s + 1] = ovel[3 * s + 2] = 0;
    else { ovel[3 * s] = vel[3 * o]; ovel[3 * s + 1] = vel[3 * o + 1]; ovel[3 * s + 2] = vel[3 * o + 2]; }
  }
}

/**
 * Free bodies take the object terms back (Newton's third law, as Akinci et al. 2012 §5 and
 * free-bodies.ts): particle i's momentum changes by −V_i Σ_b e_ib x_ib (x_ib · (v_i − v_b)) through
 * the object slots b in its support (V_i = m_i / ρ_i = (2r)³, v_i the solution), so the body of
 * each slot takes V_i e_ib x_ib (x_ib · (v_i − v_b)) at the slot's position.
 */
function bodyReaction(
  ctx: StepContext, st: ImplicitViscosityState, v: Float64Array, bcoef: Float32Array, onrm: Float32Array, opos: Float64Array, n: number,
): void {
  // The slots' velocities are read from the objects (the solve's copy may be gone: it can share q).
  const free = ctx.freeBodies!, O = ctx.objects, oorder = ctx.objectCells.grid.order, freeOf = free.freeOf, obody = O.body, ovel = O.vel;
  const L = ctx.liquid, pos = L.pos, mat = L.material, bs = st.boundary.start, bj = st.boundary.j;
  for (let i = 0; i < n; i++) {
    const e0 = bs[i], e1 = bs[i + 1];
    if (e0 === e1) continue;
    const V = ctx.mass[mat[i]] / st.rho[mat[i]], xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    const nx = onrm[3 * i], ny = onrm[3 * i + 1], nz = onrm[3 * i + 2];
    for (let e = e0; e < e1; e++) {
      const s = bj[e], o = oorder[s], k = freeOf[obody[o]];
      if (k < 0) continue;
      // T x_ib x_ibᵀ T (v_i − v_b), as the solve's tangential object term.
      let wx = v[3 * i] - ovel[3 * o], wy = v[3 * i + 1] - ovel[3 * o + 1], wz = v[3 * i + 2] - ovel[3 * o + 2];
      const wn = wx * nx + wy * ny + wz * nz;
      wx -= wn * nx; wy -= wn * ny; wz -= wn * nz;
      let dx = xi - opos[3 * s], dy = yi - opos[3 * s + 1], dz = zi - opos[3 * s + 2];
      const dn = dx * nx + dy * ny + dz * nz;
      dx -= dn * nx; dy -= dn * ny; dz -= dn * nz;
      const u = V * bcoef[e] * (dx * wx + dy * wy + dz * wz);
      free.addImpulse(k, u * dx, u * dy, u * dz, opos[3 * s], opos[3 * s + 1], opos[3 * s + 2]);
    }
  }
}

/** The warm start's channel name (its checkpoint key: channels.ts channelKey). */
export const WARM_START_CHANNEL = 'viscosityChange';

function warmStartChannel(ctx: StepContext): ParticleChannel<'f32'> {
  const L = ctx.liquid, had = L.channel(WARM_START_CHANNEL);
  if (had) return had as ParticleChannel<'f32'>;
  return L.addChannel({ name: WARM_START_CHANNEL, kind: 'f32', width: 3, initial: new Float64Array(3 * ctx.mass.length) });
}

/** x = v* + the change the last solve made to the same particle. */
function warmStart(dv: Float32Array, vel: Float64Array, x: Float64Array, n: number): void {
  for (let k = 0; k < 3 * n; k++) x[k] = vel[k] + dv[k];
}

/** Keeps v − v* for the next warm start, and the solution as the velocities. */
function keepChange(dv: Float32Array, vel: Float64Array, x: Float64Array, n: number): void {
  for (let k = 0; k < 3 * n; k++) {
    dv[k] = x[k] - vel[k];
    vel[k] = x[k];
  }
}

/**
 * After the particles and channels are restored (simulation.ts): the channel is registered on the
 * stage's first use, so restoreChannels (which restores the channels registered) has not read it;
 * it is read here. A checkpoint from before the channel keeps the change by particle id.
 */
export function restoreWarmStart(ctx: StepContext, r: CheckpointReader): void {
  const key = channelKey(WARM_START_CHANNEL), legacy = r.has('viscosityWarmId');
  if (!r.has(key) && !legacy) return;
  const st = (ctx.viscositySolve ??= new ImplicitViscosityState(ctx)), L = ctx.liquid, n = L.count, dv = st.change.array;
  if (r.has(key)) {
    dv.set(r.finiteArray(key, Float32Array, 3 * n));
    return;
  }
  const id = r.array('viscosityWarmId', Int32Array), old = r.array('viscosityWarmChange', Float32Array, 3 * id.length);
  const at = new Map<number, number>();
  id.forEach((v, k) => at.set(v, k));
  for (let i = 0; i < n; i++) {
    const k = at.get(L.id[i]);
    for (let c = 0; c < 3; c++) dv[3 * i + c] = k === undefined ? 0 : old[3 * k + c];
  }
}
