/**
 * The WGSL of the gel stage on the GPU (gel.ts runs it): the CPU engine's viscoelastic springs
 * with plasticity (src/particle/gel.ts; Clavet, Beaudoin & Poulin 2005 §5), the same formulas
 * in single precision.
 *
 * The springs are kept per particle, by particle id (the sort carries `id`: neighbours.ts), so
 * the counting sort need not move them: entry id·S holds (count, want) and entries id·S + 1 ..
 * id·S + count the springs (partner id, rest length's bits), S = GEL_SLOTS + 1. Each spring is
 * held at both of its ends, and the two copies stay equal bit for bit: the plastic flow and the
 * breaking read the same positions (xⱼ − xᵢ and xᵢ − xⱼ have the same squares) and the same
 * per-pair constants at both ends, and a spring is made only where each end finds the other
 * (within h, not yet joined) and both have room for every spring they want this sub-timestep
 * (want ≤ GEL_SLOTS at both ends, read after every particle has counted: gelBreak, then gelMake).
 * So the two ends see the same spring in the implicit step (gel-implicit-wgsl.ts), as the CPU's do.
 *
 * The bind group: 0 the step's parameters (wgsl.ts: P.n, the hash table), 1 pos, 2 vel, 3 id,
 * 4 slot (the slot of each id, or NONE), 5 springs, 6 wall (unused here; the helpers name it),
 * 7 bucket starts, 8 the gel's parameters.
 */
import { WORKGROUP } from './device.ts';
import { around, withBindings } from './wgsl.ts';

/** Springs one particle holds at most (26 on the rest lattice within the reach; a particle that would want more makes no new ones that sub-timestep). */
export const GEL_SLOTS = 48;

const BINDINGS = /* wgsl */ `
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> id: array<u32>;
@group(0) @binding(4) var<storage, read_write> slot: array<u32>;
@group(0) @binding(5) var<storage, read_write> springs: array<vec2<u32>>;
@group(0) @binding(6) var<storage, read_write> wall: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> start: array<u32>;
struct Gel {
  reach: f32, invReach: f32, kappa: f32, limit: f32,
  grow: f32, shrink: f32, fade: f32, invMass: f32,
  dt: f32, cap: u32, snap: u32, pad1: u32,
}
@group(0) @binding(8) var<uniform> G: Gel;
const NONE: u32 = 0xffffffffu;
const SLOTS: u32 = ${GEL_SLOTS}u;
const STRIDE: u32 = ${GEL_SLOTS + 1}u;
`;

const KERNELS = /* wgsl */ `
// The slot of every id: none (over the capacity), then each sorted slot's (after the sort).
@compute @workgroup_size(${WORKGROUP}) fn gelClear(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x < G.cap) { slot[g.x] = NONE; }
}
@compute @workgroup_size(${WORKGROUP}) fn gelSlot(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  slot[id[a]] = a;
}

// Whether id j is among the first c springs of the list at base.
fn joined(base: u32, c: u32, j: u32) -> bool {
  for (var k = 0u; k < c; k++) { if (springs[base + 1u + k].x == j) { return true; } }
  return false;
}

// The springs of slot a kept (gel.ts listSprings: both ends here, rest length below h, and within h
// where the gel's rest lengths do not decay, G.snap),
// in their partners' slot order, then how many it would have with the neighbours within h not yet joined (want).
@compute @workgroup_size(${WORKGROUP}) fn gelBreak(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let base = id[a] * STRIDE;
  let xa = pos[a].xyz;
  let h2 = G.reach * G.reach;
  let c = springs[base].x;
  var w = 0u;
  for (var k = 0u; k < c; k++) {
    let s = springs[base + 1u + k];
    let b = slot[s.x];
    if (b == NONE) { continue; }
    let d = pos[b].xyz - xa;
    if (bitcast<f32>(s.y) >= G.reach || (G.snap != 0u && dot(d, d) >= h2)) { continue; }
    springs[base + 1u + w] = s;
    w++;
  }
  // The kept springs in their partners' slot order (insertion: a few dozen at most), so that the
  // forces' sums go in an order the slots alone decide, not the order the springs were made or
  // uploaded in: a run resumed from a checkpoint (gel.ts upload) sums as the uninterrupted one does.
  for (var k = 1u; k < w; k++) {
    let s = springs[base + 1u + k];
    let sb = slot[s.x];
    var j = k;
    while (j > 0u && slot[springs[base + j].x] > sb) {
      springs[base + 1u + j] = springs[base + j];
      j--;
    }
    springs[base + 1u + j] = s;
  }
  var want = w;
  ${around('G.reach', `if (!joined(base, w, id[b])) { want++; }`)}
  springs[base] = vec2<u32>(w, want);
}

// New springs of slot a (gel.ts newSpringsRange), rest length at the distance, where both ends have room for all they want.
@compute @workgroup_size(${WORKGROUP}) fn gelMake(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let base = id[a] * STRIDE;
  let head = springs[base];
  if (head.y > SLOTS || head.y == head.x) { return; }
  let xa = pos[a].xyz;
  let kept = head.x;
  var c = kept;
  ${around('G.reach', `
    let j = id[b];
    if (springs[j * STRIDE].y <= SLOTS && !joined(base, kept, j)) {
      springs[base + 1u + c] = vec2<u32>(j, bitcast<u32>(sqrt(d2)));
      c++;
    }`)}
  springs[base] = vec2<u32>(c, head.y);
}

// Plastic flow and decay of slot a's springs over a solve of the implicit step (gel.ts gelPlasticRange): both copies of a spring take the same steps.
@compute @workgroup_size(${WORKGROUP}) fn gelPlastic(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let base = id[a] * STRIDE;
  let c = springs[base].x;
  let xa = pos[a].xyz;
  for (var k = 0u; k < c; k++) {
    let s = springs[base + 1u + k];
    let d = pos[slot[s.x]].xyz - xa;
    let r = sqrt(dot(d, d));
    var L = bitcast<f32>(s.y);
    let over = r - (1.0 + G.limit) * L;
    let under = (1.0 - G.limit) * L - r;
    if (over > 0.0) { L += over * G.grow; } else if (under > 0.0) { L -= under * G.shrink; }
    if (G.fade != 1.0) { L = r + (L - r) * G.fade; }
    springs[base + 1u + k] = vec2<u32>(s.x, bitcast<u32>(L));
  }
}
`;

export const GEL_WGSL = withBindings(BINDINGS) + KERNELS;

export const GEL_ENTRIES = ['gelClear', 'gelSlot', 'gelBreak', 'gelMake', 'gelPlastic'] as const;
export type GelEntry = (typeof GEL_ENTRIES)[number];

/** Bytes of the gel's parameters (the Gel struct). */
export const GEL_PARAM_BYTES = 48;
