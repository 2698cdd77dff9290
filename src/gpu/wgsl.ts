/**
 * The WGSL every module of the WebGPU step shares (step-wgsl.ts, pressure-wgsl.ts,
 * adhesion-wgsl.ts), written once: the parameters block and the one bind group, the cubic spline,
 * the closed walls, the loop over a slot's neighbours (`around`), the walls' mirror ghosts, the
 * pressure displacement and the density measure (the static objects' particles included: objects.ts).
 *
 * The bind group: 0 the parameters, 1 pos, 2 vel (vec4 per slot, in bucket order: neighbours.ts), 3
 * per-slot scalars (x: ρ/ρ0, y: pressure p of the pass, z: 1/(2 Σk) of the exchange, w: 1 where
 * the particle is in free flight), 4 dx (a pass's displacement, or a sweep's velocity change), 5
 * keep (per slot: [2a] the position before density correction, [2a + 1] what the walls undid
 * since; then [2n + a] the body acceleration of adhesion, ½ (a + g) δt once it is in the velocity;
 * with free bodies [3 cap + a] what they gave the slot: free-wgsl.ts), 6 wall (the closed walls
 * within h: del xyz, mask's bits in w; past P.cap the object particles' velocities, and in w their free body), 7 bucket starts, 8 stats (atomics:
 * [0] the largest speed's bits, [1] Σ compression · ERROR_SCALE, [2] done, [3] passes; the
 * speed kernel's [1], [2] the largest stored pressures: step-wgsl.ts; the filter's: pressure-filter-wgsl.ts; [4] PBF's
 * last mean compression, which only PBF's judge writes: pbf-feed.ts; [5–7] unused). vel.w holds
 * the pressure stage's p/δt² (its warm start: pressure-wgsl.ts), which the sort carries. Eight
 * storage buffers: WebGPU's default limit a stage. P.n is the liquid's count now, P.cap the slots
 * it may grow to (sources, sinks.ts): the object particles sit from slot P.cap (objects.ts).
 */
import { HASH_WGSL } from './neighbours.ts';
import { NEIGHBOUR_EDGE } from '../particle/pressure-ghosts.ts';
import { aroundObjects, OBJECT_ADHESION_BREAKPOINTS, OBJECT_ADHESION_FUNCTIONS, OBJECT_MOVES_WGSL, OBJECT_WGSL } from './objects.ts';
import { FREE_WGSL } from './free-wgsl.ts';
import { LIQUID_BYTES, LIQUID_FIELDS, LIQUID_WGSL } from './liquids-wgsl.ts';
import { WORKGROUP } from './device.ts';

/** Fixed-point scale of the summed compression (atomics hold integers): 2^-16 resolution a particle. */
export const ERROR_SCALE = 65536;

/** Most breakpoints of the liquid's adhesion function the parameters hold (adhesion-wgsl.ts). */
export const ADHESION_BREAKPOINTS = 32;

/** Bytes of the walls' clearances and the liquid's closest rest spacing (Params clamp: params.ts writeConstants). */
const CLAMP_BYTES = 32;
/** Bytes of the pressure solves' present shares at the block's end (Params present: params.ts writeConstants, pressure-wgsl.ts). */
const PRESENT_BYTES = 16;
/** Bytes of the parameters block (Params below): 128, the adhesion header, its xs and ys, the objects' header, the liquid table (liquids-wgsl.ts), the walls' clearances, the present shares. */
export const PARAM_BYTES = 128 + 16 + 8 * ADHESION_BREAKPOINTS + 80 + 8 * OBJECT_ADHESION_FUNCTIONS * OBJECT_ADHESION_BREAKPOINTS + LIQUID_BYTES + CLAMP_BYTES + PRESENT_BYTES;
/**
 * Index (in 4-byte words) of the objects' header in the parameters block: otable, om, dc, oreach,
 * exA, sinTheta, surfaceRatio, nfree (free bodies: free-bodies.ts); then (objects.ts writeObjectAdhesion) wtable, wm, winvCell,
 * wsupp, the functions' breakpoint counts and supports, their xs and ys.
 */
export const OBJECT_PARAMS = (128 + 16 + 8 * ADHESION_BREAKPOINTS) / 4;
/** Index (in 4-byte words) of the liquid table (liquids-wgsl.ts) in the parameters block. */
export const LIQUID_PARAMS = (PARAM_BYTES - PRESENT_BYTES - CLAMP_BYTES - LIQUID_BYTES) / 4;
/**
 * Index (in 4-byte words) of the walls' clamp: words 0–2 each min face's clearance, 4–6 each max
 * face's (StepContext.wallClearance, start-packing.ts), word 3 the liquid's closest rest spacing
 * (StepContext.restSpacing: the filter's Courant number, pressure-filter-wgsl.ts).
 */
export const CLAMP_PARAMS = (PARAM_BYTES - PRESENT_BYTES - CLAMP_BYTES) / 4;
/**
 * Index (in 4-byte words) of the pressure solves' present shares (pressure-wgsl.ts presentShares):
 * word 0 the share away from bodies, word 1 next to one. Uniforms, not constants in the module, so
 * that one compiled pressure module serves every scene's settings.
 */
export const PRESENT_PARAMS = (PARAM_BYTES - PRESENT_BYTES) / 4;

const PARAMS = /* wgsl */ `
const ERROR_SCALE: f32 = ${ERROR_SCALE}.0;
struct Params {
  n: u32, table: u32, invCell: f32, h: f32,
  invN0: f32, epsN: f32, hv: f32, frac: f32,
  dt: f32, dtm: f32, r: f32, tol: f32,
  walls: u32, sticky: u32, keep: f32, maxPasses: u32,
  g: vec3<f32>, pbfWarm: f32,
  lo: vec4<f32>,
  hi: vec3<f32>, pbfLeft: f32,
  n0: f32, ptol: f32, pmax: u32, cap: u32,
  adhN: u32, adhSupp: f32, invR: f32, filterStrength: f32,
  adhX: array<vec4<f32>, ${ADHESION_BREAKPOINTS / 4}>,
  adhY: array<vec4<f32>, ${ADHESION_BREAKPOINTS / 4}>,
  otable: u32, om: u32, dc: f32, oreach: f32,
  exA: f32, sinTheta: f32, surfaceRatio: f32, nfree: u32,
  wtable: u32, wm: u32, winvCell: f32, wsupp: f32,
  oadhN: vec4<u32>, oadhS: vec4<f32>,
  oadhX: array<vec4<f32>, ${(OBJECT_ADHESION_FUNCTIONS * OBJECT_ADHESION_BREAKPOINTS) / 4}>,
  oadhY: array<vec4<f32>, ${(OBJECT_ADHESION_FUNCTIONS * OBJECT_ADHESION_BREAKPOINTS) / 4}>,${LIQUID_FIELDS}
  clamp: array<vec4<f32>, 2>,
  present: vec4<f32>,
}
@group(0) @binding(0) var<uniform> P: Params;
`;

/** The step's bindings 1–8 (see the header). */
const BINDINGS = /* wgsl */ `
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> sc: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> dx: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> keep: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> wall: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> start: array<u32>;
@group(0) @binding(8) var<storage, read_write> stats: array<atomic<u32>, 8>;
`;

/** The cubic spline over q = d / support and its slope (src/math/kernels.ts cubicSpline, cubicSplineSlope), for every kernel file. */
export const SPLINE_WGSL = /* wgsl */ `
// Cubic spline over q = d/h (src/math/kernels.ts cubicSpline, cubicSplineSlope).
fn W(q: f32) -> f32 {
  if (q >= 1.0) { return 0.0; }
  if (q <= 0.5) { return 6.0 * q * q * (q - 1.0) + 1.0; }
  let s = 1.0 - q;
  return 2.0 * s * s * s;
}
fn dW(q: f32) -> f32 {
  if (q >= 1.0) { return 0.0; }
  if (q <= 0.5) { return q * (18.0 * q - 12.0); }
  let s = 1.0 - q;
  return -6.0 * s * s;
}
`;

/** The helpers below read pos, vel, wall and start. */
const HELPERS = /* wgsl */ `
${HASH_WGSL}
${OBJECT_WGSL}
${LIQUID_WGSL}
${SPLINE_WGSL}
// The closed walls within h of x (pressure-kernels.ts wallRange): bit k when axis k has one, bit
// 3 + k when it is a max face; its distance in del.
struct Walls { mask: u32, del: vec3<f32> }
fn wallsAt(x: vec3<f32>) -> Walls {
  var w = Walls(0u, vec3<f32>(0.0));
  let hIn = P.h * (1.0 - 1e-6);
  for (var f = 0u; f < 6u; f++) {
    if ((P.walls & (1u << f)) == 0u) { continue; }
    let axis = f >> 1u;
    let upper = (f & 1u) == 1u;
    var delta = x[axis] - P.lo[axis];
    if (upper) { delta = P.hi[axis] - x[axis]; }
    if (delta >= hIn) { continue; }
    let d = max(delta, 1e-6 * P.h);
    let bit = 1u << axis;
    if ((w.mask & bit) != 0u && w.del[axis] <= d) { continue; }
    w.mask = (w.mask | bit) & ~(8u << axis);
    if (upper) { w.mask = w.mask | (8u << axis); }
    w.del[axis] = d;
  }
  return w;
}
// The walls of slot b as the last wallPass found them.
fn wallOf(b: u32) -> Walls { let w = wall[b]; return Walls(bitcast<u32>(w.w), w.xyz); }
fn wallSign(mask: u32, k: u32) -> f32 { return select(1.0, -1.0, (mask & (8u << k)) != 0u); }
// Keeps x at least the face's clearance inside every closed face (boundaries.ts domainWalls: r, or
// half the spacing of a start drawn towards the face, P.clamp from StepContext.wallClearance): moves the
// position and stops the velocity into the face; a "noslip" face keeps P.keep of the tangential velocity.
// Returns the friction's change of the velocity (xyz) and, as a float of the bits, the axes of the closed
// faces x is clamped to or within the liquid's reach (the cell edge) of (w): the face friction's hold
// (hold.ts; wall-friction-hold.ts's flags).
fn wallClamp(i: u32, keep: f32) -> vec4<f32> {
  var x = pos[i].xyz;
  var v = vel[i].xyz;
  var dv = vec3<f32>(0.0);
  var against = 0u;
  let reach = 1.0 / P.invCell;
  for (var f = 0u; f < 6u; f++) {
    if ((P.walls & (1u << f)) == 0u) { continue; }
    let axis = f >> 1u;
    let upper = (f & 1u) == 1u;
    var limit = P.lo[axis] + P.clamp[0][axis];
    if (upper) { limit = P.hi[axis] - P.clamp[1][axis]; }
    if ((upper && x[axis] <= limit) || (!upper && x[axis] >= limit)) {
      if ((upper && x[axis] > limit - reach) || (!upper && x[axis] < limit + reach)) { against = against | (1u << axis); }
      continue;
    }
    against = against | (1u << axis);
    x[axis] = limit;
    if ((upper && v[axis] > 0.0) || (!upper && v[axis] < 0.0)) { v[axis] = 0.0; }
    if ((P.sticky & (1u << f)) != 0u) {
      for (var k = 0u; k < 3u; k++) {
        if (k != axis) {
          let t = v[k] * keep;
          dv[k] += t - v[k];
          v[k] = t;
        }
      }
    }
  }
  pos[i] = vec4<f32>(x, pos[i].w);
  vel[i] = vec4<f32>(v, vel[i].w);
  return vec4<f32>(dv, f32(against));
}
`;

const HEAD = PARAMS + BINDINGS + HELPERS;

/**
 * The parameters block and the helpers (the hash, the objects' loops, the spline, the walls) over
 * a module's own bindings 1–8 (a solver whose buffers are not the step's: viscosity-wgsl.ts), which
 * must declare pos, vel, wall and start as the step's bindings do.
 */
export function withBindings(bindings: string): string {
  return PARAMS + bindings + HELPERS;
}

/**
 * A CG's sums over the slots in two levels, as the GPU solves take them (viscosity-wgsl.ts,
 * gel-implicit-wgsl.ts): groupSum(l, wg, v) adds a workgroup's terms into its partial at
 * red[parts + wg] (every thread of the workgroup calls it); totalSum(l), in one workgroup, adds the
 * partials of ⌈count / WORKGROUP⌉ workgroups and gives every thread the total. The order of the
 * additions is fixed, so the sums are the same bits on every run. `red` is a storage array of
 * vec4<f32>; `count` the WGSL expression of the slots' count.
 */
export function twoLevelSum(parts: number, count: string): string {
  return /* wgsl */ `
var<workgroup> sh: array<vec4<f32>, ${WORKGROUP}>;
fn groupSum(l: u32, wg: u32, v: vec4<f32>) {
  sh[l] = v;
  workgroupBarrier();
  for (var s = ${WORKGROUP / 2}u; s > 0u; s = s >> 1u) {
    if (l < s) { sh[l] = sh[l] + sh[l + s]; }
    workgroupBarrier();
  }
  if (l == 0u) { red[${parts}u + wg] = sh[0]; }
}
fn totalSum(l: u32) -> vec4<f32> {
  var s = vec4<f32>(0.0);
  let parts = (${count} + ${WORKGROUP - 1}u) / ${WORKGROUP}u;
  for (var k = l; k < parts; k += ${WORKGROUP}u) { s += red[${parts}u + k]; }
  sh[l] = s;
  workgroupBarrier();
  for (var w = ${WORKGROUP / 2}u; w > 0u; w = w >> 1u) {
    if (l < w) { sh[l] = sh[l] + sh[l + w]; }
    workgroupBarrier();
  }
  return sh[0];
}
`;
}

/** A WGSL f32 literal of x (an abstract integer would make select() an i32). */
export function floatLiteral(x: number): string {
  const t = String(x);
  return /[.e]/.test(t) ? t : `${t}.0`;
}

/**
 * The hash's reach over the 27-cell stencil: two cells c and c + Δ, Δ in {−2…2}³ (two offsets of −1…1
 * apart), share a bucket of a table of t only if t divides L = 541 Δx + 79 Δy + 31 Δz (neighbours.ts
 * bucketOf, while the sum stays within i32), and 0 < |L| ≤ 2 (541 + 79 + 31).
 */
export const STENCIL_REACH = 2 * (541 + 79 + 31);
/** Whether two cells of one 27-cell stencil can share a bucket of a table of `table` buckets (above). */
export function stencilShares(table: number): boolean {
  for (let a = -2; a <= 2; a++) for (let b = -2; b <= 2; b++) for (let c = -2; c <= 2; c++) {
    const L = 541 * a + 79 * b + 31 * c;
    if (L !== 0 && L % table === 0) return true;
  }
  return false;
}
/** The tables neighbours.ts hashTable makes (2^k + 1) within STENCIL_REACH whose stencils never share a bucket: 65, 257, 513, 1 025 (129 does: Δ = (2, 1, 0)). */
const CLEAN_TABLES = Array.from({ length: 11 }, (_, k) => 2 ** (k + 1) + 1).filter((t) => t <= STENCIL_REACH && !stencilShares(t));

/**
 * The loop over the particles within `support` of slot a (position xa); the body sees b, rv = xa − x_b and d2.
 * Each bucket of the 27 cells' is visited once, in the cells' order: a bucket two cells share is skipped at the
 * second. That check (a scan of the buckets seen) runs only for a table where two cells of a stencil can share
 * one (stencilShares: tables above STENCIL_REACH, and CLEAN_TABLES, never do), so that the same buckets are
 * visited in the same order either way; on SwiftShader the scan cost more than the particles' loop in a kernel
 * with a light body (docs/decisions.md, stop 65, gpuprof65).
 */
export function around(support: string, body: string): string {
  return /* wgsl */ `{
    let c0 = cellOf(xa, P.invCell);
    let shares = P.table <= ${STENCIL_REACH}u${CLEAN_TABLES.map((t) => ` && P.table != ${t}u`).join('')};
    var seen: array<u32, 27>;
    var m = 0u;
    let reach2 = ${support} * ${support};
    for (var di = -1; di <= 1; di++) { for (var dj = -1; dj <= 1; dj++) { for (var dk = -1; dk <= 1; dk++) {
      let bk = bucketOf(c0 + vec3<i32>(di, dj, dk), P.table);
      if (shares) {
        var dup = false;
        for (var t = 0u; t < m; t++) { if (seen[t] == bk) { dup = true; } }
        if (dup) { continue; }
        seen[m] = bk;
        m++;
      }
      for (var b = start[bk]; b < start[bk + 1u]; b++) {
        if (b == a) { continue; }
        let rv = xa - pos[b].xyz;
        let d2 = dot(rv, rv);
        if (d2 >= reach2) { continue; }
        ${body}
      }
    }}}
  }`;
}

/**
 * Mirror ghosts (pressure-ghosts.ts): a's own images across its walls, inside the
 * neighbour loop `b`'s images across the walls both see. The body sees off (a − ghost), d2 and pb
 * (the source's pressure).
 */
export function selfGhosts(body: string): string {
  return /* wgsl */ `{
    let ma = wa.mask & 7u;
    for (var S = ma; S > 0u; S = (S - 1u) & ma) {
      var off = vec3<f32>(0.0);
      for (var k = 0u; k < 3u; k++) { if ((S & (1u << k)) != 0u) { off[k] = 2.0 * wallSign(wa.mask, k) * wa.del[k]; } }
      let d2 = dot(off, off);
      let pb = sc[a].y;
      if (d2 < P.h * P.h) { ${body} }
    }
  }`;
}
export function pairGhosts(body: string): string {
  return /* wgsl */ `if ((wa.mask & 7u) != 0u) {
    let wb = wallOf(b);
    let both = wa.mask & wb.mask & ~((wa.mask ^ wb.mask) >> 3u) & 7u;
    for (var S = both; S > 0u; S = (S - 1u) & both) {
      var off = rv;
      for (var k = 0u; k < 3u; k++) { if ((S & (1u << k)) != 0u) { off[k] = wallSign(wa.mask, k) * (wa.del[k] + wb.del[k]); } }
      let d2g = dot(off, off);
      let pb = sc[b].y;
      if (d2g < P.h * P.h) { let d2 = d2g; ${body} }
    }
  }`;
}

/** Δx of slot a from the pressures sc.y (pressure-kernels.ts pressureDisplacementRange). */
const DISPLACEMENT = /* wgsl */ `
fn displacement(a: u32) -> vec3<f32> {
  let xa = pos[a].xyz;
  let pa = sc[a].y;
  let invH = 1.0 / P.h;
  let wa = wallOf(a);
  // The liquids' mass weights (liquids-wgsl.ts massShare; 1 for equal masses).
  let la = liquidOf(a);
  var cx = vec3<f32>(0.0);
  ${around('P.h', `
    let d = sqrt(d2);
    let wab = massShare(la, liquidOf(b));
    if (d > 0.0) { cx += ((pa + sc[b].y) * wab) * (dW(d * invH) * invH / d) * rv; }
    ${pairGhosts(`let dg = sqrt(d2); if (dg > 0.0) { cx += ((pa + pb) * wab) * (dW(dg * invH) * invH / dg) * off; }`)}`)}
  ${selfGhosts(`let dg = sqrt(d2); if (dg > 0.0) { cx += (pa + pb) * (dW(dg * invH) * invH / dg) * off; }`)}
  if (pa != 0.0) {
    let pw = pa;
    ${aroundObjects('P.h', `let d = sqrt(d2); if (d > 0.0) { cx += (pw * pos[o].w * dW(d * invH) * invH / d) * rv; }`)}
  }
  return -cx * P.invN0;
}
`;


/**
 * ρ̂/ρ0, the neighbours within NEIGHBOUR_EDGE h (ghosts included: counted, pressure-ghosts.ts) and α of slot a (pressure-kernels.ts factorRange;
 * the walls' mirror ghosts in ρ̂ and Σ G, and in the pair sum of α as the CPU's: Σ_b m_a/m_b |T_b|²,
 * T_b the slope of b and its images, which move together; pressure-ghosts.ts factorRowWalls): the
 * gather that density correction's factor and the pressure stage's share.
 */
const MEASURE = /* wgsl */ `
struct Measure { dens: f32, nb: f32, alpha: f32 }
// 1 for a neighbour at squared distance d2 within NEIGHBOUR_EDGE h (pressure-ghosts.ts: not the lattice's coin toss at h).
fn counted(d2: f32) -> f32 { return select(0.0, 1.0, d2 < ${floatLiteral(NEIGHBOUR_EDGE * NEIGHBOUR_EDGE)} * P.h * P.h); }
fn measure(a: u32) -> Measure {
  let xa = pos[a].xyz;
  let invH = 1.0 / P.h;
  let wa = wallOf(a);
  var rho = 1.0;
  var nb = 0.0;
  var gs = vec3<f32>(0.0);
  var own = vec3<f32>(0.0);
  var s2 = 0.0;
  ${around('P.h', `
    let d = sqrt(d2);
    let q = d * invH;
    rho += W(q);
    nb += counted(d2);
    // T_b = G_ab + Σ_S M_S G_(a,b^S): b and its images move together (pressure-ghosts.ts factorRowWalls).
    var tb = vec3<f32>(0.0);
    if (d > 0.0) {
      tb = (dW(q) * invH / d) * rv;
      gs += tb;
    }
    ${pairGhosts(`let dg = sqrt(d2); rho += W(dg * invH); nb += counted(d2); if (dg > 0.0) {
      let e = (dW(dg * invH) * invH / dg) * off;
      gs += e;
      tb += select(e, -e, vec3<bool>((S & 1u) != 0u, (S & 2u) != 0u, (S & 4u) != 0u));
    }`)}
    s2 += dot(tb, tb) * invMassOf(liquidOf(b));`)}
  ${selfGhosts(`let dg = sqrt(d2); rho += W(dg * invH); nb += counted(d2); if (dg > 0.0) { let e = (dW(dg * invH) * invH / dg) * off; gs += e; own += e; }`)}
  ${aroundObjects('P.h', `
    let d = sqrt(d2);
    let gm = pos[o].w;
    rho += gm * W(d * invH);
    nb += counted(d2);
    if (d > 0.0) { gs += (gm * dW(d * invH) * invH / d) * rv; }`)}
  let hs = gs + own;
  // The diagonal over m_a (pressure-kernels.ts factorRange): w_a α = n0² w_a / (Σ w_b |T_b|² + w_a |ĝ|²).
  let ia = invMassOf(liquidOf(a));
  return Measure(rho * P.invN0, nb, (P.n0 * P.n0 * ia) / (s2 + ia * dot(hs, hs) + ia * P.epsN));
}
`;

/** The bindings, helpers, displacement and measure of every module on the step's bindings; the objects' moves and the free bodies' share (free-wgsl.ts). */
export const SHARED_WGSL = HEAD + OBJECT_MOVES_WGSL + FREE_WGSL + DISPLACEMENT + MEASURE;
