/**
 * The tension a stretching liquid carries in the particle engine, against Trouton's 3 μ A ε̇
 * (measures only: tests/particle/trouton.test.ts, bench/trouton-stretch.ts). A block (the bulk) or a
 * thread k particles across, laid on the rest lattice (spacing s = 2r) along y, honey (μ = 5 Pa·s),
 * no gravity, no adhesion, the implicit viscosity (the default). After five frames at rest at 1000
 * fps (so that ρ/ρ0 is the engine's), every particle is given a uniform stretch about the middle,
 * ε̇ = 2/s:
 *   "incompressible"  v = ε̇ (−x/2, y, −z/2)  (a free thread: tr D = 0)
 *   "uniaxial"        v = ε̇ (0, y, 0)        (no contraction across: tr D = ε̇)
 * Two tensions across the middle plane y = 0:
 *   operator  the implicit viscosity's own pair terms summed over the pairs i above the plane and j
 *             below it, K μ V0 q_i q_j F(|x_ij|) (x_ij)_y (x_ij · v_ij) (viscosity-weiler-solve.ts,
 *             q the volumes of viscosity-weiler-volumes.ts; with q ≡ 1 as `restVolumes`);
 *   engine    what the whole step does: −Δp/δt of the upper half over the next sub-timestep
 *             (viscosity, both pressure solves, the shift).
 * A: a lattice layer's particles times s² (over `drawn` for a thread whose layers are drawn apart,
 * the volume per length); for the block turned off the lattice's axes, the particles within s/2 of
 * the plane times s².
 *
 * For a pair sum of this form the stress of a velocity gradient G, where the kernel is full and
 * isotropic, is μ (G + Gᵀ + tr G I): 2 μ ε̇ along the stretch for the incompressible stretch (2/3 of
 * Trouton's: the third part is the pressure's −μ ε̇, a tension that p ≥ 0 cannot give) and 3 μ ε̇ for
 * the uniaxial one (the dilation stands in for the pressure). On the lattice's own axis the sum is
 * not isotropic (Σ F y⁴ = 1.28 × 3 Σ F x² y² at h = 5r), hence the turned block.
 */
import '../../src/index.ts';
import { simulate } from '../../src/compare/validate/case.ts';
import { pairFactor } from '../../src/particle/viscosity-weiler-product.ts';
import { latticeLaplacianConstant } from '../../src/particle/viscosity-weiler.ts';
import { volumeRatios } from '../../src/particle/viscosity-weiler-volumes.ts';
import { particleMaterial } from '../../src/scene/schema.ts';
import type { StepContext } from '../../src/particle/context.ts';

export type StretchMode = 'incompressible' | 'uniaxial';

export interface StretchOptions {
  /** A thread's layers this many lattice spacings apart (a drawn-out neck); 1 by default. */
  drawn?: number;
  /** The block turned 30° about x, then 20° about z, off the lattice's axes. */
  turned?: boolean;
  /** material.particle.kernelReach (the schema's default where absent). */
  kernelReach?: number;
}

export interface StretchTension {
  /** Mean ρ/ρ0 of the particles within one layer spacing of the plane. */
  density: number;
  /** The operator's tension over Trouton's, with the engine's volumes and with the rest volume. */
  operator: number;
  restVolumes: number;
  /** The whole step's over Trouton's. */
  engine: number;
  /** Trouton's tension 3 μ A ε̇, N. */
  trouton: number;
}

const MU = 5, RHO0 = 1420, RATE = 2, FPS = 1000, REST_FRAMES = 5;

/** `across` ≤ 3: a thread `across` × `across` particles, 24 layers long; more: a block across × 16 × across. */
export function stretchTension(r: number, across: number, mode: StretchMode, options: StretchOptions = {}): StretchTension {
  // The engine's pairs: within kernelReach of the support (viscosity-weiler.ts).
  const cut = options.kernelReach ?? particleMaterial.parse({}).kernelReach;
  const s = 2 * r, h = 5 * r, reach = cut * h, length = across > 3 ? 16 : 24, drawn = options.drawn ?? 1, turned = !!options.turned;
  const sim = simulate('particle', {
    name: 'stretch', fps: FPS, duration: 1, gravity: [0, 0, 0],
    materials: { honey: { kind: 'liquid', density: RHO0, viscosity: { value: MU, unit: 'Pa.s' }, color: '#d99a1e', particle: { kernelReach: cut } } },
    adhesion: [{ between: ['honey', 'honey'], type: 'attract', strength: 0 }],
    bodies: [{ material: 'honey', shape: { type: 'box', center: [0, 0, 0], size: [across * s, length * s, across * s] } }],
    particle: { radius: r, substeps: 1 },
  }) as unknown as { ctx: StepContext; stepFrame(): unknown; dispose(): void };
  try {
    const L = sim.ctx.liquid, n = L.count, P = L.pos, V = L.vel;
    if (drawn !== 1) for (let i = 0; i < n; i++) P[3 * i + 1] *= drawn;
    if (turned) {
      const a = Math.PI / 6, b = Math.PI / 9, ca = Math.cos(a), sa = Math.sin(a), cb = Math.cos(b), sb = Math.sin(b);
      for (let i = 0; i < n; i++) {
        const x = P[3 * i], y0 = P[3 * i + 1], z0 = P[3 * i + 2], y = ca * y0 - sa * z0, z = sa * y0 + ca * z0;
        P[3 * i] = cb * x - sb * y;
        P[3 * i + 1] = sb * x + cb * y;
        P[3 * i + 2] = z;
      }
    }
    for (let f = 0; f < REST_FRAMES; f++) sim.stepFrame();
    let cx = 0, cy = 0, cz = 0;
    for (let i = 0; i < n; i++) { cx += P[3 * i]; cy += P[3 * i + 1]; cz += P[3 * i + 2]; }
    cx /= n; cy /= n; cz /= n;
    const lateral = mode === 'incompressible' ? -RATE / 2 : 0;
    for (let i = 0; i < n; i++) {
      V[3 * i] = lateral * (P[3 * i] - cx);
      V[3 * i + 1] = RATE * (P[3 * i + 1] - cy);
      V[3 * i + 2] = lateral * (P[3 * i + 2] - cz);
    }
    const q = new Float64Array(n);
    volumeRatios(L.density, n, q);
    let layer = n / length, near = 0, dens = 0;
    if (turned) {
      layer = 0;
      for (let i = 0; i < n; i++) if (Math.abs(P[3 * i + 1] - cy) < s / 2) layer++;
    }
    for (let i = 0; i < n; i++) {
      if (Math.abs(P[3 * i + 1] - cy) < s * drawn) { near++; dens += L.density[i]; }
    }
    const K = latticeLaplacianConstant(h, s, reach), V0 = s * s * s;
    let T = 0, Trest = 0;
    const up: number[] = [];
    for (let i = 0; i < n; i++) {
      if (P[3 * i + 1] <= cy) continue;
      up.push(i);
      for (let j = 0; j < n; j++) {
        if (P[3 * j + 1] > cy) continue;
        const dx = P[3 * i] - P[3 * j], dy = P[3 * i + 1] - P[3 * j + 1], dz = P[3 * i + 2] - P[3 * j + 2], d2 = dx * dx + dy * dy + dz * dz;
        if (d2 >= reach * reach) continue;
        const xv = dx * (V[3 * i] - V[3 * j]) + dy * (V[3 * i + 1] - V[3 * j + 1]) + dz * (V[3 * i + 2] - V[3 * j + 2]);
        const t = K * MU * V0 * pairFactor(d2, h) * dy * xv;
        T += q[i] * q[j] * t;
        Trest += t;
      }
    }
    let p0 = 0;
    for (const i of up) p0 += V[3 * i + 1];
    sim.stepFrame();
    let p1 = 0;
    for (const i of up) p1 += L.vel[3 * i + 1];
    const engine = -(p1 - p0) * RHO0 * V0 * FPS;
    const trouton = (3 * MU * RATE * layer * s * s) / drawn;
    return { density: dens / near, operator: T / trouton, restVolumes: Trest / trouton, engine: engine / trouton, trouton };
  } finally {
    sim.dispose();
  }
}
