/**
 * Stage "temperature" (beyond Steele et al. 2004, whose liquids have one viscosity each): the
 * temperature of variable-viscosity liquids, with the law the grid engine uses (Cline et al. §7.2,
 * after Carlson et al. 2002), ν(T) = ν0 exp(−k (T − T0)), ν0 the material's stated viscosity at
 * its reference temperature T0.
 *
 * - Which liquids: as the grid decides (grid/liquid.ts), a liquid whose grid.viscosityModel is
 *   "variable", or "variational" with a `temperature` block; its law is materials.<name>.grid.temperature.
 * - Each particle carries its temperature (Lagrangian: nothing to advect); a particle starts at its
 *   material's `initial` temperature, as the grid fills a body's or a source's cells.
 * - Heat conduction between neighbouring particles in the form of Cleary & Monaghan 1999 ("Conduction
 *   Modelling Using Smoothed Particle Hydrodynamics", J. Comput. Phys. 148, 227–264: Brookshaw's
 *   Laplacian with the harmonic mean of the two conductivities):
 *     dT_i/dt = Σ_j c_ij (T_j − T_i),   c_ij = N α_ij (−w′(q) r) / (h (r² + 0.01 h²)),  q = r/h,
 *   α_ij = 2 α_i α_j / (α_i + α_j) (their harmonic mean of conductivities: a liquid with no law, or
 *   diffusivity 0, is an insulator), α the material's thermal diffusivity in m²/s (the same number
 *   the grid diffuses with), w the cubic spline over the largest viscosity kernel support h of the
 *   thermal liquids, and N the factor that makes the rest lattice's estimate of ∇²(x²) exactly 2
 *   (so the volume V_j = (2r)³ and the spline's normalization are in it). Each pair exchanges equal
 *   and opposite heat: the liquid's heat is conserved to round-off. The free surface and bodies
 *   are insulating (the scene format gives bodies no temperature; the grid's liquid cells have no
 *   heat flux out of the liquid either); closed domain walls are insulating too, through mirror
 *   images (the pair's ghost across a wall within h adds its coefficient), so a liquid along a
 *   wall diffuses as in the bulk. Explicit in time, sub-cycled so that δt Σ_j c_ij ≤ HEAT_STEP_LIMIT
 *   for every particle (no new extremes).
 * - The viscosity factor f_i = ν(T_i)/ν0 per particle (`factor`), which both viscosity solvers read
 *   (viscosity.ts, viscosity-weiler*.ts, boundary-viscosity.ts): a pair takes the harmonic mean of
 *   its two particles' factors (see scaleExchangeWeights).
 *
 * The temperatures are the liquid's channel "temperature" (channels.ts): sorted, compacted and
 * filled with the particles, so they are always in the liquid's current order; the factors are
 * made from them by this stage every sub-timestep.
 */
import type { StepContext } from './context.ts';
import type { Scene } from '../scene/scene.ts';
import { FACES } from '../scene/faces.ts';
import type { LiquidMaterial } from '../scene/schema.ts';
import { cubicSplineSlope } from '../math/kernels.ts';
import { defineJob } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { allocFloat64 } from '../parallel/memory.ts';
import type { CheckpointReader } from '../io/checkpoint.ts';
import { faceBoundary } from './boundaries.ts';
import type { LiquidParticles } from './liquid.ts';
import type { ParticleChannel } from './channels.ts';
import { teamWork } from './work.ts';

/** Largest δt Σ_j c_ij of one explicit heat step (1 keeps every new temperature a mean of old ones). */
export const HEAT_STEP_LIMIT = 0.5;
/** Most heat steps a sub-timestep; past it the sub-timestep conducts less heat and counts `heatStepCap`. */
export const MAX_HEAT_STEPS = 256;
/** |k (T − T0)| is clamped here (a factor of e^±40), so that no viscosity becomes 0 or infinite. */
const MAX_EXPONENT = 40;
/** Entries per closed wall in `walls`: axis, plane, side (+1 upper, −1 lower). */
const WALL_STRIDE = 3;

export interface TemperatureLaw {
  /** °C. */
  initial: number;
  reference: number;
  /** 1/°C. */
  coefficient: number;
  /** m²/s. */
  diffusivity: number;
}

/** A liquid's temperature law where its viscosity follows one (the grid engine's rule, grid/liquid.ts), else null. */
export function temperatureLaw(mat: LiquidMaterial): TemperatureLaw | null {
  const law = mat.grid.temperature, model = mat.grid.viscosityModel;
  if (model !== 'variable' && !(model === 'variational' && law !== undefined)) return null;
  return { initial: law?.initial ?? 20, reference: law?.reference ?? 20, coefficient: law?.coefficient ?? 0.1, diffusivity: law?.diffusivity ?? 1e-4 };
}

function onShared(a: Float64Array): boolean {
  return typeof SharedArrayBuffer !== 'undefined' && a.buffer instanceof SharedArrayBuffer;
}

/** Cleary & Monaghan's pair shape −w′(q) r / (h (r² + 0.01 h²)) at squared distance d2 < h² (without N). */
function pairShape(d2: number, h: number, invH: number, eta2: number): number {
  const r = Math.sqrt(d2);
  return (-cubicSplineSlope(r * invH) * r * invH) / (d2 + eta2);
}

/** N of the header: 2 over Σ x_j² pairShape on the rest lattice (spacing 2r) around a particle. */
export function latticeHeatNorm(r: number, h: number): number {
  const s = 2 * r, m = Math.ceil(h / s), invH = 1 / h, eta2 = 0.01 * h * h;
  let sum = 0;
  for (let i = -m; i <= m; i++) {
    for (let j = -m; j <= m; j++) {
      for (let k = -m; k <= m; k++) {
        const d2 = s * s * (i * i + j * j + k * k);
        if (d2 > 0 && d2 < h * h) sum += s * s * i * i * pairShape(d2, h, invH, eta2);
      }
    }
  }
  return 2 / sum;
}

/** What the stage keeps (StepContext.temperature): per material the laws, per particle T and the viscosity factor. */
export class ParticleTemperature {
  /** Per material: 1 where the viscosity follows the law. */
  readonly thermal: Uint8Array;
  readonly initial: Float64Array;
  readonly reference: Float64Array;
  readonly coefficient: Float64Array;
  readonly diffusivity: Float64Array;
  /** Heat kernel support h, m, and N (see the header). */
  readonly support: number;
  readonly norm: number;
  /** Temperature, °C, a liquid particle: the liquid's channel (a new particle at its material's `initial`). */
  readonly temperature: ParticleChannel<'f64'>;
  /** ν/ν0 per liquid particle (current order) of the last update, `count` of them. */
  factor = new Float64Array(0);
  count = 0;
  /** Largest factor of the last update (viscosity.ts sizes its sweeps by it). */
  maxFactor = 1;
  private readonly walls = new Float64Array(6 * WALL_STRIDE);

  /**
   * The scene's temperature state, its channel registered on `liquid`, or null when no liquid's
   * viscosity follows a temperature law.
   */
  static of(scene: Scene, liquid: LiquidParticles): ParticleTemperature | null {
    const laws = scene.materialNames.map((name) => {
      const m = scene.materials[name];
      return m.kind === 'liquid' ? temperatureLaw(m) : null;
    });
    return laws.some((l) => l !== null) ? new ParticleTemperature(scene, laws, liquid) : null;
  }

  /** Temperatures of the liquid's particles, °C, in its current order. */
  get T(): Float64Array {
    return this.temperature.array;
  }

  private constructor(scene: Scene, laws: (TemperatureLaw | null)[], liquid: LiquidParticles) {
    const nm = laws.length, r = scene.particle.radius;
    this.thermal = new Uint8Array(nm);
    this.initial = new Float64Array(nm).fill(20);
    this.reference = new Float64Array(nm).fill(20);
    this.coefficient = new Float64Array(nm);
    this.diffusivity = new Float64Array(nm);
    let h = 0;
    laws.forEach((law, m) => {
      const mat = scene.materials[scene.materialNames[m]];
      if (mat.kind === 'liquid' && mat.grid.temperature) this.initial[m] = mat.grid.temperature.initial;
      if (!law || mat.kind !== 'liquid') return;
      this.thermal[m] = 1;
      this.initial[m] = law.initial;
      this.reference[m] = law.reference;
      this.coefficient[m] = law.coefficient;
      this.diffusivity[m] = law.diffusivity;
      h = Math.max(h, mat.particle.kernelSupport * r);
    });
    this.support = h;
    this.norm = latticeHeatNorm(r, h);
    this.temperature = liquid.addChannel({ name: 'temperature', kind: 'f64', width: 1, initial: this.initial });
  }

  /** Room for the n particles' factors (on shared memory with a team); the temperatures are already in the liquid's order. */
  prepare(n: number, shared: boolean): void {
    if (this.factor.length < n || onShared(this.factor) !== shared) this.factor = allocFloat64(Math.max(64, Math.ceil(n * 1.25)), shared);
    this.count = n;
  }

  /** factor_i = exp(−k (T_i − T0)) for the liquids with a law, 1 for the others. */
  updateFactors(mat: Uint16Array): void {
    const n = this.count, T = this.T, f = this.factor, k = this.coefficient, T0 = this.reference, th = this.thermal;
    let fmax = 0;
    for (let i = 0; i < n; i++) {
      const m = mat[i];
      let e = th[m] ? -k[m] * (T[i] - T0[m]) : 0;
      e = e > MAX_EXPONENT ? MAX_EXPONENT : e < -MAX_EXPONENT ? -MAX_EXPONENT : e;
      const v = Math.exp(e);
      f[i] = v;
      if (v > fmax) fmax = v;
    }
    this.maxFactor = n > 0 ? fmax : 1;
  }

  /** The closed domain walls (insulating mirrors) into `walls`; returns how many. */
  closedWalls(ctx: StepContext): number {
    const d = ctx.scene.domain;
    if (!d || !ctx.scene.particle.walls) return 0;
    let k = 0;
    for (let f = 0; f < 6; f++) {
      if (faceBoundary(ctx, FACES[f]) === 'open') continue;
      const axis = f >> 1, upper = (f & 1) === 1, o = WALL_STRIDE * k++;
      this.walls[o] = axis;
      this.walls[o + 1] = upper ? d.max[axis] : d.min[axis];
      this.walls[o + 2] = upper ? 1 : -1;
    }
    return k;
  }

  wallTable(): Float64Array {
    return this.walls;
  }

  /**
   * After the particles and channels are restored (channels.ts restoreChannels): a checkpoint
   * written before channels kept the temperatures by particle id ('temperatureId', 'temperature');
   * they are put in the particles' order here (a particle not listed keeps its initial temperature).
   */
  restoreLegacy(r: CheckpointReader, L: LiquidParticles): void {
    if (!r.has('temperatureId')) return;
    const id = r.array('temperatureId', Int32Array), T = r.finiteArray('temperature', Float64Array, id.length);
    const at = new Map<number, number>();
    id.forEach((v, k) => at.set(v, k));
    const out = this.temperature.array;
    for (let i = 0; i < L.count; i++) {
      const k = at.get(L.id[i]);
      if (k !== undefined) out[i] = T[k];
    }
  }
}

/** c_ij of every listed pair (pc, at the pair's place) and Σ_j c_ij of both ends (rowSum). */
export const heatPairsJob = defineJob({
  name: 'heat-pairs',
  arrays: { pc: 'f32', rowSum: 'f64' },
  inputs: { pos: 'f64', mat: 'u16', ls: 'i32', lj: 'index', alpha: 'f64', walls: 'f64' },
  scalars: ['h', 'norm', 'nw'],
  split: 'items',
  sums: { rowSum: 1 },
  minItems: () => teamWork.minParticles,
  scratch: () => ({ near: new Int32Array(6), dist: new Float64Array(6) }),
  kernel(x) {
    const { pc, rowSum, pos, mat, ls, lj, alpha, walls } = x.a;
    const h = x.s.h, h2 = h * h, invH = 1 / h, eta2 = 0.01 * h2, norm = x.s.norm, nw = x.s.nw;
    const near = x.scratch.near, dist = x.scratch.dist;
    for (let i = x.from; i < x.to; i++) {
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], ai = alpha[mat[i]];
      // The walls within h of i: only there can a pair have a ghost within h.
      let nn = 0;
      for (let w = 0; w < nw; w++) {
        const o = WALL_STRIDE * w, ni = Math.max(0, walls[o + 2] * (walls[o + 1] - pos[3 * i + walls[o]]));
        if (ni < h) {
          near[nn] = o;
          dist[nn++] = ni;
        }
      }
      let si = 0;
      for (let q = ls[i], q1 = ls[i + 1]; q < q1; q++) {
        const j = lj[q], aj = alpha[mat[j]];
        const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
        const d2 = dx * dx + dy * dy + dz * dz;
        let c = 0;
        // A ghost is never nearer than its particle: a pair beyond h has none within h either.
        if (d2 < h2) c = pairShape(d2, h, invH, eta2);
        for (let k = 0, nk = d2 < h2 ? nn : 0; k < nk; k++) {
          // The ghost of j across the wall: the same tangential offset, normal offset n_i + n_j.
          const o = near[k], axis = walls[o], ni = dist[k];
          const nj = Math.max(0, walls[o + 2] * (walls[o + 1] - pos[3 * j + axis]));
          const dn = pos[3 * j + axis] - pos[3 * i + axis], g2 = d2 - dn * dn + (ni + nj) * (ni + nj);
          if (g2 < h2) c += pairShape(g2, h, invH, eta2);
        }
        const aij = ai > 0 && aj > 0 ? (2 * ai * aj) / (ai + aj) : 0;
        const cij = Math.fround(norm * aij * c);
        pc[q] = cij;
        si += cij;
        rowSum[j] += cij;
      }
      rowSum[i] += si;
    }
  },
});

/** One explicit heat step's rates Σ_j c_ij (T_j − T_i) into dT, both ends of every pair. */
export const heatFluxJob = defineJob({
  name: 'heat-flux',
  arrays: { dT: 'f64' },
  inputs: { T: 'f64', pc: 'f32', ls: 'i32', lj: 'index' },
  split: 'items',
  sums: { dT: 1 },
  minItems: () => teamWork.minParticles,
  kernel(x) {
    const { dT, T, pc, ls, lj } = x.a;
    for (let i = x.from; i < x.to; i++) {
      const ti = T[i];
      let s = 0;
      for (let q = ls[i], q1 = ls[i + 1]; q < q1; q++) {
        const j = lj[q], f = pc[q] * (T[j] - ti);
        s += f;
        dT[j] -= f;
      }
      dT[i] += s;
    }
  },
});

/**
 * The stage: temperatures carried over to the sorted liquid, conducted over the sub-timestep dt
 * through adhesion's pair list (current positions, before viscosity compacts it), and the
 * viscosity factors from them.
 */
export function conductHeat(ctx: StepContext, dt: number): void {
  const st = ctx.temperature;
  if (!st) return;
  const L = ctx.liquid, n = L.count;
  st.prepare(n, ctx.shared);
  let conducting = false;
  for (let m = 0; m < st.diffusivity.length; m++) if (st.diffusivity[m] > 0) conducting = true;
  if (conducting && n > 1 && dt > 0) {
    if (!ctx.adhesionPairsCurrent) throw new Error('temperature: the pair list is not at the current positions (the adhesion stage lists it)');
    const list = ctx.cells.pairs, pairs = ctx.runner.bind(heatPairsJob), T = pairs.threads(n);
    // On a team, views at the capacities of the list and the liquid (the team keeps its buffers).
    const m = T > 1 ? Math.max(n, L.capacity) : n, cap = T > 1 ? list.j.length : list.length;
    const mem = ctx.stageScratch(4 * cap + 16 * m + 64, ctx.shared);
    const pc = mem.f32(cap), rowSum = mem.f64(m), dT = mem.f64(m);
    const a = pairs.a;
    a.pc = pc; a.rowSum = rowSum; a.pos = L.pos; a.mat = L.material; a.ls = list.start; a.lj = list.j;
    a.alpha = st.diffusivity; a.walls = st.wallTable();
    pairs.s.h = st.support; pairs.s.norm = st.norm; pairs.s.nw = st.closedWalls(ctx);
    runJob(pairs, n);
    let most = 0;
    for (let i = 0; i < n; i++) if (rowSum[i] > most) most = rowSum[i];
    const wanted = Math.max(1, Math.ceil((dt * most) / HEAT_STEP_LIMIT - 1e-9));
    const steps = Math.min(wanted, MAX_HEAT_STEPS);
    // Past the cap each step keeps to the stable limit: less heat moves than the diffusivity asks.
    const h = wanted > steps ? HEAT_STEP_LIMIT / most : dt / steps;
    if (wanted > steps) ctx.count('heatStepCap');
    if (steps > 1) ctx.count('heatSteps', steps);
    const flux = ctx.runner.bind(heatFluxJob), Tc = st.T;
    flux.a.dT = dT; flux.a.T = Tc; flux.a.pc = pc; flux.a.ls = list.start; flux.a.lj = list.j;
    for (let s = 0; s < steps; s++) {
      runJob(flux, n);
      for (let i = 0; i < n; i++) Tc[i] += h * dT[i];
    }
  }
  st.updateFactors(L.material);
}

/**
 * The temperature's share of the exchange (viscosity.ts): each pair weight of rows plist[k0 .. k1)
 * (row i at w[start[i] .. ends[2i + 1])) times the harmonic mean 2 f_i f_j / (f_i + f_j) of the two
 * particles' viscosity factors, capped at `cap` as the weights are. Harmonic, not arithmetic: the
 * viscous stress τ = μ ∂u/∂n is continuous across a hot–cold interface, so a pair straddling one is
 * two viscosities in series, as conductivities are in Cleary & Monaghan's heat flux; the arithmetic
 * mean would let a cold particle stiffen every hot pair it has (a factor e⁴ ≈ 55 apart in
 * honey-melt) to half its own viscosity.
 */
export function scaleExchangeWeights(
  f: Float64Array, plist: Int32Array, k0: number, k1: number, start: Int32Array, ends: Int32Array, pj: Int32Array | Uint16Array, pw: Float32Array, cap: number,
): void {
  for (let k = k0; k < k1; k++) {
    const i = plist[k], fi = f[i];
    for (let q = start[i], q1 = ends[2 * i + 1]; q < q1; q++) {
      const fj = f[pj[q]], w = (pw[q] * 2 * fi * fj) / (fi + fj);
      pw[q] = w < cap ? w : cap;
    }
  }
}

/** 2 a b / (a + b): a pair's viscosity factor from its two particles' (see scaleExchangeWeights). */
export function pairFactorMean(a: number, b: number): number {
  return (2 * a * b) / (a + b);
}
