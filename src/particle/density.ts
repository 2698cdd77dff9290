/**
 * Stage "density" (Steele §3.5, as corrected in DESIGN.md): iterative density correction after the
 * moves of a sub-timestep. ω is the ramp 1 − d/h; ρ0 = Σω over the 26 neighbours of the initial
 * lattice (spacing 2r); ρ = Σω (n ≥ 26), ρ0 (n = 0), over liquid neighbours only (objects never
 * take part) plus mirror images across closed domain walls (mirrorPairs). For 0 < n < 26 the paper
 * scales, (26/n) Σω; that reads a particle on a flat free surface of the rest lattice 8.4 %
 * over-dense (edges 16 %, corners 23 %: the missing neighbours are the far ones), so a block at
 * rest would not stay at rest. We fill the 26 − n missing neighbours with ω̄, the mean weight of
 * the 9 a flat-surface particle lacks: ρ = Σω + (26 − n) ω̄, exact on a flat surface (edges
 * −2.3 %, corners −5.5 %). Each pass computes
 *   s_p = c (ρ_p − ρ0) / |ρ′_p|,   ρ′_p = −max(n, 26)/h (the derivative of ρ when all neighbours
 *                                   move out by one unit; constant for a ramp),
 * moves every neighbour n of p by s_p along (p_n − p)/|p_n − p| and p by −s_p along the same line,
 * accumulates all of this and applies it together. Passes repeat until the mean relative error
 * is within the tolerance or densityIterations is reached. The error of a particle is |ρ − ρ0|/ρ0,
 * except at the free surface (n < 26), where only over-density counts and is corrected: there a
 * deficit is the surface itself.
 *
 * Departures from the paper, besides ω̄ and PAIR_GAIN (below):
 *  - Walls are mirrors: every particle within h of a closed wall has the images of its
 *    neighbours (and its own) across it, and across two or three walls at edges and corners. With
 *    only each particle's own image, the rest lattice filling a box read 2.5–3 % over-dense on
 *    the walls; correction squeezed the liquid off them, and the gravity block settled by 1.5 r.
 *  - Passes are Chebyshev-accelerated (CHEBYSHEV_RHO).
 *  - Velocity: the paper corrects positions only, so pressure never accelerates the liquid: a
 *    column collapses and a blob spreads only by being pushed into place, far too slowly. Here the
 *    correction's displacement becomes velocity, v += Δx/δt (correctDensity: the pressure
 *    impulse in the form of position-based dynamics; particle.pressureImpulse, on by default;
 *    off, damp() below keeps the paper's positions-only correction). Where the correction holds the liquid up it
 *    takes back the g δt the moves gave, all but (M − 1)/(2M) g δt (M moves: their displacement
 *    holds only (M + 1)/(2M) of it), so a still pool keeps a uniform 0.43 g δt that each
 *    sub-timestep undoes. This replaces removing velocity only (the body forces' increment where
 *    the liquid is held up and velocity against the correction relative to the mean), which
 *    rested well but left pressure without effect. Candidates measured against it: a fraction β
 *    of Δx/δt beyond that removal (β = 0.25–0.75: spreading slower than at either end, dam-break
 *    in between); a global cap keeping Σ m v² (passes spreading tiny but fails it full, and
 *    dam-break: pressure does work against viscosity and from stored compression); XSPH smoothing
 *    of Δx/δt (rest a little better, honey no better, one more pair loop); taking back the full
 *    g δt where held up (a gain 2M/(M + 1) > 1 on that feedback: hydrostatic max speed, full,
 *    0.37 → 0.31, still failing, dam-break 0.12 → 0.19, failing); velocity from the Jacobi
 *    increments without the Chebyshev terms (honey sprays). What decided it is ϱ: over-relaxed
 *    passes overshoot, and as velocity the overshoot is spray.
 * Figures, before (velocity removal, ϱ = 0.85) → after (Δx/δt, ϱ = 0.4), measured back to back
 * (bench/density-velocity.ts, bench/density-drop.ts, bench/particle-profile.ts; validation tolerances full /
 * tiny in brackets):
 *   gravity block, 10 frames: error 1.0 → 1.8 %, passes 1.70 → 1.95, settling 0.07 → 0.14 r,
 *     max speed 0.09 → 0.09 √(g·depth) (0.09–0.13 over frames 1–20), mean speed 0.43 g δt after
 *   dam-break RMS front error, full / tiny (0.15 / 0.25): 0.51 / 0.45 → 0.12 / 0.10 (PASS)
 *   spreading ν_eff/ν − 1, full / tiny (0.35 / 0.6): +1.25 / +0.74 → +0.06 / +1.44 (full PASS;
 *     the tiny blob is 3.5 particles thick and spreads as a film that only over-density drives)
 *   hydrostatic max speed / √(g d), full / tiny (0.05 / 0.1): 0.26 / 0.28 → 0.37 / 0.43 (FAIL
 *     both: the uniform 0.43 g δt alone is 0.05 √(g d) full); centre-of-mass drift −1.9 → −2.4 %
 *   honey drop (half size, 20 frames): on the ball 100 → 100 %; full size, frames 8–13: passes
 *     per sub-timestep 4.0 → 7.3, density 113 → 188 ms a frame (whole frame 370 → 466 ms); the
 *     drop drapes faster (below y = −2 cm at frame 14: 12 → 32 %) and stays on the ball over 40
 *     frames; dropped 1 cm off centre, 857 of 9 328 particles slide off by frame 16 (before: 0).
 * The passes run on slot-ordered copies (see correctDensity).
 *
 * Cost, one thread (honey drop, frames 3–12, 6.0 passes a sub-timestep; bench/_dens.ts and
 * bench/_dens_stage.ts, CPU time, min of runs on a shared 2-core machine at load 3–4): the stage
 * 165–172 ms a frame (before the changes below 172–176), paint drops 10.7–10.8 (11.9–12.3); one
 * sub-timestep from frame 10 (8 passes) 45–46 ms: listing with the first measure 5.5, then per
 * pass measure 1.8, push 1.9, keepOut with the copies to and from L.pos 1.4. Scratch 175 bytes a
 * particle (was 419): the list holds slots (no second index array), the first measure is taken
 * while listing, positions are listed from X, gains are per material, inverse masses only where
 * masses differ, pair distances are recomputed in push rather than kept (results bit-identical).
 * Where the passes go: the moves compress the honey film by 15–25 % (mean error) every
 * sub-timestep; its signed mean is gone after 2–3 passes and the rest, particle-scale error, falls
 * about 8 % a pass. Measured and not kept: PAIR_GAIN 1.2 without Chebyshev takes that state to
 * 1.6 % in 3 passes, but the gravity block (tests/particle/motion.test.ts) fails from 0.8 (9.75
 * passes, 3.3 % error) and flies apart from 1.0; a per-particle gain growing 1.5× while the excess
 * keeps its sign (0.5× when it flips, at most 3×): 5.1 passes, but the gravity block's max speed
 * 0.11 → 0.17 √(g·depth), over its test's 0.15 (1.3× / 0.6× / 2×: 5.3 passes, 0.15); starting from
 * half the last sub-timestep's displacement: 7.3 passes (it is velocity already; all of it blows
 * up); letting `constrain` see only the particles within 2 r of a solid or wall (skin, with a
 * fall-back for those that move further): on the honey drop 86 % of the particles are, some move
 * 2–13 r in the first pass, and the stage got no cheaper. Gauss–Seidel passes (beyond the paper,
 * as position-based dynamics: in slot order ρ_a from current positions over a full neighbour list,
 * a and its neighbours moved apart at once; walls mirrored per visit): a pass costs 1.6× a Jacobi
 * pass (7.0 vs 4.4 ms, frame 10: every pair is read from both ends) and takes the honey drop from
 * 5.95 to only 5.24 passes at gain 0.8 (4.45 at 1.5), so the stage went 150 → 221 (207) ms a frame;
 * alternating sweep directions 5.9; hydrostatic max speed 0.36 → 0.69 (0.92 at gain ≥ 1, which
 * also fails the gravity block's max speed). What holds the passes up is keepOut: without it
 * between passes the same states reach 2 % in 2–5 passes rather than 5–8 (the film's contact
 * layer, pushed into the ball and put back, is re-compressed every pass).
 * Where the compression comes from: the honey drop's honey–ball adhesion, 20 m/s² a pair over 8 r,
 * sums to 100–115 m/s² toward the ball for every particle within 6 r of it (frame 10), so the
 * moves compress the draped film by 20–30 % (mean error) every sub-timestep; at strength 5 the
 * passes fall from 6.3 to 1.95 a sub-timestep, but half the honey slides off onto the floor.
 * Measured and not kept (honey drop frames 3–22 unless said):
 *  - Treating particles that keepOut moved as immovable in the next pass (push split 0 : 1):
 *    6.0 → 6.2 passes.
 *  - Warm start, a first push with the last sub-timestep's Σs (carried with the particles):
 *    β = 1: 6.0 → 5.0 passes; accumulating (Σs + β × the warm one, β = 0.8, 0.95): the
 *    honey flies apart (1 000–3 700 particles lost to the sink by frame 11).
 *  - Pressure memory, the accumulated signed s as a force in the next moves (clamped ≥ 0, none
 *    where keepOut acted): gain 0.1: 4.8 passes but honey reaches the floor by frame 45; 0.3:
 *    1 284 particles sprayed at impact. Unclamped, it winds up at the ball, whose reaction
 *    density correction cannot see (objects take no part in density).
 *  - A second Chebyshev run for the tail (restart with ϱ = 0.8 once the error is within 4× the
 *    tolerance): 6.3 → 4.9 passes, no spray, validation within its scatter, but the draped honey
 *    runs off faster (210–290 particles on the floor at frame 60 over four drop offsets, none
 *    without); ϱ 0.7: 5.5 passes, ~130 on the floor; 0.6: 5.95, 0–16. Taking the tail's velocity
 *    from its Jacobi increments only (positions still extrapolated): 5.15 passes and the honey
 *    stays as without, but a still block's mean speed rises 20–30 % (0.096 → 0.126 √(g d)).
 *  - Warm start with the last sub-timestep's whole displacement (carried with the particles,
 *    applied before the first measure): a 10-layer pool at rest (validate.ts hydrostatic, full)
 *    needs 2 passes instead of 7 at 0.8 of it, but swells (top 18.4 → 19.0 r) and flies apart
 *    at all of it: the pressure impulse already carries that displacement in the velocity.
 *  - keepOut after the last pass only (frames 11–40): 2.0–2.6 passes, 146–148 ms a frame, but
 *    2 960 of 9 328 particles fall through to the floor at impact (none with keepOut every pass);
 *    every second pass: 7–9 passes.
 * The scene's own levers (adhesion strength and reach, kernels) are measured in BENCHMARKS.md.
 */
import type { StepContext } from './context.ts';
import { FACES } from '../scene/schema.ts';
import { faceBoundary } from './collisions.ts';
import { parallelListDensity, parallelMeasure, parallelPush } from './density-parallel.ts';
import type { PairSink } from './adhesion.ts';
import { teamOf } from './threads.ts';

/**
 * Closed domain faces, whose walls density correction reads as mirrors (mirrorPairs): without
 * them a wall layer reads as free surface, its deficit is never corrected and a pool packs itself
 * down onto its floor. Axis, plane coordinate and inward sign per closed face.
 */
const wallAxis = new Int32Array(6), wallPlane = new Float64Array(6), wallInward = new Float64Array(6);
function collectWalls(ctx: StepContext): number {
  const d = ctx.scene.domain;
  if (!d || !ctx.scene.particle.walls) return 0;
  let k = 0;
  for (let f = 0; f < 6; f++) {
    if (faceBoundary(ctx, FACES[f]) === 'open') continue;
    const axis = f >> 1, upper = (f & 1) === 1;
    wallAxis[k] = axis;
    wallPlane[k] = upper ? d.max[axis] : d.min[axis];
    wallInward[k] = upper ? -1 : 1;
    k++;
  }
  return k;
}

/**
 * A pair's separation changes by 2 (s_p + s_n) ≈ 4s in a pass (both ends move, for both particles'
 * errors), four times the move that ρ′ assumes, so c is scaled down for the paper's range of c
 * (0.1–0.5) to be stable. Measured at c = 0.5 (density passes per sub-timestep, 12 frames of the
 * honey drop / 10 frames of a 7³ block under gravity in a box): gain 0.25: 8.5 / 9.2 (the Jacobi
 * update under-relaxes and hits the cap); 0.6: 5.1 / 4.7; 1.0: 4.3 / 9.0 (the block oscillates).
 */
const PAIR_GAIN = 0.6;

/**
 * Chebyshev semi-iteration over the passes (Wang 2015, "A Chebyshev semi-iterative approach for
 * accelerating projective and position-based dynamics"): the Jacobi passes under-relax the
 * particle-scale errors of a disordered liquid (the uniform mode limits the gain), and ϱ, the
 * estimated spectral radius of a pass, extrapolates them. The extrapolation overshoots, and since
 * the displacement becomes velocity (correctDensity) the overshoot is spray where an impact
 * compresses the liquid hard. Honey drop, 16 frames, dropped centred / 2 mm / 1 cm off centre:
 * particles over 7.5 cm from the ball's centre at the end, passes per sub-timestep: ϱ = 0.85:
 * 339 / 213 / 779, 3.35; 0.6: 0 / 4 / 840, 4.5; 0.4: 0 / 0 / 857, 5.3 (the 1 cm case is honey
 * sliding off one side, not spray). The gravity block takes 1.95 passes for every ϱ ≤ 0.7.
 */
const CHEBYSHEV_RHO = 0.4;
/**
 * With particle.pressureImpulse = false the displacement never becomes velocity, so overshoot is
 * harmless and ϱ can extrapolate harder (honey drop frames 9–16 / the gravity block: ϱ = 0: 6.4 /
 * 2.0 passes per sub-timestep; 0.7: 4.7 / 1.95; 0.85: 4.0 / 1.7; 0.95: 3.9 / 1.6, but the drop
 * flies apart).
 */
const CHEBYSHEV_RHO_POSITIONS = 0.85;

export interface DensityResult {
  passes: number;
  /** Mean relative error after the last pass. */
  error: number;
}

/**
 * Lists the liquid pairs within the density kernel and takes the first measure of the passes
 * (correctDensity continues from it). Keyed by slot of densityCells.grid.order: pair (a, b) of
 * slots, b at densityPairs.j[start[a] .. start[a + 1]). The scan reads the slot-ordered copy of
 * the positions that the passes then move (X) and skips neighbour cells whose bounding box is out
 * of reach (exact, CellPairs.box): the same pairs in the same order as a plain 27-cell scan. The
 * measure of each listed pair is measureRange's, with the same additions in the same order.
 */
export function listDensityPairs(ctx: StepContext): void {
  const L = ctx.liquid, n = L.count, pos = L.pos;
  const dc = ctx.densityCells;
  dc.build(pos, n);
  bind(ctx, n);
  const g = dc.grid, order = g.order;
  const sp = X;
  for (let a = 0; a < n; a++) {
    const i = order[a];
    sp[3 * a] = pos[3 * i]; sp[3 * a + 1] = pos[3 * i + 1]; sp[3 * a + 2] = pos[3 * i + 2];
  }
  dc.updateBoxes(sp);
  const h = ctx.densityH, hIn = h * (1 - 1e-6), invH = 1 / h;
  const list = ctx.densityPairs;
  list.reset(n);
  if (parallelListDensity(ctx, n, h * h, hIn, invH, { x: sp, rho: rhoS, cnt: cntS })) return;
  rhoS.fill(0, 0, n);
  cntS.fill(0, 0, n);
  const view: DensityCellView = { start: g.start, count: g.count, first: dc.first, cells: dc.cells, box: dc.box };
  densityListRange(view, sp, 0, g.cellCount, h * h, hIn, invH, list, rhoS, cntS);
  list.start[n] = list.length;
}

/** The density cells as the listing reads them (CellPairs of densityCells, or shared copies of it). */
export interface DensityCellView {
  start: Int32Array;
  count: Int32Array;
  first: Int32Array;
  cells: Int32Array;
  box: Float64Array;
}

/**
 * listDensityPairs' loop over the cells [c0, c1): the pairs of their slots (list.start of each of
 * their slots, entries appended to list) and the first measure of both ends of each pair into `rho`
 * and `cnt` (which the caller zeroes; the second slot may lie outside the range). The one loop the
 * serial and threaded (density-parallel.ts) paths run.
 */
export function densityListRange(
  v: DensityCellView, sp: Float64Array, c0: number, c1: number, h2: number, hIn: number, invH: number,
  list: PairSink, rho: Float64Array, nb: Int32Array,
): void {
  const start = v.start, cnt = v.count, first = v.first, cells = v.cells, box = v.box;
  const ls = list.start;
  let lj = list.j, len = list.length;
  for (let c = c0; c < c1; c++) {
    const a0 = start[c], a1 = a0 + cnt[c];
    // Room for every candidate of a particle of the cell, checked once per particle rather than
    // once per pair.
    let room = 0;
    for (let q = first[c]; q < first[c + 1]; q++) room += cnt[cells[q]];
    for (let a = a0; a < a1; a++) {
      if (len + room > lj.length) {
        list.length = len;
        list.reserve(len + room);
        lj = list.j;
      }
      ls[a] = len;
      const xi = sp[3 * a], yi = sp[3 * a + 1], zi = sp[3 * a + 2];
            for (let q = first[c]; q < first[c + 1]; q++) {
        const c2 = cells[q];
        if (c2 !== c) {
          const bb = 6 * c2;
          let ex = box[bb] - xi, ey = box[bb + 1] - yi, ez = box[bb + 2] - zi;
          if (ex < 0) { ex = xi - box[bb + 3]; if (ex < 0) ex = 0; }
          if (ey < 0) { ey = yi - box[bb + 4]; if (ey < 0) ey = 0; }
          if (ez < 0) { ez = zi - box[bb + 5]; if (ez < 0) ez = 0; }
          if (ex * ex + ey * ey + ez * ez >= h2) continue;
        }
        // Gathered without branching: whether a candidate is within h is a coin toss in a
        // disordered liquid (as in adhesion's branchlessPairRange).
        const b1 = start[c2] + cnt[c2];
        for (let b = c2 === c ? a + 1 : start[c2]; b < b1; b++) {
          const dx = sp[3 * b] - xi, dy = sp[3 * b + 1] - yi, dz = sp[3 * b + 2] - zi;
          lj[len] = b;
          len += +!(dx * dx + dy * dy + dz * dz >= h2);
        }
      }
      // The first measure over the pairs just listed, in list order.
      measureRow(a, ls[a], len, lj, sp, hIn, invH, rho, nb);
    }
  }
  list.length = len;
}

/**
 * The passes work on slot-ordered copies (densityCells.grid.order: contiguous per cell), so that a
 * pair's second particle is near the first in memory. Index a is a slot. These names point at
 * the calling context's arrays (bind, below).
 */
let X = new Float64Array(0), Xm = new Float64Array(0), corrS = new Float64Array(0), prevS = new Float64Array(0), fixS = new Float64Array(0);
let rhoS = new Float64Array(0), sS = new Float64Array(0), cntS = new Int32Array(0), invMassS = new Float64Array(0);
/** All liquid particles weigh the same (one liquid, or liquids of one density): pushes split evenly. */
let uniformMass = true;

/**
 * The stage's arrays are views into the context's stage scratch (StepContext.stageScratch: shared
 * with the surface test and the viscosity weights, counted by Metrics.memoryBytes); `bind` carves
 * them and points the module's names above at them for the call. listDensityPairs and
 * correctDensity carve the same layout, so the listing's copies and first measure carry over.
 * What persists between calls is only DensityScratch.
 */
class DensityScratch {
  /** Per material: PAIR_GAIN · c · h; gainOne: the one value all liquids share, else −1. */
  gain = new Float64Array(0);
  gainOne = -1;
}

let scratch = new DensityScratch();

function bind(ctx: StepContext, n: number): void {
  scratch = ctx.keep('density.scratch', () => new DensityScratch());
  // At the liquid's capacity, not n: the views (a thread team's slots) stay the same until the
  // liquid outgrows it.
  const m = Math.max(n, ctx.liquid.capacity), walls = collectWalls(ctx) > 0;
  const bytes = 8 * (18 * m) + 4 * m + (walls ? 8 * 6 * m + m : 0) + 128;
  const mem = ctx.stageScratch(bytes, teamOf(ctx) !== null);
  X = mem.f64(3 * m); Xm = mem.f64(3 * m); corrS = mem.f64(3 * m); prevS = mem.f64(3 * m); fixS = mem.f64(3 * m);
  rhoS = mem.f64(m); sS = mem.f64(m); invMassS = mem.f64(m); cntS = mem.i32(m);
  // Only particles next to closed walls need these (mirrorPairs).
  if (walls) {
    wallDelta = mem.f64(3 * m); wallSg = mem.f64(3 * m); wallMask = mem.u8(m);
  }
}

/**
 * The pair loop of a measure over slots [a0, a1): ρ and neighbour counts of both ends of each pair
 * into `rho` and `cnt` (which the caller zeroes; b may lie outside the range). The one loop the
 * serial and threaded (density-parallel.ts) paths run.
 */
export function measureRange(
  ls: Int32Array, pj: Int32Array, x: Float64Array, a0: number, a1: number, hIn: number, invH: number,
  rho: Float64Array, cnt: Int32Array,
): void {
  for (let a = a0; a < a1; a++) measureRow(a, ls[a], ls[a + 1], pj, x, hIn, invH, rho, cnt);
}

/** The measure of slot a over its pairs pj[q0 .. q1), both ends (measureRange's and the listing's row). */
function measureRow(
  a: number, q0: number, q1: number, pj: Int32Array, x: Float64Array, hIn: number, invH: number, rho: Float64Array, cnt: Int32Array,
): void {
  const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
  let ra = 0, na = 0;
  for (let q = q0; q < q1; q++) {
    const b = pj[q];
    const dx = x[3 * b] - xa, dy = x[3 * b + 1] - ya, dz = x[3 * b + 2] - za;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    // Lattice neighbours two spacings away sit exactly on the support (h = 4r): round-off must
    // not let them in as zero-weight neighbours, which would change n.
    if (d >= hIn) continue;
    const w = 1 - d * invH;
    ra += w;
    na++;
    rho[b] += w;
    cnt[b]++;
  }
  rho[a] += ra;
  cnt[a] += na;
}

/**
 * ρ of every slot into rhoS (complete: missing neighbours filled, n = 0 → ρ0), neighbour counts
 * into cntS, and the next pass's s into sS; returns the mean relative error. Each pair is visited
 * once and adds to both ends. `listed`: listDensityPairs has done the pair loop.
 */
function measure(ctx: StepContext, n: number, nWalls: number, listed: boolean): number {
  const h = ctx.densityH, invH = 1 / h, rho0 = ctx.rho0, hIn = h * (1 - 1e-6), missing = ctx.missingWeight;
  const list = ctx.densityPairs, ls = list.start, pj = list.j, rho = rhoS, cnt = cntS, s = sS;
  if (!listed && !parallelMeasure(ctx, n, hIn, invH, { ls, pj, x: X, rho, cnt })) {
    rho.fill(0, 0, n);
    cnt.fill(0, 0, n);
    measureRange(ls, pj, X, 0, n, hIn, invH, rho, cnt);
  }
  if (nWalls > 0) mirrorPairs(ctx, n, nWalls, 0);
  const order = ctx.densityCells.grid.order, mat = ctx.liquid.material, gain = scratch.gain, one = scratch.gainOne;
  let err = 0;
  for (let a = 0; a < n; a++) {
    const k = cnt[a];
    const r = k === 0 ? rho0 : k >= 26 ? rho[a] : rho[a] + (26 - k) * missing;
    rho[a] = r;
    // A particle short of neighbours is at the free surface: only over-density counts there (its
    // deficit is the surface itself, which no correction should pull shut).
    const excess = k >= 26 ? r - rho0 : Math.max(0, r - rho0);
    err += k >= 26 ? Math.abs(r - rho0) : Math.max(0, r - rho0);
    s[a] = k === 0 ? 0 : ((one >= 0 ? one : gain[mat[order[a]]]) * excess) / Math.max(k, 26);
  }
  return n > 0 ? err / (n * rho0) : 0;
}

/** Per slot: bit a set when a closed wall on axis a is nearer than h; its distance δ and inward sign. */
let wallMask = new Uint8Array(0);
let wallDelta = new Float64Array(0), wallSg = new Float64Array(0);
const off = new Float64Array(3);

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
function mirrorPairs(ctx: StepContext, n: number, nw: number, mode: number): void {
  const h = ctx.densityH, invH = 1 / h, hIn = h * (1 - 1e-6), hIn2 = hIn * hIn;
  const ls = ctx.densityPairs.start, pj = ctx.densityPairs.j, x = X;
  const mask = wallMask, del = wallDelta, wsg = wallSg, rho = rhoS, cnt = cntS, s = sS, corr = corrS;
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
          if (!uniformMass) {
            const wa = invMassS[a], wb = invMassS[b], k2 = (2 * f) / (wa + wb);
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

/**
 * particle.pressureImpulse = false (positions only, as the paper): the velocity density correction
 * undid is removed, in two parts (both only ever remove velocity):
 *  - Support: the body forces of the sub-timestep (gravity and adhesion, L.acc) gave each
 *    particle b = (g + a) δt. Where the passes moved it against b, it keeps at most the rest:
 *    b loses the part −Δx·b̂/δt, at most all of b. This is the pressure of a liquid at rest
 *    balancing gravity, in position-based form: a particle the correction holds up keeps none of
 *    the g δt it was just given. Without it a pool resting in a box keeps g δt every
 *    sub-timestep wherever it moves as a whole (relative velocities there are zero, so the
 *    relative part below cannot see it), is re-compressed every sub-timestep and settles
 *    (7³ block in a box, 10 frames, with mirror walls: 7.0 passes per sub-timestep, settling
 *    0.49 r, max speed 0.29 √(g·depth) without; 1.7 / 0.07 r / 0.09 with).
 *  - Relative: where the passes moved a particle by Δx against its velocity u relative to the
 *    liquid's mass-weighted mean, u loses the part Δx/δt along it, at most all of it (Galilean
 *    invariant: a falling or moving body is not slowed).
 */
function damp(ctx: StepContext, del: Float64Array, invDt: number): void {
  const L = ctx.liquid, n = L.count, vel = L.vel, mat = L.material, mass = ctx.mass, acc = L.acc;
  const dt = 1 / invDt, [gx, gy, gz] = ctx.scene.gravity;
  for (let i = 0; i < n; i++) {
    const o = 3 * i;
    const bx = (acc[o] + gx) * dt, by = (acc[o + 1] + gy) * dt, bz = (acc[o + 2] + gz) * dt;
    const b2 = bx * bx + by * by + bz * bz;
    if (b2 === 0) continue;
    const proj = ((del[o] * bx + del[o + 1] * by + del[o + 2] * bz) * invDt) / b2;
    if (proj >= 0) continue;
    const k = proj < -1 ? -1 : proj;
    vel[o] += k * bx; vel[o + 1] += k * by; vel[o + 2] += k * bz;
  }
  let mx = 0, my = 0, mz = 0, mt = 0;
  for (let i = 0; i < n; i++) {
    const m = mass[mat[i]], o = 3 * i;
    mx += m * vel[o]; my += m * vel[o + 1]; mz += m * vel[o + 2]; mt += m;
  }
  if (mt === 0) return;
  mx /= mt; my /= mt; mz /= mt;
  for (let i = 0; i < n; i++) {
    const o = 3 * i;
    const ux = vel[o] - mx, uy = vel[o + 1] - my, uz = vel[o + 2] - mz, u2 = ux * ux + uy * uy + uz * uz;
    if (u2 === 0) continue;
    const proj = ((del[o] * ux + del[o + 1] * uy + del[o + 2] * uz) * invDt) / u2;
    if (proj >= 0) continue;
    const k = proj < -1 ? -1 : proj;
    vel[o] += k * ux; vel[o + 1] += k * uy; vel[o + 2] += k * uz;
  }
}

/**
 * The pair loop of a pass over slots [a0, a1): each pair within the kernel pushes its two ends
 * apart by s_a + s_b along their line, split by inverse mass, accumulated into `corr` (which the
 * caller zeroes; b may lie outside the range). The one loop the serial and threaded paths run.
 */
export function pushRange(
  ls: Int32Array, pj: Int32Array, x: Float64Array, s: Float64Array, invMass: Float64Array, uniform: boolean,
  a0: number, a1: number, hIn: number, corr: Float64Array,
): void {
  if (!uniform) {
    pushRangeMasses(ls, pj, x, s, invMass, a0, a1, hIn, corr);
    return;
  }
  for (let a = a0; a < a1; a++) {
    const q0 = ls[a], q1 = ls[a + 1];
    if (q0 === q1) continue;
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2], sa = s[a];
    let cx = 0, cy = 0, cz = 0;
    for (let q = q0; q < q1; q++) {
      const b = pj[q];
      const dx = x[3 * b] - xa, dy = x[3 * b + 1] - ya, dz = x[3 * b + 2] - za;
      // The distance the measure before this pass saw, in the single precision it was once kept
      // in between the two (4 bytes a pair; recomputing it costs 1–3 % of the stage).
      const d = Math.fround(Math.sqrt(dx * dx + dy * dy + dz * dz));
      if (d >= hIn || d === 0) continue;
      const push = sa + s[b];
      if (push === 0) continue;
      const f = push / d;
      const fx = f * dx, fy = f * dy, fz = f * dz;
      corr[3 * b] += fx; corr[3 * b + 1] += fy; corr[3 * b + 2] += fz;
      cx += fx; cy += fy; cz += fz;
    }
    corr[3 * a] -= cx; corr[3 * a + 1] -= cy; corr[3 * a + 2] -= cz;
  }
}

/** pushRange where masses differ: each push split by inverse mass (m_a Δx_a = −m_b Δx_b). */
function pushRangeMasses(
  ls: Int32Array, pj: Int32Array, x: Float64Array, s: Float64Array, invMass: Float64Array,
  a0: number, a1: number, hIn: number, corr: Float64Array,
): void {
  for (let a = a0; a < a1; a++) {
    const q0 = ls[a], q1 = ls[a + 1];
    if (q0 === q1) continue;
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2], sa = s[a], wa = invMass[a];
    let cx = 0, cy = 0, cz = 0;
    for (let q = q0; q < q1; q++) {
      const b = pj[q];
      const dx = x[3 * b] - xa, dy = x[3 * b + 1] - ya, dz = x[3 * b + 2] - za;
      const d = Math.fround(Math.sqrt(dx * dx + dy * dy + dz * dz));
      if (d >= hIn || d === 0) continue;
      const push = sa + s[b];
      if (push === 0) continue;
      const f = push / d;
      const fx = f * dx, fy = f * dy, fz = f * dz;
      // The displacement becomes velocity (pressure impulse): momentum must not change.
      const wb = invMass[b], k2 = 2 / (wa + wb), ka = k2 * wa, kb = k2 * wb;
      corr[3 * b] += kb * fx; corr[3 * b + 1] += kb * fy; corr[3 * b + 2] += kb * fz;
      cx += ka * fx; cy += ka * fy; cz += ka * fz;
    }
    corr[3 * a] -= cx; corr[3 * a + 1] -= cy; corr[3 * a + 2] -= cz;
  }
}

/**
 * `constrain` runs after every pass (walls, objects): the error is measured where the particles
 * can actually be, or a wall would undo each pass unseen.
 *
 * At the end the correction's displacement becomes velocity, v += Δx/δt: the pressure impulse, in
 * the form of position-based dynamics (Müller et al. 2007; Macklin & Müller 2013: v = (x_new −
 * x_old)/δt; here over the correction only, the moves having integrated v already). Δx leaves out what
 * `constrain` did (fix): keeping particles out of walls and objects is not pressure (keepOut
 * already removes the velocity into them), and an object contact pushes along the line to the
 * nearest object particle, whose tangential part, as velocity, squirted the honey drop's contact
 * layer off the ball (an impact 5 mm off centre: 77 particles over 7.5 cm from the ball's centre
 * at frame 16 with it, 0 without). The pair pushes and the wall mirrors move equal and opposite
 * momenta (push, mirrorPairs), so Σ m Δv = 0 where no constraint acts.
 *
 * Threading: the pair loops (measure, push, mirrorPairs) write only per-particle sums (ρ, counts,
 * corr) of both ends and read nothing those loops write, so the outer slot loop can be split over
 * workers with per-worker sum buffers added afterwards (in a fixed order, for determinism).
 */
export function correctDensity(ctx: StepContext, dt: number, constrain?: (ctx: StepContext) => void): DensityResult {
  const L = ctx.liquid, n = L.count;
  if (n === 0) return { passes: 0, error: 0 };
  bind(ctx, n);
  const list = ctx.densityPairs, ls = list.start, pj = list.j, order = ctx.densityCells.grid.order;
  const maxPasses = ctx.scene.particle.densityIterations;
  const pos = L.pos, mat = L.material, elastic = ctx.elastic, tol = ctx.tolerance, mass = ctx.mass;
  const h = ctx.densityH, hIn = h * (1 - 1e-6);
  const x = X, xm = Xm, corr = corrS, s = sS, prev = prevS, fix = fixS;
  // The tolerance of the scene: the strictest over the liquids present.
  let tolerance = Infinity;
  for (let m = 0; m < tol.length; m++) if (ctx.isLiquid[m]) tolerance = Math.min(tolerance, tol[m]);
  const d = scratch;
  if (d.gain.length < elastic.length) d.gain = new Float64Array(elastic.length);
  d.gainOne = -1;
  for (let m = 0; m < elastic.length; m++) {
    d.gain[m] = PAIR_GAIN * elastic[m] * h;
    if (!ctx.isLiquid[m]) continue;
    d.gainOne = d.gainOne === -1 || d.gainOne === d.gain[m] ? d.gain[m] : -2;
  }
  if (d.gainOne < 0) d.gainOne = -1;
  const invMass0 = 1 / mass[mat[0]];
  uniformMass = true;
  for (let i = 1; i < n; i++) if (1 / mass[mat[i]] !== invMass0) { uniformMass = false; break; }
  if (!uniformMass) for (let a = 0; a < n; a++) invMassS[a] = 1 / mass[mat[order[a]]];
  const nWalls = collectWalls(ctx);
  let error = measure(ctx, n, nWalls, true);
  let passes = 0;
  for (let o = 0; o < 3 * n; o++) prev[o] = x[o];
  fix.fill(0, 0, 3 * n);
  let omega = 1;
  const impulse = ctx.scene.particle.pressureImpulse;
  const cheb = impulse ? CHEBYSHEV_RHO : CHEBYSHEV_RHO_POSITIONS, rho2 = cheb * cheb;

  while (passes < maxPasses && error > tolerance) {
    if (!parallelPush(ctx, n, hIn, uniformMass, { ls, pj, x, s, invMass: invMassS, corr })) {
      corr.fill(0, 0, 3 * n);
      pushRange(ls, pj, x, s, invMassS, uniformMass, 0, n, hIn, corr);
    }
    if (nWalls > 0) mirrorPairs(ctx, n, nWalls, 1);
    // Chebyshev semi-iteration (Wang 2015, for position-based dynamics): x_{k+1} = ω_{k+1}
    // (x_k + Δx_k − x_{k−1}) + x_{k−1}, ω_1 = 1, ω_2 = 2/(2 − ϱ²), ω_{k+1} = 4/(4 − ϱ² ω_k).
    if (passes === 0) {
      for (let o = 0; o < 3 * n; o++) { xm[o] = x[o]; x[o] += corr[o]; }
    } else {
      omega = passes === 1 ? 2 / (2 - rho2) : 4 / (4 - rho2 * omega);
      for (let o = 0; o < 3 * n; o++) {
        const back = xm[o];
        xm[o] = x[o];
        x[o] = omega * (x[o] + corr[o] - back) + back;
      }
    }
    if (constrain) {
      for (let a = 0; a < n; a++) {
        const i = order[a];
        pos[3 * i] = x[3 * a]; pos[3 * i + 1] = x[3 * a + 1]; pos[3 * i + 2] = x[3 * a + 2];
      }
      constrain(ctx);
      for (let a = 0; a < n; a++) {
        const i = order[a];
        fix[3 * a] += pos[3 * i] - x[3 * a];
        fix[3 * a + 1] += pos[3 * i + 1] - x[3 * a + 1];
        fix[3 * a + 2] += pos[3 * i + 2] - x[3 * a + 2];
        x[3 * a] = pos[3 * i]; x[3 * a + 1] = pos[3 * i + 1]; x[3 * a + 2] = pos[3 * i + 2];
      }
    }
    passes++;
    error = measure(ctx, n, nWalls, false);
  }
  if (passes > 0) {
    // The displacement, less what constrain did, becomes velocity (positions only: damp reads the
    // displacement, by particle, from corr).
    const vel = L.vel, invDt = 1 / dt, del = corr;
    for (let a = 0; a < n; a++) {
      const i = order[a];
      for (let c = 0; c < 3; c++) {
        const o = 3 * i + c, q = 3 * a + c;
        if (impulse) vel[o] += (x[q] - prev[q] - fix[q]) * invDt;
        else del[o] = x[q] - prev[q];
        pos[o] = x[q];
      }
    }
    if (!impulse) damp(ctx, del, invDt);
  }
  const rho = rhoS, dens = L.density, scalar = L.scalar, inv = 1 / ctx.rho0;
  for (let a = 0; a < n; a++) {
    const i = order[a];
    scalar[i] = rho[a];
    dens[i] = rho[a] * inv;
  }
  return { passes, error };
}
