/**
 * Stage "gel": the scene's viscoelastic material (materials.<name>.viscoelastic; Goktekin,
 * Bargteil & O'Brien 2004 as in Cline et al. §8, which the grid engine follows) on particles, as
 * viscoelastic springs with plasticity (Clavet, Beaudoin & Poulin 2005, "Particle-based
 * viscoelastic fluid simulation", §5): neighbouring gel particles closer than SPRING_REACH radii
 * are joined by springs of rest length L made at their distance when they meet; a spring pulls
 * with k (r − L) along the pair; beyond the elastic limit its rest length flows toward r at the
 * yield rate; it is removed when L reaches the reach h (Clavet et al.'s Algorithm 4: the springs'
 * own list, not the neighbour search, carries a spring stretched past h), and, in a gel whose rest
 * lengths do not decay, also when r reaches h. The springs, not the particles, hold the
 * reference shape, so the noise that density correction leaves in positions does not accumulate
 * as strain. Measured against the grid engine on the same scenes: BENCHMARKS.md "Gels".
 *
 * The four scene parameters, one material definition for both engines:
 *   - elasticModulus μ_E (Pa; grid stress μ_E E, so a shear modulus G = μ_E / 2): spring constant
 *     k = κ (1 − L/h), κ = 15 V μ_E / Σ_lattice (1 − |d|/h) |d|², V = (2r)³ — the virial
 *     (Cauchy–Born) shear modulus of the spring network, Σ k L² / (30 V) averaged over directions,
 *     equals μ_E / 2 on the rest lattice;
 *   - elasticLimit γ (a norm of the strain tensor): pair strain limit γ √(2/3), which yields a
 *     uniaxial stretch where the grid's ‖E‖ reaches γ;
 *   - yieldRate (1/s): excess pair strain relaxes as exp(−yieldRate t) (Clavet's α), integrated
 *     exactly over the step;
 *   - decay (1/s): every spring's rest length relaxes toward its length, r − L ∝ exp(−decay t).
 * Springs act on both ends equally and oppositely (bit for bit), so momentum is conserved to
 * round-off.
 *
 * It runs at every move (plastic flow, then the spring forces into the velocities), as gel waves
 * cross a particle spacing within a few moves; step.ts subdivides a sub-timestep whose moves would
 * exceed GEL_COURANT 2r / c_p. Springs are made, broken and listed per particle once a
 * sub-timestep, on the calling thread. The plastic flow (over springs) and the forces (over
 * particles) are jobs (gelPlasticJob, gelForceJob; src/parallel/job.ts) split by items, each
 * spring or particle writing only its own entry, so a thread team gives the same bits as one thread.
 */
import type { Scene } from '../scene/scene.ts';
import { SimulationError } from '../api.ts';
import type { StepContext } from './context.ts';
import type { CellPairs } from './neighbours.ts';
import { allocFloat64, isShared } from '../parallel/memory.ts';
import { defineJob } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { teamWork } from './work.ts';
import type { GelSolve } from './gel-implicit.ts';

/** Springs join gel particles closer than this, liquid radii (the 26 nearest lattice neighbours; density correction's support). */
export const SPRING_REACH = 4;
/** Courant number of the explicit elastic step: δt ≤ GEL_COURANT · 2r / c_p, c_p = √(3 G / ρ) of the spring network. */
export const GEL_COURANT = 0.5;

/** Per-material-pair gel constants and the springs. */
export class GelState {
  readonly materials: number;
  /** κ per material pair a · nm + b, N/m; 0 unless both are gels. */
  readonly stiffness: Float64Array;
  /** Pair strain limit γ √(2/3), per material pair. */
  readonly limit: Float64Array;
  /** Yield rate and decay, 1/s, per material pair. */
  readonly yieldRate: Float64Array;
  readonly decay: Float64Array;
  /** 1 for materials with an elastic modulus. */
  readonly isGel: Uint8Array;
  /** 1/m per material, 1/kg. */
  readonly invMass: Float64Array;
  /** Spring reach h, m. */
  readonly reach: number;
  /** Largest stable move, s. */
  readonly maxMove: number;
  /** The gel material with the fastest elastic waves (the one that sets maxMove). */
  stiffest = '';
  /** The implicit step's arrays and warm start ("pbf": gel-implicit.ts), made at its first step. */
  implicit: GelSolve | null = null;
  /** "pbf": the implicit solves a piece of a sub-timestep takes (gel-implicit.ts; step.ts sets it). */
  solvesPerPiece = 1;

  /** Whether the rest lengths live on shared memory (a thread team runs the plastic job). */
  private shared = false;
  /** Springs: the ids of their ends (LiquidParticles.id), rest lengths (m), and this sub-timestep's particle indices. */
  count = 0;
  idA = new Int32Array(0);
  idB = new Int32Array(0);
  rest = new Float64Array(0);
  a = new Int32Array(0);
  b = new Int32Array(0);
  /** Per particle, its springs: rows[start[i] .. start[i + 1]). */
  start = new Int32Array(1);
  rows = new Int32Array(0);
  /** Particle index by id (−1: gone). */
  indexOf = new Int32Array(0);
  /** Per particle: the last particle that marked it as a spring partner (+1), while listing. */
  mark = new Int32Array(0);
  readonly around = new Int32Array(27);
  /** The velocities at the start of a move (gelForceRange). */
  private vel0 = new Float64Array(0);
  velocitiesFor(n: number, shared: boolean): Float64Array {
    if (this.vel0.length < 3 * n || (shared && !isShared(this.vel0))) this.vel0 = allocFloat64(Math.ceil(3 * n * 1.25), shared);
    return this.vel0;
  }
  /** This move's plastic factors per material pair (GelStep grow, shrink, fade). */
  readonly grow: Float64Array;
  readonly shrink: Float64Array;
  readonly fade: Float64Array;

  private constructor(scene: Scene, r: number) {
    const names = scene.materialNames, nm = names.length;
    this.materials = nm;
    this.stiffness = new Float64Array(nm * nm);
    this.limit = new Float64Array(nm * nm);
    this.yieldRate = new Float64Array(nm * nm);
    this.decay = new Float64Array(nm * nm);
    this.isGel = new Uint8Array(nm);
    this.invMass = new Float64Array(nm);
    this.grow = new Float64Array(nm * nm);
    this.shrink = new Float64Array(nm * nm);
    this.fade = new Float64Array(nm * nm);
    this.reach = SPRING_REACH * r;
    const volume = 8 * r * r * r, perModulus = (15 * volume) / (r * r * latticeSpringSum(SPRING_REACH));
    const kappa = new Float64Array(nm), gamma = new Float64Array(nm), rate = new Float64Array(nm), decay = new Float64Array(nm);
    let fastest = 0;
    names.forEach((name, m) => {
      const mat = scene.materials[name];
      if (mat.kind !== 'liquid') return;
      this.invMass[m] = 1 / (mat.density * volume);
      const ve = mat.viscoelastic;
      if (!ve || !(ve.elasticModulus > 0)) return;
      this.isGel[m] = 1;
      kappa[m] = perModulus * ve.elasticModulus;
      gamma[m] = ve.elasticLimit * Math.sqrt(2 / 3);
      rate[m] = ve.yieldRate;
      decay[m] = ve.decay;
      // P-wave speed of the network: its Lamé λ equals G (central forces), so λ + 2G = 1.5 μ_E.
      const c = Math.sqrt((1.5 * ve.elasticModulus) / mat.density);
      if (c > fastest) this.stiffest = name;
      fastest = Math.max(fastest, c);
    });
    for (let p = 0; p < nm; p++) {
      for (let q = 0; q < nm; q++) {
        if (!this.isGel[p] || !this.isGel[q]) continue;
        const e = p * nm + q;
        this.stiffness[e] = 0.5 * (kappa[p] + kappa[q]);
        this.limit[e] = 0.5 * (gamma[p] + gamma[q]);
        this.yieldRate[e] = 0.5 * (rate[p] + rate[q]);
        this.decay[e] = 0.5 * (decay[p] + decay[q]);
      }
    }
    this.maxMove = (GEL_COURANT * 2 * r) / fastest;
  }

  /** The gel state of a scene, or null when no liquid has an elastic modulus above 0. */
  static of(scene: Scene): GelState | null {
    for (const name of scene.materialNames) {
      const mat = scene.materials[name];
      if (mat.kind === 'liquid' && mat.viscoelastic && mat.viscoelastic.elasticModulus > 0) return new GelState(scene, scene.particle.radius);
    }
    return null;
  }

  /** Room for `total` springs, keeping the first `count`. */
  reserve(total: number): void {
    if (this.idA.length >= total) return;
    const cap = Math.ceil(total * 1.25) + 64;
    const keep = <T extends Int32Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const a = make(cap);
      a.set(old.subarray(0, this.count) as never);
      return a;
    };
    this.idA = keep(this.idA, (k) => new Int32Array(k));
    this.idB = keep(this.idB, (k) => new Int32Array(k));
    this.rest = keep(this.rest, (k) => allocFloat64(k, this.shared));
    this.a = keep(this.a, (k) => new Int32Array(k));
    this.b = keep(this.b, (k) => new Int32Array(k));
  }

  /** Moves the rest lengths (which the plastic job writes) to shared memory, for a thread team. */
  shareRest(): void {
    this.shared = true;
    const rest = allocFloat64(this.rest.length, true);
    rest.set(this.rest);
    this.rest = rest;
  }
}

/** Σ (1 − |d|/h) |d|² over the rest lattice's neighbours d (spacing 2, lengths in radii) within h = `reach` radii. */
export function latticeSpringSum(reach: number): number {
  let sum = 0;
  const n = Math.ceil(reach / 2);
  for (let i = -n; i <= n; i++) {
    for (let j = -n; j <= n; j++) {
      for (let k = -n; k <= n; k++) {
        const d2 = 4 * (i * i + j * j + k * k);
        if (d2 === 0 || d2 >= reach * reach) continue;
        sum += (1 - Math.sqrt(d2) / reach) * d2;
      }
    }
  }
  return sum;
}

/** Per move: the arrays and this step's per-material-pair factors. */
export interface GelStep {
  pos: Float64Array;
  vel: Float64Array;
  /** Velocities at the start of the move (the force pass reads these, writes vel). */
  vel0: Float64Array;
  material: Uint16Array;
  a: Int32Array;
  b: Int32Array;
  rest: Float64Array;
  start: Int32Array;
  rows: Int32Array;
  materials: number;
  stiffness: Float64Array;
  limit: Float64Array;
  /** Per material pair: the part of the excess over the limit a stretched (grow) or compressed (shrink) spring's rest length takes up this step. */
  grow: Float64Array;
  shrink: Float64Array;
  /** exp(−decay δt) per material pair. */
  fade: Float64Array;
  invMass: Float64Array;
  /** 1/h, 1/m. */
  invReach: number;
  dt: number;
}

/**
 * Plastic flow of springs [s0, s1) (Clavet et al. §5.1, integrated exactly over δt): beyond the
 * pair limit γ the rest length takes up the excess, x = r − (1 + γ) L relaxing as
 * exp(−(1 + γ) α δt) (compressed: (1 − γ) L − r as exp(−(1 − γ) α δt)); then decay, r − L → (r − L) exp(−decay δt).
 * Writes only rest[s].
 */
export function gelPlasticRange(s: Pick<GelStep, 'pos' | 'material' | 'a' | 'b' | 'rest' | 'materials' | 'limit' | 'grow' | 'shrink' | 'fade'>, s0: number, s1: number): void {
  const { pos, material, a, b, rest, materials: nm, limit, grow, shrink, fade } = s;
  for (let q = s0; q < s1; q++) {
    const i = a[q], j = b[q], e = material[i] * nm + material[j];
    const dx = pos[3 * j] - pos[3 * i], dy = pos[3 * j + 1] - pos[3 * i + 1], dz = pos[3 * j + 2] - pos[3 * i + 2];
    const r = Math.sqrt(dx * dx + dy * dy + dz * dz);
    let L = rest[q];
    const g = limit[e];
    const over = r - (1 + g) * L, under = (1 - g) * L - r;
    if (over > 0) L += over * grow[e];
    else if (under > 0) L -= under * shrink[e];
    const f = fade[e];
    if (f !== 1) L = r + (L - r) * f;
    rest[q] = L;
  }
}

/**
 * Spring forces on particles [i0, i1): vᵢ += δt/mᵢ Σ k (r − L + δt u) (xⱼ − xᵢ)/r over its
 * springs, k = κ (1 − L/h), u = (vⱼ − vᵢ)·(xⱼ − xᵢ)/r the rate of stretch from the velocities at
 * the start of the move (`vel0`): the spring force at the end of the move, linearized (a backward
 * Euler step along the spring), which damps particle-scale vibration (damping ratio ω δt / 2 for a
 * mode of frequency ω: about 0.3 at a particle spacing, 0.02 for the wobble of a 5 cm block) that
 * the projections of density correction and contacts otherwise pump up. Writes only vᵢ; the two
 * ends of a spring get exact opposites.
 */
export function gelForceRange(
  s: Pick<GelStep, 'pos' | 'vel' | 'vel0' | 'material' | 'a' | 'b' | 'rest' | 'start' | 'rows' | 'materials' | 'stiffness' | 'invMass' | 'invReach' | 'dt'>, i0: number, i1: number,
): void {
  const { pos, vel, vel0, material, a, b, rest, start, rows, materials: nm, stiffness, invMass, invReach, dt } = s;
  for (let i = i0; i < i1; i++) {
    const q0 = start[i], q1 = start[i + 1];
    if (q0 === q1) continue;
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], mi = material[i];
    const ui = vel0[3 * i], vi = vel0[3 * i + 1], wi = vel0[3 * i + 2];
    let fx = 0, fy = 0, fz = 0;
    for (let q = q0; q < q1; q++) {
      const sp = rows[q], j = a[sp] + b[sp] - i;
      const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
      const r = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const L = rest[sp], w = 1 - L * invReach;
      if (!(r > 0) || !(w > 0)) continue;
      const stretch = ((vel0[3 * j] - ui) * dx + (vel0[3 * j + 1] - vi) * dy + (vel0[3 * j + 2] - wi) * dz) / r;
      const f = (stiffness[mi * nm + material[j]] * w * (r - L + dt * stretch)) / r;
      fx += f * dx; fy += f * dy; fz += f * dz;
    }
    const k = dt * invMass[mi];
    vel[3 * i] += k * fx;
    vel[3 * i + 1] += k * fy;
    vel[3 * i + 2] += k * fz;
  }
}

/**
 * For gel particles [i0, i1) of the sorted liquid: the neighbours j > i that are gel particles
 * within `reach2` (m²) and not yet joined to i (mark[j] ≠ i + 1 once i's springs are marked), to
 * be joined; `emit(i, j, r)` receives each. Cells: ctx.cells (edge ≥ the reach).
 */
export function newSpringsRange(
  cells: CellPairs, pos: Float64Array, material: Uint16Array, isGel: Uint8Array, g: GelState, reach2: number,
  emit: (i: number, j: number, r: number) => void, i0: number, i1: number,
): void {
  const grid = cells.grid, cellOf = grid.pointCell, cstart = grid.start, ccount = grid.count, around = g.around;
  const { start, rows, a, b, mark } = g;
  let cell = -1, m = 0;
  for (let i = i0; i < i1; i++) {
    if (!isGel[material[i]]) continue;
    for (let q = start[i]; q < start[i + 1]; q++) mark[a[rows[q]] + b[rows[q]] - i] = i + 1;
    const c = cellOf[i];
    if (c !== cell) {
      m = grid.neighborCells(c, around, 1);
      cell = c;
    }
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    for (let k = 0; k < m; k++) {
      const nc = around[k];
      for (let j = Math.max(cstart[nc], i + 1), end = cstart[nc] + ccount[nc]; j < end; j++) {
        if (!isGel[material[j]] || mark[j] === i + 1) continue;
        const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < reach2) emit(i, j, Math.sqrt(d2));
      }
    }
  }
}

/**
 * One move of the gel stage: (when `relist`, the first move of a sub-timestep) the springs are
 * mapped to this sub-timestep's particle order, broken, made and listed per particle; then their
 * plastic flow and forces over δt = `dt`.
 */
export function applyGel(ctx: StepContext, dt: number, relist: boolean): void {
  const gel = ctx.gel;
  if (gel === null) return;
  const L = ctx.liquid, n = L.count;
  if (relist) listSprings(ctx, gel);
  const nm = gel.materials;
  plasticFactors(gel, dt);
  if (ctx.shared && !isShared(gel.rest)) gel.shareRest();
  const plastic = ctx.runner.bind(gelPlasticJob), p = plastic.a;
  p.pos = L.pos; p.material = L.material; p.a = gel.a; p.b = gel.b; p.rest = gel.rest;
  p.limit = gel.limit; p.grow = gel.grow; p.shrink = gel.shrink; p.fade = gel.fade;
  plastic.s.materials = nm;
  runJob(plastic, gel.count);
  const vel0 = gel.velocitiesFor(n, ctx.shared);
  vel0.set(L.vel.subarray(0, 3 * n));
  const force = ctx.runner.bind(gelForceJob), f = force.a;
  f.pos = L.pos; f.vel = L.vel; f.vel0 = vel0; f.material = L.material; f.a = gel.a; f.b = gel.b; f.rest = gel.rest;
  f.start = gel.start; f.rows = gel.rows; f.stiffness = gel.stiffness; f.invMass = gel.invMass;
  force.s.materials = nm; force.s.invReach = 1 / gel.reach; force.s.dt = dt;
  runJob(force, n);
}

/** This step's plastic factors per material pair (GelStep grow, shrink, fade) over δt = `dt`. */
export function plasticFactors(gel: GelState, dt: number): void {
  const nm = gel.materials;
  for (let e = 0; e < nm * nm; e++) {
    const g = gel.limit[e], rate = gel.yieldRate[e];
    gel.grow[e] = -Math.expm1(-(1 + g) * rate * dt) / (1 + g);
    gel.shrink[e] = g < 1 ? -Math.expm1(-(1 - g) * rate * dt) / (1 - g) : 0;
    gel.fade[e] = Math.exp(-gel.decay[e] * dt);
  }
}

/** Plastic flow over the springs (gelPlasticRange): each spring writes only its rest length. */
export const gelPlasticJob = defineJob({
  name: 'gelPlastic',
  arrays: { rest: 'f64' },
  inputs: { pos: 'f64', material: 'u16', a: 'i32', b: 'i32', limit: 'f64', grow: 'f64', shrink: 'f64', fade: 'f64' },
  scalars: ['materials'],
  split: 'items',
  minItems: () => 8 * teamWork.minParticles,
  kernel(x) {
    gelPlasticRange({ ...x.a, materials: x.s.materials }, x.from, x.to);
  },
});

/** The spring forces into the velocities (gelForceRange): each particle writes only its own. */
export const gelForceJob = defineJob({
  name: 'gelForce',
  arrays: { vel: 'f64' },
  inputs: { pos: 'f64', vel0: 'f64', material: 'u16', a: 'i32', b: 'i32', rest: 'f64', start: 'i32', rows: 'i32', stiffness: 'f64', invMass: 'f64' },
  scalars: ['materials', 'invReach', 'dt'],
  split: 'items',
  minItems: () => teamWork.minParticles,
  kernel(x) {
    gelForceRange({ ...x.a, materials: x.s.materials, invReach: x.s.invReach, dt: x.s.dt }, x.from, x.to);
  },
});

/**
 * Maps the springs to particle indices, drops those whose ends are gone, whose rest length has
 * reached h, or (a pair of gels without decay) whose length has, makes new ones, and lists them per particle.
 */
export function listSprings(ctx: StepContext, gel: GelState): void {
  const L = ctx.liquid, n = L.count, pos = L.pos, ids = L.id, h = gel.reach, mat = L.material, nm = gel.materials, decay = gel.decay;
  if (gel.indexOf.length < L.nextId) gel.indexOf = new Int32Array(Math.ceil(L.nextId * 1.25) + 64);
  const indexOf = gel.indexOf;
  indexOf.fill(-1, 0, L.nextId);
  for (let i = 0; i < n; i++) indexOf[ids[i]] = i;
  let w = 0;
  for (let q = 0; q < gel.count; q++) {
    const i = indexOf[gel.idA[q]], j = indexOf[gel.idB[q]];
    if (i < 0 || j < 0) continue;
    const dx = pos[3 * j] - pos[3 * i], dy = pos[3 * j + 1] - pos[3 * i + 1], dz = pos[3 * j + 2] - pos[3 * i + 2];
    if (gel.rest[q] >= h || (dx * dx + dy * dy + dz * dz >= h * h && decay[mat[i] * nm + mat[j]] === 0)) continue;
    gel.idA[w] = gel.idA[q]; gel.idB[w] = gel.idB[q]; gel.rest[w] = gel.rest[q];
    gel.a[w] = i; gel.b[w] = j;
    w++;
  }
  gel.count = w;
  listRows(gel, n);
  if (gel.mark.length < n) gel.mark = new Int32Array(Math.ceil(n * 1.25));
  gel.mark.fill(0, 0, n);
  const emit = (i: number, j: number, r: number): void => {
    if (gel.count === gel.idA.length) gel.reserve(gel.count + 1);
    const q = gel.count++;
    gel.idA[q] = ids[i]; gel.idB[q] = ids[j]; gel.rest[q] = r;
    gel.a[q] = i; gel.b[q] = j;
  };
  newSpringsRange(ctx.cells, pos, L.material, gel.isGel, gel, h * h, emit, 0, n);
  listRows(gel, n);
}

/** Per particle, the indices of its springs (counting sort by end). */
function listRows(gel: GelState, n: number): void {
  if (gel.start.length < n + 1) gel.start = new Int32Array(Math.ceil((n + 1) * 1.25));
  if (gel.rows.length < 2 * gel.count) gel.rows = new Int32Array(Math.ceil(2 * gel.count * 1.25) + 64);
  const start = gel.start, rows = gel.rows, a = gel.a, b = gel.b, m = gel.count;
  start.fill(0, 0, n + 1);
  for (let q = 0; q < m; q++) { start[a[q] + 1]++; start[b[q] + 1]++; }
  for (let i = 0; i < n; i++) start[i + 1] += start[i];
  const fill = gel.mark.length >= n ? gel.mark : (gel.mark = new Int32Array(Math.ceil(n * 1.25)));
  for (let i = 0; i < n; i++) fill[i] = start[i];
  for (let q = 0; q < m; q++) { rows[fill[a[q]]++] = q; rows[fill[b[q]]++] = q; }
}

/** Pieces a sub-timestep of `dt` seconds with `moves` moves must be cut into for the gel's explicit step (1 without a gel). */
export function gelPieces(gel: GelState | null, dt: number, moves: number): number {
  return gel === null ? 1 : Math.ceil(dt / (moves * gel.maxMove));
}

/**
 * At setup: a gel too stiff for the explicit springs within `maxPieces` pieces of the scene's
 * sub-timestep is refused with a message naming the material and what to change (past the cap
 * the springs would be unstable).
 */
export function checkGelStep(gel: GelState | null, scene: Scene, maxPieces: number): void {
  if (gel === null) return;
  const P = scene.particle, pieces = gelPieces(gel, 1 / (scene.fps * P.substeps), P.moves);
  if (pieces <= maxPieces) return;
  const ve = scene.materials[gel.stiffest];
  const modulus = ve.kind === 'liquid' ? ve.viscoelastic?.elasticModulus : undefined;
  throw new SimulationError(
    `materials.${gel.stiffest}.viscoelastic.elasticModulus ${modulus} Pa is too stiff for the particle engine's elastic springs at particle.substeps ${P.substeps}: ` +
      `each sub-timestep would need ${pieces} pieces, at most ${maxPieces} are taken; raise particle.substeps to at least ${Math.ceil((P.substeps * pieces) / maxPieces)}, or particle.radius, or lower the modulus`,
    'setup',
    0,
  );
}
