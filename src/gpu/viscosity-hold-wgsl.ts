/**
 * The implicit viscosity's share of the static walls' hold on the GPU (hold.ts; the CPU's
 * viscosity-weiler-wall-hold.ts), in viscosity-wgsl.ts's module and on its bindings: which walls a
 * slot's row has ghosts of (viscSetup keeps them in CG_WD.w), and, after the solve's shift, each
 * slot's change that the objects did not make with its velocity before the solve (viscHoldShare),
 * which hold.ts sums per body and takes back from the solution.
 */
import { WORKGROUP } from './device.ts';
import { aroundObjects } from './objects.ts';

/** The kernels, given the sections of viscosity-wgsl.ts's cg buffer they read and write (CG_X …). */
export function holdShareWgsl(cg: { X: number; R: number; D: number; B: number; N: number; WD: number }): string {
  return /* wgsl */ `
// The axes of the closed walls of wm (viscosity-wgsl.ts ghostReach) across which b has a ghost of a (b = a: a's own), as bits (viscosity-weiler-walls.ts
// findGhosts: a row's walls; the holds' flags, viscosity-weiler-wall-hold.ts).
fn ghostWallBits(xa: vec3<f32>, xb: vec3<f32>, wm: u32) -> u32 {
  var bits = 0u;
  for (var m = wm; m != 0u; m = m & (m - 1u)) {
    let f = firstTrailingBit(m);
    let g = wallGhost(xa, xb, f);
    if (dot(g, g) < P.hv * P.hv) { bits = bits | (1u << (f >> 1u)); }
  }
  return bits;
}

// For the walls' hold (hold.ts, after the shift): into CG_R the change the solve made to slot a that
// the objects did not (x − v* + (T X T x − T X T v_b) / ρ: the walls' terms and the solve's residual
// on them, viscosity-weiler-wall-hold.ts) and the walls a has ghosts of (CG_WD.w); into CG_D v* and
// the weight ρ/ρ_ref. Both sections are free once the solve is over.
@compute @workgroup_size(${WORKGROUP}) fn viscHoldShare(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= P.n) { return; }
  let la = liquidOf(a);
  let rho = red[0].y * rhoRatioOf(la);
  let vs = vel[a].xyz;
  let xs = cg[sec(${cg.X}u, a)].xyz + red[5].xyz;
  var dv = xs - vs;
  if (P.om > 0u) {
    let xa = pos[a].xyz;
    let h = P.hv;
    let pk = red[0].x * viscRatio(la, la) * factorOf(a);
    let nrm = cg[sec(${cg.N}u, a)].xyz;
    let tv = xs - dot(xs, nrm) * nrm;
    var ob = vec3<f32>(0.0);
    ${aroundObjects('P.hv', `ob += (pk * pos[o].w * objectFriction(o) * pairF(d2, h) * dot(rv, tv)) * rv;`)}
    let bo = cg[sec(${cg.B}u, a)].xyz - rho * vs;
    dv += (ob - dot(ob, nrm) * nrm - bo) / rho;
  }
  cg[sec(${cg.R}u, a)] = vec4<f32>(dv, cg[sec(${cg.WD}u, a)].w);
  cg[sec(${cg.D}u, a)] = vec4<f32>(vs, rhoRatioOf(la));
}
`;
}
