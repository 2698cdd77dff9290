/**
 * Static particle-ized objects on the GPU (Steele et al. 2004, "Object-Liquid Interaction";
 * src/particle/objects.ts). The object particles of every solid body (scene/sample.ts, spacing
 * 2 r_o) ride in the liquid's own buffers past its n slots, as no ninth storage binding is there
 * (wgsl.ts): `pos[n + j]` holds the position and, in w, the Akinci et al. 2012 boundary volume γ
 * (solve-setup.ts boundaryVolumes); `vel[n + j]` the outward normal and, in w, its body's
 * friction. They are sorted once, here on
 * the host, into buckets of the liquid's own hash and cell edge over a table of their own, whose
 * starts follow the liquid's table in `start` (from P.table + 1). The sort over the liquid's n slots
 * (neighbours.ts) leaves all of it alone. Static bodies only: they never move, so this is done once.
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
 * What is not ported (refuse.ts): adhesion to objects and the signed-distance guard.
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
}

/** The hash of neighbours.ts HASH_WGSL (i32 arithmetic, as WGSL's). */
function bucketOf(i: number, j: number, k: number, table: number): number {
  const h = (Math.imul(541, i) + Math.imul(79, j) + Math.imul(31, k)) | 0;
  const m = h % table;
  return m < 0 ? m + table : m;
}

/** The static objects of `ctx` (every body static: refuse.ts), sorted into cells `cell` wide; γ over the rest density n0. */
export function gpuObjects(ctx: StepContext, cell: number, n0: number): GpuObjects {
  const O = ctx.objects, m = O.count;
  const table = Math.max(64, 2 * m) | 1;
  const gamma = m > 0 ? boundaryVolumes(ctx, n0) : new Float64Array(0);
  const inv = Math.fround(1 / cell), bucket = new Uint32Array(m), counts = new Uint32Array(table + 1);
  for (let s = 0; s < m; s++) {
    // As the GPU hashes it: single-precision position times single-precision 1/cell.
    const c = [0, 1, 2].map((k) => Math.floor(Math.fround(Math.fround(O.pos[3 * s + k]) * inv)));
    bucket[s] = bucketOf(c[0], c[1], c[2], table);
    counts[bucket[s]]++;
  }
  const starts = new Uint32Array(table + 1);
  for (let b = 0, sum = 0; b <= table; b++) { starts[b] = sum; sum += counts[b]; }
  const fill = starts.slice(), pos4 = new Float32Array(4 * m), normal4 = new Float32Array(4 * m);
  for (let s = 0; s < m; s++) {
    const j = fill[bucket[s]]++;
    for (let k = 0; k < 3; k++) { pos4[4 * j + k] = O.pos[3 * s + k]; normal4[4 * j + k] = O.normal[3 * s + k]; }
    pos4[4 * j + 3] = gamma[s];
    normal4[4 * j + 3] = O.bodies[O.body[s]].friction;
  }
  return { count: m, table, pos4, normal4, starts };
}

/**
 * The loop over the object particles within `support` (≤ the cell edge) of position xa; the body
 * sees o (the object slot, n + j), rv = xa − x_o and d2. Nothing where the scene has no objects.
 */
export function aroundObjects(support: string, body: string): string {
  return /* wgsl */ `if (P.om > 0u) {
    let oc0 = cellOf(xa, P.invCell);
    var oseen: array<u32, 27>;
    var om = 0u;
    let oreach2 = ${support} * ${support};
    let obase = P.table + 1u;
    for (var di = -1; di <= 1; di++) { for (var dj = -1; dj <= 1; dj++) { for (var dk = -1; dk <= 1; dk++) {
      let bk = bucketOf(oc0 + vec3<i32>(di, dj, dk), P.otable);
      var dup = false;
      for (var t = 0u; t < om; t++) { if (oseen[t] == bk) { dup = true; } }
      if (dup) { continue; }
      oseen[om] = bk;
      om++;
      for (var j = start[obase + bk]; j < start[obase + bk + 1u]; j++) {
        let o = P.n + j;
        let rv = xa - pos[o].xyz;
        let d2 = dot(rv, rv);
        if (d2 >= oreach2) { continue; }
        ${body}
      }
    }}}
  }`;
}

/** The objects' WGSL helpers: the contacts, the near test and the move's friction (see the header; friction-wgsl.ts). */
export const OBJECT_WGSL = /* wgsl */ `
// Pushes slot a out to P.dc from every object particle nearer, in turn (object-contacts.ts pushOut:
// the line from it, its normal at distance 0), and stops its velocity towards it.
fn objectPush(a: u32) {
  var xa = pos[a].xyz;
  var v = vel[a].xyz;
  ${aroundObjects('P.dc', `
    let dd = sqrt(d2);
    var u = vel[o].xyz;
    if (dd > 0.0) { u = rv / dd; }
    xa += (P.dc - dd) * u;
    let vn = dot(v, u);
    if (vn < 0.0) { v -= vn * u; }`)}
  pos[a] = vec4<f32>(xa, pos[a].w);
  vel[a] = vec4<f32>(v, vel[a].w);
}
// Whether an object particle is within P.oreach of slot a (pressure.ts: no free flight there).
fn nearObject(a: u32) -> bool {
  let xa = pos[a].xyz;
  var near = false;
  ${aroundObjects('P.oreach', 'near = true;')}
  return near;
}

// The friction factor f of object slot o's body.
fn objectFriction(o: u32) -> f32 { return vel[o].w; }
// A surface particle touching an object particle keeps (1 − f)^(30 δt) of its velocity (friction.ts).
fn moveFriction(a: u32) {
  if (P.om == 0u || pos[a].w == 0.0) { return; }
  let xa = pos[a].xyz;
  let touch = ${TOUCH} * P.dc;
  var f = -1.0;
  ${aroundObjects('touch', `if (f < 0.0) { f = objectFriction(o); }`)}
  if (f <= 0.0) { return; }
  let keepV = select(pow(1.0 - f, 30.0 * P.dtm), 0.0, f >= 1.0);
  vel[a] = vec4<f32>(vel[a].xyz * keepV, vel[a].w);
}
`;
