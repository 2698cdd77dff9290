/**
 * Static particle-ized objects on the GPU (Steele et al. 2004, "Object-Liquid Interaction";
 * src/particle/objects.ts). The object particles of every solid body (scene/sample.ts, spacing
 * 2 r_o) ride in the liquid's own buffers past its slots (the capacity, P.cap), as no ninth storage binding is there
 * (wgsl.ts): `pos[cap + j]` holds the position and, in w, the Akinci et al. 2012 boundary volume γ
 * (solve-setup.ts boundaryVolumes); `vel[n + j]` the outward normal and, in w, its body's
 * friction. They are sorted once, here on
 * the host, into buckets of the liquid's own hash and cell edge over a table of their own, whose
 * starts follow the liquid's table in `start` (from P.table + 1). The sort over the liquid's n slots
 * (neighbours.ts) leaves all of it alone. Static bodies are sorted once; moving ones
 * (moving-objects.ts) are placed at their pose, sorted on the host and uploaded every sub-timestep,
 * their particles' velocities in `wall[cap + j]` (zero for static bodies: `objectVel`).
 *
 * What the object particles take part in on the GPU (OBJECT_WGSL, used by wgsl.ts and the kernels):
 *   - the density measure of the pressure stage and of density correction, ρ̂_a += γ_s w_as, and
 *     their displacement p_a γ_s G_as (pressure-kernels.ts factorRange, pressureDisplacementRange,
 *     densityChange with the objects still);
 *   - inter-penetration prevention (object-contacts.ts pushOut): a liquid particle closer than
 *     r + r_o to an object particle is pushed out to r + r_o along the line from it (its normal at
 *     distance 0) and loses its velocity towards it, in every move and after every density pass;
 *   - the free-flight flag (pressure.ts): no free flight within reach of an object.
 *   - friction, in the moves and as the objects' share of the exchange (friction-wgsl.ts).
 * Adhesion to objects: below (the adhesive copy); the signed-distance guard: guard-wgsl.ts.
 */
import type { StepContext } from '../particle/context.ts';
import { boundaryVolumes } from '../particle/solve-setup.ts';
import { TOUCH } from '../particle/object-lists.ts';

/** The object particles in bucket order, ready for upload (see the header). */
export interface GpuObjects {
  count: number;
  /** Buckets of the objects' hash table (odd, ≥ 64). */
  table: number;
  /** xyz γ per object particle, in bucket order. */
  pos4: Float32Array<ArrayBuffer>;
  /** The outward normal per object particle (xyz) and its body's friction factor (w). */
  normal4: Float32Array<ArrayBuffer>;
  /** Bucket starts into the object slots (table + 1 entries). */
  starts: Uint32Array<ArrayBuffer>;
  /** The adhesive copy (see OBJECT_ADHESION): its object particles, table and cell edge (m). */
  wide: { count: number; table: number; cell: number; pos4: Float32Array<ArrayBuffer>; starts: Uint32Array<ArrayBuffer> };
  /** The liquid's adhesion function with each adhesive solid material (breakpoints in radii, m/s²; support in m). */
  functions: { xs: Float64Array; ys: Float64Array; support: number }[];
  /** Per object particle (ObjectParticles order): γ, and its adhesion function's index (−1: none). For moving-objects.ts. */
  gamma: Float64Array;
  fn: Int32Array;
  /** The cell edge of the first copy (m). */
  cell: number;
}

/** Most solid materials with an adhesion function toward the liquid (the parameters block's room). */
export const OBJECT_ADHESION_FUNCTIONS = 4;
/** Most breakpoints of one liquid–object adhesion function. */
export const OBJECT_ADHESION_BREAKPOINTS = 32;

/** The hash of neighbours.ts HASH_WGSL (i32 arithmetic, as WGSL's). */
function bucketOf(i: number, j: number, k: number, table: number): number {
  const h = (Math.imul(541, i) + Math.imul(79, j) + Math.imul(31, k)) | 0;
  const m = h % table;
  return m < 0 ? m + table : m;
}

/** Counting sort of the points `pick` (xyz at pos[3 s]) into buckets of cells `cell` wide; returns the order and starts. */
export function sortPoints(pos: ArrayLike<number>, pick: Int32Array, cell: number): { table: number; order: Int32Array; starts: Uint32Array<ArrayBuffer> } {
  const m = pick.length, table = Math.max(64, 2 * m) | 1;
  const inv = Math.fround(1 / cell), bucket = new Uint32Array(m), counts = new Uint32Array(table + 1);
  // As the GPU hashes it: single-precision position times single-precision 1/cell.
  const cellOf = (v: number) => Math.floor(Math.fround(Math.fround(v) * inv));
  for (let q = 0; q < m; q++) {
    const s = pick[q];
    bucket[q] = bucketOf(cellOf(pos[3 * s]), cellOf(pos[3 * s + 1]), cellOf(pos[3 * s + 2]), table);
    counts[bucket[q]]++;
  }
  const starts = new Uint32Array(table + 1);
  for (let b = 0, sum = 0; b <= table; b++) { starts[b] = sum; sum += counts[b]; }
  const fill = starts.slice(), order = new Int32Array(m);
  for (let q = 0; q < m; q++) order[fill[bucket[q]]++] = pick[q];
  return { table, order, starts };
}

/**
 * The objects of `ctx` at their present pose, sorted into cells `cell` wide; γ over the rest
 * density n0 (at this pose: moving-objects.ts keeps it as the bodies move); the adhesive copy for
 * liquid material `liquid`.
 */
export function gpuObjects(ctx: StepContext, cell: number, n0: number, liquid: number): GpuObjects {
  const O = ctx.objects, m = O.count;
  const gamma = m > 0 ? boundaryVolumes(ctx, n0) : new Float64Array(0);
  const all = Int32Array.from({ length: m }, (_, s) => s);
  const main = sortPoints(O.pos, all, cell);
  const pos4 = new Float32Array(4 * m), normal4 = new Float32Array(4 * m);
  for (let j = 0; j < m; j++) {
    const s = main.order[j];
    for (let k = 0; k < 3; k++) { pos4[4 * j + k] = O.pos[3 * s + k]; normal4[4 * j + k] = O.normal[3 * s + k]; }
    pos4[4 * j + 3] = gamma[s];
    normal4[4 * j + 3] = O.bodies[O.body[s]].friction;
  }
  // The liquid's adhesion function with each solid material that has one with a force (the default
  // included: adhesion-matrix.ts), and the object particles of those materials.
  const M = ctx.adhesion, functions: GpuObjects['functions'] = [], slot = new Map<number, number>();
  for (const b of O.bodies) {
    if (slot.has(b.material)) continue;
    const e = liquid * M.size + b.material, o = M.offset[e], c = M.count[e];
    const ys = M.ys.slice(o, o + c);
    if (c === 0 || !ys.some((y) => y !== 0)) continue;
    if (c > OBJECT_ADHESION_BREAKPOINTS) throw new Error(`the adhesion function with '${b.name}' has ${c} points; the WebGPU backend holds ${OBJECT_ADHESION_BREAKPOINTS}`);
    if (functions.length === OBJECT_ADHESION_FUNCTIONS) throw new Error(`more than ${OBJECT_ADHESION_FUNCTIONS} solid materials with adhesion to the liquid: the WebGPU backend holds ${OBJECT_ADHESION_FUNCTIONS}`);
    slot.set(b.material, functions.length);
    functions.push({ xs: M.xs.slice(o, o + c), ys, support: M.support[e] * ctx.r });
  }
  const pick = all.filter((s) => slot.has(O.bodies[O.body[s]].material));
  const wideCell = Math.max(cell, ...functions.map((f) => f.support));
  const wide = sortPoints(O.pos, pick, wideCell);
  const wpos4 = new Float32Array(4 * pick.length);
  for (let j = 0; j < pick.length; j++) {
    const s = wide.order[j];
    for (let k = 0; k < 3; k++) wpos4[4 * j + k] = O.pos[3 * s + k];
    wpos4[4 * j + 3] = slot.get(O.bodies[O.body[s]].material) ?? 0;
  }
  const fn = Int32Array.from({ length: m }, (_, s) => slot.get(O.bodies[O.body[s]].material) ?? -1);
  return {
    count: m, table: main.table, pos4, normal4, starts: main.starts, functions, gamma, fn, cell,
    wide: { count: pick.length, table: wide.table, cell: wideCell, pos4: wpos4, starts: wide.starts },
  };
}

/** Writes the objects' header and adhesion functions into the parameters block from word `w` (wgsl.ts Params: wtable on). */
export function writeObjectAdhesion(data: ArrayBuffer, w: number, o: GpuObjects): void {
  const u = new Uint32Array(data), f = new Float32Array(data);
  u[w] = o.wide.table; u[w + 1] = o.wide.count; f[w + 2] = 1 / o.wide.cell; f[w + 3] = o.wide.cell;
  o.functions.forEach((fn, k) => {
    u[w + 4 + k] = fn.xs.length;
    f[w + 8 + k] = fn.support;
    for (let j = 0; j < fn.xs.length; j++) {
      f[w + 12 + OBJECT_ADHESION_BREAKPOINTS * k + j] = fn.xs[j];
      f[w + 12 + OBJECT_ADHESION_BREAKPOINTS * (OBJECT_ADHESION_FUNCTIONS + k) + j] = fn.ys[j];
    }
  });
}

/**
 * The loop over the object particles within `support` (≤ the cell edge) of position xa; the body
 * sees o (the object slot, cap + j), rv = xa − x_o and d2. Nothing where the scene has no objects.
 * `wide`: over the adhesive copy instead (pos.w its function's index), whose cells are as wide as
 * the longest adhesion support.
 */
export function aroundObjects(support: string, body: string, wide = false): string {
  // The adhesive copy: its own cell edge, table, starts after the first table's and slots after the first copy's.
  const [count, inv, table, base, first] = wide
    ? ['P.wm', 'P.winvCell', 'P.wtable', 'P.table + P.otable + 2u', 'P.cap + P.om']
    : ['P.om', 'P.invCell', 'P.otable', 'P.table + 1u', 'P.cap'];
  return /* wgsl */ `if (${count} > 0u) {
    let oc0 = cellOf(xa, ${inv});
    var oseen: array<u32, 27>;
    var om = 0u;
    let oreach2 = ${support} * ${support};
    let obase = ${base};
    for (var di = -1; di <= 1; di++) { for (var dj = -1; dj <= 1; dj++) { for (var dk = -1; dk <= 1; dk++) {
      let bk = bucketOf(oc0 + vec3<i32>(di, dj, dk), ${table});
      var dup = false;
      for (var t = 0u; t < om; t++) { if (oseen[t] == bk) { dup = true; } }
      if (dup) { continue; }
      oseen[om] = bk;
      om++;
      for (var j = start[obase + bk]; j < start[obase + bk + 1u]; j++) {
        let o = ${first} + j;
        let rv = xa - pos[o].xyz;
        let d2 = dot(rv, rv);
        if (d2 >= oreach2) { continue; }
        ${body}
      }
    }}}
  }`;
}

/** The objects' WGSL helpers every module may use: the objects' velocities and friction, the near test, adhesion (the moves: OBJECT_MOVES_WGSL). */
export const OBJECT_WGSL = /* wgsl */ `
// The velocity of object slot o (moving-objects.ts; zero for a static body).
fn objectVel(o: u32) -> vec3<f32> { return wall[o].xyz; }
// Whether slot a is next to a body (pressure.ts: no free flight, no take-back, no position shift
// and no filter there): the flag markNear set at the sub-timestep's start (guard-wgsl.ts, the CPU's
// rule: boundaries.ts markNearObjects), which the sort carries in pos.w (liquids-wgsl.ts).
fn nearObject(a: u32) -> bool { return isNear(a); }
// Whether an object particle is within P.oreach of slot a: markNear's rule for a body given by a
// mesh, which has no signed distance on the GPU (shapes-wgsl.ts).
fn nearObjectParticle(a: u32) -> bool {
  let xa = pos[a].xyz;
  var near = false;
  ${aroundObjects('P.oreach', 'near = true;')}
  return near;
}

// The friction factor f of object slot o's body.
fn objectFriction(o: u32) -> f32 { return vel[o].w; }
// The liquid's adhesion with object function k at dr radii (adhesion-wgsl.ts adhesionAt, object-adhesion.ts).
fn oadhX(k: u32, j: u32) -> f32 { let i = k * ${OBJECT_ADHESION_BREAKPOINTS}u + j; return P.oadhX[i >> 2u][i & 3u]; }
fn oadhY(k: u32, j: u32) -> f32 { let i = k * ${OBJECT_ADHESION_BREAKPOINTS}u + j; return P.oadhY[i >> 2u][i & 3u]; }
fn objectAdhesionAt(k: u32, dr: f32) -> f32 {
  let n = P.oadhN[k];
  if (dr <= oadhX(k, 0u)) { return oadhY(k, 0u); }
  if (dr > oadhX(k, n - 1u)) { return 0.0; }
  var b = 1u;
  for (var q = 1u; q < n - 1u; q++) { if (oadhX(k, q) < dr) { b++; } }
  let x0 = oadhX(k, b - 1u);
  let y0 = oadhY(k, b - 1u);
  return y0 + (dr - x0) / (oadhX(k, b) - x0) * (oadhY(k, b) - y0);
}
// Σ over the adhesive object particles within their function's support (object-adhesion.ts).
fn objectAdhesion(a: u32) -> vec3<f32> {
  let xa = pos[a].xyz;
  var acc = vec3<f32>(0.0);
  ${aroundObjects('P.wsupp', `
    let k = u32(pos[o].w);
    let sk = P.oadhS[k];
    if (d2 < sk * sk && d2 > 0.0) { let d = sqrt(d2); acc += (objectAdhesionAt(k, d * P.invR) / d) * rv; }`, true)}
  return acc;
}
`;

/**
 * The objects' moves (the step's bindings only: they hand a free body its share through `keep`,
 * free-wgsl.ts): the contacts and the move's friction (see the header; friction-wgsl.ts).
 */
export const OBJECT_MOVES_WGSL = /* wgsl */ `
// Pushes slot a out to P.dc from every object particle nearer, in turn (object-contacts.ts pushOut:
// the line from it, its normal at distance 0), and stops its velocity towards it (relative to it).
fn objectPush(a: u32) {
  var xa = pos[a].xyz;
  var v = vel[a].xyz;
  var jf = vec3<f32>(0.0);
  var kf = 0.0;
  ${aroundObjects('P.dc', `
    let dd = sqrt(d2);
    var u = vel[o].xyz;
    if (dd > 0.0) { u = rv / dd; }
    xa += (P.dc - dd) * u;
    let vn = dot(v - objectVel(o), u);
    if (vn < 0.0) {
      v -= vn * u;
      let fo = objectFree(o);
      if (fo > 0.0) { jf -= vn * u; kf = fo; }
    }`)}
  pos[a] = vec4<f32>(xa, pos[a].w);
  vel[a] = vec4<f32>(v, vel[a].w);
  toFree(a, kf, jf);
}
// A surface particle touching an object particle keeps (1 − f)^(30 δt) of its velocity relative to it (friction.ts).
fn moveFriction(a: u32) {
  if (P.om == 0u || !isSurface(a)) { return; }
  let xa = pos[a].xyz;
  let touch = ${TOUCH} * P.dc;
  var f = -1.0;
  var vo = vec3<f32>(0.0);
  var fo = 0.0;
  ${aroundObjects('touch', `if (f < 0.0) { f = objectFriction(o); vo = objectVel(o); fo = objectFree(o); }`)}
  if (f <= 0.0) { return; }
  let keepV = select(pow(1.0 - f, 30.0 * P.dtm), 0.0, f >= 1.0);
  let v = vo + (vel[a].xyz - vo) * keepV;
  toFree(a, fo, v - vel[a].xyz);
  vel[a] = vec4<f32>(v, vel[a].w);
}
`;
