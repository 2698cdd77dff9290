/**
 * Stage "mixing": each liquid particle carries the fraction of every liquid in it (the liquid's
 * channel "mix", channels.ts: sorted, compacted and filled with the particles; a new particle is
 * all its own liquid), and the fractions diffuse between neighbours at the scene's
 * particle.mixingDiffusivity D (m²/s), Fick's law ∂c/∂t = D ∇²c discretized with the SPH
 * Laplacian of Cleary & Monaghan (1999, "Conduction modelling using smoothed particle
 * hydrodynamics", J. Comput. Phys. 148, eq. 8 with equal diffusivities):
 *   dc_i/dt = Σ_j V_j 2D (c_i − c_j) (r_ij · ∇_i W_ij) / (|r_ij|² + η²),   η² = 0.01 h²,
 * over the cubic spline on the density kernel's support h, V_j = (2r)³ (the lattice volume every
 * particle stands for). The kernel's constant is fixed on the rest lattice so that the sum gives
 * ∇²(x²) = 2 exactly there: the stated D is the one the liquid gets, not a kernel-dependent
 * multiple of it. Each pair moves equal and opposite amounts, so every liquid's total is kept to
 * round-off; the update is Jacobi (every change from the old fractions) and sub-cycled so that
 * no particle gives away more than half of what it holds in one cycle, which keeps every
 * fraction in [0, 1] whatever D and δt.
 *
 * What the surface shows is the particles' fractions weighted by their liquids' colours
 * (particleColours), blended over the surface's colour Gaussian (surface/attributes.ts: σ = 3 r
 * along the surface, r across it): two paints mix in a band about √(4 D t) wide (widened by that
 * σ) where their particles touch, and not where they do not. D = 0 (the default) keeps every particle its own liquid's colour and runs no stage.
 */
import type { Scene } from '../scene/scene.ts';
import { linearColor } from '../scene/color.ts';
import { cubicSplineSlope } from '../math/kernels.ts';
import type { LiquidParticles } from './liquid.ts';
import type { ParticleChannel } from './channels.ts';
import type { CheckpointReader } from '../io/checkpoint.ts';

/** The fractions' channel name, and their checkpoint key (channels.ts saveChannels) before channels: the same rows. */
const CHANNEL = 'mix';

/** η² / h², the Laplacian's guard against r → 0 (Cleary & Monaghan 1999). */
const ETA2 = 0.01;
/** Largest share of its fractions a particle may exchange in one sub-cycle (monotone, bounded). */
const MAX_SHARE = 0.5;
/** Most sub-cycles a sub-timestep; beyond it the exchange is capped at MAX_SHARE per cycle (counted). */
export const MAX_MIXING_CYCLES = 64;

/** Σ_j w(q_j) (x_j − x_i)² over the rest lattice, w = −q s'(q) / (q² + η²/h²): the scale that makes the sum ∇²(x²) = 2. */
function latticeLaplacianSum(spacing: number, h: number): number {
  const m = Math.ceil(h / spacing);
  let sum = 0;
  for (let i = -m; i <= m; i++) {
    for (let j = -m; j <= m; j++) {
      for (let k = -m; k <= m; k++) {
        const d = spacing * Math.hypot(i, j, k);
        if (d === 0 || d >= h) continue;
        const q = d / h;
        sum += pairShape(q) * (spacing * i) ** 2;
      }
    }
  }
  return sum;
}

/** −q s'(q) / (q² + η²/h²) ≥ 0: the pair weight's shape in q = d/h (cubicSplineSlope ≤ 0). */
function pairShape(q: number): number {
  return (-q * cubicSplineSlope(q)) / (q * q + ETA2);
}

export class ColourField {
  /** Fractions a particle: the scene's material count (solids' columns stay 0). */
  readonly width: number;
  /** m²/s. */
  readonly diffusivity: number;
  /** Support h of the Laplacian's kernel, m. */
  readonly h: number;
  /** A pair's weight is D · scale · pairShape(d/h), 1/s (the constructor fixes scale on the rest lattice), m⁻². */
  readonly scale: number;
  /** Linear RGB of every material, 3 a material. */
  readonly palette: Float32Array;
  private delta = new Float32Array(0);
  private rate = new Float32Array(0);
  /** k_ij of each listed pair, 1/s (0 beyond h). */
  private weight = new Float32Array(0);

  /** Each liquid particle's fractions, `width` a particle (the liquid's channel). */
  readonly fractions: ParticleChannel<'f32'>;

  /**
   * The field for a scene whose liquids mix at a positive particle.mixingDiffusivity, with at least
   * two liquid materials, its channel registered on `liquid`; else null (no stage, each particle
   * its own liquid's colour).
   */
  static of(scene: Scene, h: number, liquid: LiquidParticles): ColourField | null {
    const D = scene.particle.mixingDiffusivity;
    const liquids = scene.materialNames.filter((m) => scene.materials[m].kind === 'liquid').length;
    return D > 0 && liquids >= 2 ? new ColourField(scene, D, h, liquid) : null;
  }

  constructor(scene: Scene, diffusivity: number, h: number, liquid: LiquidParticles) {
    this.width = scene.materialNames.length;
    // A new particle is all its own material: material m's row is 1 at m, 0 elsewhere.
    const own = new Float64Array(this.width * this.width);
    for (let m = 0; m < this.width; m++) own[m * this.width + m] = 1;
    this.fractions = liquid.addChannel({ name: CHANNEL, kind: 'f32', width: this.width, initial: own });
    this.diffusivity = diffusivity;
    this.h = h;
    const spacing = 2 * scene.particle.radius;
    // dc_i/dt = Σ_j k_ij (c_j − c_i), k_ij = D · scale · pairShape(q): on the rest lattice
    // Σ_j k_ij (x_j² − x_i²) at x_i = 0 is D · scale · S (S = latticeLaplacianSum), which must be 2D.
    this.scale = 2 / latticeLaplacianSum(spacing, h);
    this.palette = new Float32Array(3 * this.width);
    scene.materialNames.forEach((name, m) => this.palette.set(linearColor(scene.materials[name].color), 3 * m));
  }

  /**
   * Diffuses the fractions of the n liquid particles over dt along the pairs (i, j), i < j, at
   * j[start[i] .. start[i + 1]) (ctx.cells.pairs as adhesion lists them; pairs beyond h weigh 0).
   * Returns the number of sub-cycles run.
   */
  diffuse(L: LiquidParticles, n: number, start: Int32Array, list: Int32Array | Uint16Array, dt: number): number {
    const w = this.width, mix = this.fractions.array, pos = L.pos, invH2 = 1 / (this.h * this.h), k0 = this.diffusivity * this.scale;
    const pairs = start[n];
    if (this.rate.length < n) this.rate = new Float32Array(Math.ceil(n * 1.25));
    if (this.delta.length < w * n) this.delta = new Float32Array(Math.ceil(w * n * 1.25));
    if (this.weight.length < pairs) this.weight = new Float32Array(Math.ceil(pairs * 1.25));
    const rate = this.rate, delta = this.delta, weight = this.weight;
    // Each pair's k_ij, once (positions do not change here), and Σ_j k_ij of each particle: the
    // sub-cycles needed for MAX_SHARE.
    rate.fill(0, 0, n);
    for (let i = 0; i < n; i++) {
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      let s = 0;
      for (let q = start[i], q1 = start[i + 1]; q < q1; q++) {
        const j = list[q], dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
        const q2 = (dx * dx + dy * dy + dz * dz) * invH2;
        const k = q2 < 1 ? k0 * pairShape(Math.sqrt(q2)) : 0;
        weight[q] = k;
        s += k;
        rate[j] += k;
      }
      rate[i] += s;
    }
    let most = 0;
    for (let i = 0; i < n; i++) if (rate[i] > most) most = rate[i];
    const cycles = Math.min(MAX_MIXING_CYCLES, Math.max(1, Math.ceil((most * dt) / MAX_SHARE)));
    // Capped: each cycle's step shrinks so that no particle exchanges more than MAX_SHARE.
    const tau = Math.min(dt / cycles, most > 0 ? MAX_SHARE / most : dt);
    for (let c = 0; c < cycles; c++) {
      delta.fill(0, 0, w * n);
      for (let i = 0; i < n; i++) {
        const oi = w * i;
        for (let q = start[i], q1 = start[i + 1]; q < q1; q++) {
          const kq = weight[q];
          if (kq === 0) continue;
          const k = tau * kq, oj = w * list[q];
          for (let m = 0; m < w; m++) {
            const f = k * (mix[oj + m] - mix[oi + m]);
            delta[oi + m] += f;
            delta[oj + m] -= f;
          }
        }
      }
      for (let e = 0; e < w * n; e++) mix[e] += delta[e];
    }
    return cycles;
  }

  /** Linear RGB of each of the n particles: its fractions weighted by their liquids' colours. */
  particleColours(n: number): Float32Array {
    const w = this.width, mix = this.fractions.array, pal = this.palette, out = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) {
      let r = 0, g = 0, b = 0, sum = 0;
      for (let m = 0; m < w; m++) {
        const f = mix[w * i + m];
        if (f === 0) continue;
        r += f * pal[3 * m]; g += f * pal[3 * m + 1]; b += f * pal[3 * m + 2]; sum += f;
      }
      // The fractions sum to 1 up to round-off; dividing keeps a particle's colour exact.
      const inv = sum > 0 ? 1 / sum : 0;
      out[3 * i] = r * inv; out[3 * i + 1] = g * inv; out[3 * i + 2] = b * inv;
    }
    return out;
  }

  /**
   * A checkpoint written before channels kept the fractions under 'mix' (the same rows); one older
   * still has none, and its particles stay all their own liquid (the channel's initial rows).
   */
  restoreLegacy(r: CheckpointReader, n: number): void {
    if (!r.has(`channel.${CHANNEL}`) && r.has(CHANNEL)) this.fractions.array.set(r.finiteArray(CHANNEL, Float32Array, n * this.width));
  }
}
