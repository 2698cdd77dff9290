/**
 * Stage "density" (Steele §3.5, as corrected in DESIGN.md): iterative density correction after the
 * moves of a sub-timestep. ω is the ramp 1 − d/h; ρ0 = Σω over the 26 neighbours of the initial
 * lattice (spacing 2r); ρ = Σω (n ≥ 26), ρ0 (n = 0), over liquid neighbours only (objects never
 * take part) plus the mirror images of closed domain walls (see collectWalls). For 0 < n < 26 the paper scales, (26/n) Σω; that reads a particle on a flat free
 * surface of the rest lattice 8.4 % over-dense (edges 16 %, corners 23 %: the missing neighbours
 * are the far ones), so a block at rest would not stay at rest. We fill the 26 − n missing
 * neighbours with ω̄, the mean weight of the 9 a flat-surface particle lacks:
 * ρ = Σω + (26 − n) ω̄, exact on a flat surface (edges −2.3 %, corners −5.5 %). Each pass computes
 *   s_p = c (ρ_p − ρ0) / |ρ′_p|,   ρ′_p = −max(n, 26)/h (the derivative of ρ when all neighbours
 *                                   move out by one unit; constant for a ramp),
 * moves every neighbour n of p by s_p along (p_n − p)/|p_n − p| and p by −s_p along the same line,
 * accumulates all of this and applies it together. Passes repeat until the mean relative error
 * is within the tolerance or densityIterations is reached. The error of a particle is |ρ − ρ0|/ρ0,
 * except at the free surface (n < 26), where only over-density counts and is corrected: there a
 * deficit is the surface itself.
 */
import type { StepContext } from './context.ts';
import { FACES } from '../scene/schema.ts';
import { faceBoundary } from './collisions.ts';

/**
 * Domain walls as mirror neighbours: a particle at distance δ from a closed face sees its own
 * mirror image at 2δ (the lattice next to a wall, at δ = r, sees its mirror at exactly the spacing
 * 2r). Without them a wall layer reads as free surface, its deficit is never corrected and a pool
 * packs itself down onto its floor. Axis, plane coordinate and inward sign per closed face.
 */
const wallAxis = new Int32Array(6), wallPlane = new Float64Array(6), wallSign = new Float64Array(6);
function collectWalls(ctx: StepContext): number {
  const d = ctx.scene.domain;
  if (!d || !ctx.scene.particle.walls) return 0;
  let k = 0;
  for (let f = 0; f < 6; f++) {
    if (faceBoundary(ctx, FACES[f]) === 'open') continue;
    const axis = f >> 1, upper = (f & 1) === 1;
    wallAxis[k] = axis;
    wallPlane[k] = upper ? d.max[axis] : d.min[axis];
    wallSign[k] = upper ? -1 : 1;
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

export interface DensityResult {
  passes: number;
  /** Mean relative error after the last pass. */
  error: number;
}

/** Positions in slot order of densityCells.grid (contiguous per cell), rebuilt by listDensityPairs. */
let slotPos = new Float64Array(0);

/**
 * Lists the liquid pairs within the density kernel (keyed by slot of densityCells.grid.order).
 * The scan reads a slot-ordered copy of the positions (the same numbers, contiguous per cell) and
 * skips neighbour cells whose bounding box is out of reach (exact, CellPairs.box): the same pairs
 * in the same order as a plain 27-cell scan.
 */
export function listDensityPairs(ctx: StepContext): void {
  const L = ctx.liquid, n = L.count, pos = L.pos;
  const dc = ctx.densityCells;
  dc.build(pos, n);
  const g = dc.grid, start = g.start, cnt = g.count, order = g.order, first = dc.first, cells = dc.cells;
  if (slotPos.length < 3 * n) slotPos = new Float64Array(Math.ceil(3 * n * 1.25));
  const sp = slotPos;
  for (let a = 0; a < n; a++) {
    const i = order[a];
    sp[3 * a] = pos[3 * i]; sp[3 * a + 1] = pos[3 * i + 1]; sp[3 * a + 2] = pos[3 * i + 2];
  }
  dc.updateBoxes(sp);
  const box = dc.box;
  const h2 = ctx.densityH * ctx.densityH;
  const list = ctx.densityPairs;
  list.reset(n);
  const ls = list.start;
  let lj = list.j, len = 0;
  for (let c = 0; c < g.cellCount; c++) {
    const a0 = start[c], a1 = a0 + cnt[c];
    for (let a = a0; a < a1; a++) {
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
        const b1 = start[c2] + cnt[c2];
        for (let b = c2 === c ? a + 1 : start[c2]; b < b1; b++) {
          const dx = sp[3 * b] - xi, dy = sp[3 * b + 1] - yi, dz = sp[3 * b + 2] - zi;
          if (dx * dx + dy * dy + dz * dz < h2) {
            if (len === lj.length) {
              list.length = len;
              list.push(order[b]);
              lj = list.j;
              len = list.length;
            } else lj[len++] = order[b];
          }
        }
      }
    }
  }
  list.length = len;
  ls[n] = len;
}

/** ρ of every liquid particle into L.scalar, neighbour counts into `counts`; returns the mean relative error. */
function measure(ctx: StepContext, counts: Int32Array): number {
  const L = ctx.liquid, n = L.count, pos = L.pos, rho = L.scalar;
  const h = ctx.densityH, invH = 1 / h, rho0 = ctx.rho0, hIn = h * (1 - 1e-6), missing = ctx.missingWeight;
  const list = ctx.densityPairs, ls = list.start, lj = list.j, order = ctx.densityCells.grid.order;
  rho.fill(0, 0, n);
  counts.fill(0, 0, n);
  for (let a = 0; a < n; a++) {
    const i = order[a];
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    let ri = 0, ni = 0;
    for (let q = ls[a]; q < ls[a + 1]; q++) {
      const j = lj[q];
      const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      // Lattice neighbours two spacings away sit exactly on the support (h = 4r): round-off must
      // not let them in as zero-weight neighbours, which would change n.
      if (d >= hIn) continue;
      const w = 1 - d * invH;
      ri += w;
      ni++;
      rho[j] += w;
      counts[j]++;
    }
    rho[i] += ri;
    counts[i] += ni;
  }
  const nw = collectWalls(ctx), h2 = hIn / 2;
  for (let w = 0; w < nw; w++) {
    const ax = wallAxis[w], pl = wallPlane[w], sg = wallSign[w];
    for (let i = 0; i < n; i++) {
      const delta = (pos[3 * i + ax] - pl) * sg;
      if (delta <= 0 || delta >= h2) continue;
      rho[i] += 1 - 2 * delta * invH;
      counts[i]++;
    }
  }
  let err = 0;
  for (let i = 0; i < n; i++) {
    const k = counts[i];
    const r = k === 0 ? rho0 : k >= 26 ? rho[i] : rho[i] + (26 - k) * missing;
    rho[i] = r;
    // A particle short of neighbours is at the free surface: only over-density counts there (its
    // deficit is the surface itself, which no correction should pull shut).
    err += k >= 26 ? Math.abs(r - rho0) : Math.max(0, r - rho0);
  }
  return n > 0 ? err / (n * rho0) : 0;
}

let countScratch = new Int32Array(0);
let prevPos = new Float64Array(0);

/**
 * Velocity that density correction undid. The passes moved each particle by Δx = x − prev; where
 * that opposes its velocity u (relative to the liquid's mass-weighted mean velocity, so a falling
 * or moving body is not slowed), u loses the part Δx/δt along it, at most all of it: never
 * reversed, never increased. Without this a resting liquid keeps the g δt that gravity gave it in
 * the sub-timestep (position correction alone leaves it: the residual speed of a pool at rest was
 * about g δt) and re-compresses itself every sub-timestep. Measured (7³ block under gravity in a box,
 * 10 frames): passes per sub-timestep 4.7 → 3.0, final max speed 0.17 → 0.09 √(g·depth).
 */
function damp(ctx: StepContext, prev: Float64Array, invDt: number): void {
  const L = ctx.liquid, n = L.count, pos = L.pos, vel = L.vel, mat = L.material, mass = ctx.mass;
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
    const proj = (((pos[o] - prev[o]) * ux + (pos[o + 1] - prev[o + 1]) * uy + (pos[o + 2] - prev[o + 2]) * uz) * invDt) / u2;
    if (proj >= 0) continue;
    const k = proj < -1 ? -1 : proj;
    vel[o] += k * ux; vel[o + 1] += k * uy; vel[o + 2] += k * uz;
  }
}

/**
 * `constrain` runs after every pass (walls, objects): the error is measured where the particles
 * can actually be, or a wall would undo each pass unseen.
 */
export function correctDensity(ctx: StepContext, dt: number, constrain?: (ctx: StepContext) => void): DensityResult {
  const invDt = 1 / dt, mass = ctx.mass;
  const L = ctx.liquid, n = L.count;
  if (countScratch.length < n) countScratch = new Int32Array(Math.ceil(n * 1.25));
  const counts = countScratch;
  const maxPasses = ctx.scene.particle.densityIterations;
  const pos = L.pos, vel = L.vel, rho = L.scalar, corr = L.acc, mat = L.material;
  const h = ctx.densityH, rho0 = ctx.rho0, elastic = ctx.elastic, tol = ctx.tolerance;
  const list = ctx.densityPairs, ls = list.start, lj = list.j, order = ctx.densityCells.grid.order;
  // The tolerance of the scene: the strictest over the liquids present.
  let tolerance = Infinity;
  for (let m = 0; m < tol.length; m++) if (ctx.isLiquid[m]) tolerance = Math.min(tolerance, tol[m]);
  const nWalls = collectWalls(ctx);
  let error = measure(ctx, counts);
  let passes = 0;
  if (prevPos.length < 3 * n) prevPos = new Float64Array(Math.ceil(3 * n * 1.25));
  const prev = prevPos;
  for (let o = 0; o < 3 * n; o++) prev[o] = pos[o];

  while (passes < maxPasses && error > tolerance) {
    // s_p into rho (ρ is not needed again before the next measure).
    for (let i = 0; i < n; i++) {
      const k = counts[i];
      const excess = k >= 26 ? rho[i] - rho0 : Math.max(0, rho[i] - rho0);
      rho[i] = k === 0 ? 0 : (PAIR_GAIN * elastic[mat[i]] * excess * h) / Math.max(k, 26);
    }
    corr.fill(0, 0, 3 * n);
    for (let a = 0; a < n; a++) {
      const i = order[a];
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const si = rho[i];
      for (let q = ls[a]; q < ls[a + 1]; q++) {
        const j = lj[q];
        const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 >= h * h || d2 === 0) continue;
        const push = si + rho[j];
        const d = Math.sqrt(d2);
        const f = push / d;
        corr[3 * j] += f * dx; corr[3 * j + 1] += f * dy; corr[3 * j + 2] += f * dz;
        corr[3 * i] -= f * dx; corr[3 * i + 1] -= f * dy; corr[3 * i + 2] -= f * dz;
        if (push <= 0) continue;
        // A pair pushed apart keeps no more closing speed than the push undoes in a
        // sub-timestep: otherwise gravity re-compresses every substep what was just corrected
        // and a resting liquid never rests. Relative, mass-weighted: Galilean invariant and
        // momentum-conserving (a falling blob is not slowed).
        const ux = dx / d, uy = dy / d, uz = dz / d;
        const vn = (vel[3 * j] - vel[3 * i]) * ux + (vel[3 * j + 1] - vel[3 * i + 1]) * uy + (vel[3 * j + 2] - vel[3 * i + 2]) * uz;
        if (vn >= 0) continue;
        const dv = Math.min(-vn, 2 * push * invDt);
        const mi = mass[mat[i]], mj = mass[mat[j]];
        const ai = (dv * mj) / (mi + mj), aj = (dv * mi) / (mi + mj);
        vel[3 * i] -= ai * ux; vel[3 * i + 1] -= ai * uy; vel[3 * i + 2] -= ai * uz;
        vel[3 * j] += aj * ux; vel[3 * j + 1] += aj * uy; vel[3 * j + 2] += aj * uz;
      }
    }
    // A mirror neighbour pushes its particle straight off the wall by s_p (the mirror moves the
    // other way by as much, so the gap changes as for a liquid pair).
    for (let w = 0; w < nWalls; w++) {
      const ax = wallAxis[w], pl = wallPlane[w], sg = wallSign[w], hw = h / 2;
      for (let i = 0; i < n; i++) {
        const delta = (pos[3 * i + ax] - pl) * sg;
        if (delta <= 0 || delta >= hw) continue;
        corr[3 * i + ax] += sg * 2 * rho[i];
      }
    }
    for (let o = 0; o < 3 * n; o++) pos[o] += corr[o];
    constrain?.(ctx);
    passes++;
    error = measure(ctx, counts);
  }
  if (passes > 0) damp(ctx, prev, invDt);
  const dens = L.density, inv = 1 / rho0;
  for (let i = 0; i < n; i++) dens[i] = rho[i] * inv;
  return { passes, error };
}
