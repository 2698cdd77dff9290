/**
 * Adhesion between liquid particles on the GPU (Steele et al. 2004 §3.1; src/particle/adhesion.ts
 * liquidPairRange): the liquid's own entry of the adhesion matrix (adhesion-matrix.ts, the default
 * being the weak Lennard-Jones cohesion of 1 m/s² over 4 radii), a piecewise-linear acceleration
 * A(d / r) in m/s² (positive repels), summed over every neighbour within its support:
 * a_a = Σ_b A(|x_a − x_b| / r) (x_a − x_b) / |x_a − x_b|. One liquid, equal masses: the pair's
 * impulse shares are 1 at both ends, so each pair's accelerations are equal and opposite and the
 * momentum is kept to round-off. Each slot gathers its own sum (no atomics: the pair is visited from
 * both ends), into keep[2n + a], which the accelerate kernel (step-wgsl.ts) adds to gravity. The
 * same loop sums the exchange's weights Σk, as adhesion.ts's does, so the pairs are visited once.
 *
 * The function rides in the parameters block (wgsl.ts Params: adhN breakpoints, adhX / adhY, at
 * most ADHESION_BREAKPOINTS; a longer one is refused, refuse.ts) and is evaluated as
 * math/piecewise.ts evalPiecewise does: held at the first value left of the first point, zero right
 * of the last, linear between.
 */
import type { AdhesionMatrix } from '../particle/adhesion-matrix.ts';
import { WORKGROUP } from './device.ts';
import { ADHESION_BREAKPOINTS, around, SHARED_WGSL } from './wgsl.ts';

const KERNELS = /* wgsl */ `
fn adhX(k: u32) -> f32 { return P.adhX[k >> 2u][k & 3u]; }
fn adhY(k: u32) -> f32 { return P.adhY[k >> 2u][k & 3u]; }
// A(dr), dr in radii (adhesion.ts: the first breakpoint b > 0 with xs[b] ≥ dr, counted).
fn adhesionAt(dr: f32) -> f32 {
  let n = P.adhN;
  if (dr <= adhX(0u)) { return adhY(0u); }
  if (dr > adhX(n - 1u)) { return 0.0; }
  var b = 1u;
  for (var k = 1u; k < n - 1u; k++) { if (adhX(k) < dr) { b++; } }
  let x0 = adhX(b - 1u);
  let y0 = adhY(b - 1u);
  return y0 + (dr - x0) / (adhX(b) - x0) * (adhY(b) - y0);
}

// The adhesion acceleration of slot a into keep[2n + a] (zero without a liquid adhesion function),
// the objects' added (objects.ts objectAdhesion: object-adhesion.ts; a free body's part handed to it, free-wgsl.ts),
// and in the same loop, as adhesion.ts, the exchange's Σk (gaussLike over the viscosity support) →
// sc.z = 1/(2 Σk), which the pressure stage leaves alone.
@compute @workgroup_size(${WORKGROUP}) fn adhesion(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let xa = pos[a].xyz;
  let hv2 = P.hv * P.hv;
  let inv2 = 1.0 / hv2;
  let supp2 = select(0.0, P.adhSupp * P.adhSupp, P.adhN > 0u);
  var acc = vec3<f32>(0.0);
  var sum = 0.0;
  ${around('max(P.hv, select(0.0, P.adhSupp, P.adhN > 0u))', `
    if (d2 < hv2) { let s = 1.0 - d2 * inv2; sum += s * s * s; }
    if (d2 < supp2) { let d = sqrt(d2); if (d > 0.0) { acc += (adhesionAt(d * P.invR) / d) * rv; } }`)}
  keep[2u * P.n + a] = vec4<f32>(acc + objectAdhesion(a), 0.0);
  let fa = freeAdhesion(a);
  toFree(a, fa.w, fa.xyz * P.dt);
  sc[a].z = select(0.0, 0.5 / sum, sum > 0.0);
}
`;

export const ADHESION_WGSL = SHARED_WGSL + KERNELS;
export const ADHESION_ENTRIES = ['adhesion'] as const;
export type AdhesionEntry = (typeof ADHESION_ENTRIES)[number];

/** The liquid's own adhesion function: breakpoints in radii and m/s², and its support in radii (0: none). */
export interface LiquidAdhesion {
  xs: Float64Array;
  ys: Float64Array;
  support: number;
}

/** The matrix's entry of material m with itself (the scene's, or the default cohesion: adhesion-matrix.ts). */
export function liquidAdhesion(M: AdhesionMatrix, m: number): LiquidAdhesion {
  const e = m * M.size + m, o = M.offset[e], n = M.count[e];
  return { xs: M.xs.slice(o, o + n), ys: M.ys.slice(o, o + n), support: n > 0 ? M.support[e] : 0 };
}

/**
 * Writes the function into the parameters block (wgsl.ts Params, from byte 128): its breakpoint
 * count, support (m), 1/r, and its xs and ys. A function with no force (every value zero) is
 * written as none, so the kernel does not loop.
 */
export function writeAdhesionParams(data: ArrayBuffer, f: LiquidAdhesion, r: number): void {
  const u = new Uint32Array(data), x = new Float32Array(data);
  const n = f.ys.some((y) => y !== 0) ? f.xs.length : 0;
  if (n > ADHESION_BREAKPOINTS) throw new Error(`the liquid's adhesion function has ${n} points; the WebGPU backend holds ${ADHESION_BREAKPOINTS}`);
  u[32] = n;
  x[33] = f.support * r;
  x[34] = 1 / r;
  for (let k = 0; k < n; k++) {
    x[36 + k] = f.xs[k];
    x[36 + ADHESION_BREAKPOINTS + k] = f.ys[k];
  }
}
