/**
 * Adhesion between liquid particles on the GPU (Steele et al. 2004 §3.1; src/particle/adhesion.ts
 * liquidPairRange): the entry of the adhesion matrix for the liquids of the pair (adhesion-matrix.ts,
 * the default being the weak Lennard-Jones cohesion of 1 m/s² over 4 radii, between two liquids
 * too), a piecewise-linear acceleration A(d / r) in m/s² (positive repels), summed over every
 * neighbour within the pair's support: a_a = Σ_b s_ab A_ab(|x_a − x_b| / r) (x_a − x_b) / |x_a − x_b|,
 * s_ab = m̄/m_a the impulse share (adhesion-tables.ts; 1 for equal masses), so each pair moves equal
 * and opposite momenta and the total is kept to round-off. Each slot gathers its own sum (no
 * atomics: the pair is visited from both ends), into keep[2n + a], which the accelerate kernel
 * (step-wgsl.ts) adds to gravity. The same loop sums the exchange's weights Σk, as adhesion.ts's
 * does, so the pairs are visited once. With particle.cohesionShare other than "every-pair" (densitySolver
 * "pbf") each pair's force is weighted by the larger of its two particles' exposures (adhesion.ts;
 * liquids-wgsl.ts exposure, which the density correction's end writes: step-wgsl.ts densityEnd).
 *
 * The functions ride in the parameters block: the liquid pairs' distinct functions one after
 * another in a pool (wgsl.ts Params adhX / adhY, at most ADHESION_BREAKPOINTS in all; adhN their
 * total, 0 where no pair has a force; adhSupp the largest support), each pair's offset, count,
 * support and share in the liquid table (liquids.ts, liquids-wgsl.ts); a pool that does not fit is
 * refused (refuse.ts). Each is evaluated as math/piecewise.ts evalPiecewise does: held at the first
 * value left of the first point, zero right of the last, linear between.
 */
import { WORKGROUP } from './device.ts';
import { around, SHARED_WGSL } from './wgsl.ts';

const KERNELS = /* wgsl */ `
fn adhX(k: u32) -> f32 { return P.adhX[k >> 2u][k & 3u]; }
fn adhY(k: u32) -> f32 { return P.adhY[k >> 2u][k & 3u]; }
// A(dr), dr in radii, of the function of n breakpoints from o in the pool (adhesion.ts: the first
// breakpoint b > 0 with xs[b] ≥ dr, counted).
fn adhesionAt(dr: f32, o: u32, n: u32) -> f32 {
  if (dr <= adhX(o)) { return adhY(o); }
  if (dr > adhX(o + n - 1u)) { return 0.0; }
  var b = o + 1u;
  for (var k = o + 1u; k < o + n - 1u; k++) { if (adhX(k) < dr) { b++; } }
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
  let hasAdh = P.adhN > 0u;
  let la = liquidOf(a);
  let ea = exposure(a);
  let cshare = P.clamp[1].w > 0.0;
  var acc = vec3<f32>(0.0);
  var sum = 0.0;
  ${around('max(P.hv, select(0.0, P.adhSupp, hasAdh))', `
    if (d2 < hv2) { let s = 1.0 - d2 * inv2; sum += s * s * s; }
    if (hasAdh) {
      // The pair's entry of the matrix (liquids-wgsl.ts): its function in the pool, support and a's share.
      let e = pairOf(la, liquidOf(b));
      let n = u32(e.y);
      if (n > 0u && d2 < e.z * e.z) { let d = sqrt(d2); if (d > 0.0) { acc += (select(1.0, max(ea, exposure(b)), cshare) * e.w * adhesionAt(d * P.invR, u32(e.x), n) / d) * rv; } }
    }`)}
  keep[2u * P.n + a] = vec4<f32>(acc + objectAdhesion(a), 0.0);
  let fa = freeAdhesion(a);
  toFree(a, fa.w, fa.xyz * P.dt);
  sc[a].z = select(0.0, 0.5 / sum, sum > 0.0);
}
`;

export const ADHESION_WGSL = SHARED_WGSL + KERNELS;
export const ADHESION_ENTRIES = ['adhesion'] as const;
export type AdhesionEntry = (typeof ADHESION_ENTRIES)[number];

