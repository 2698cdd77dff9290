/**
 * Stage "collide": inter-penetration prevention (Steele §3.4). Particles that overlap are separated
 * to their contact distance (2r between liquid particles, r + r_o to an object particle). Between
 * liquid particles the separation is turned into velocity (position-based dynamics); against
 * objects the closing part of the relative velocity is removed. Without either, gravity would
 * re-push a resting particle into its support every move and its velocity would grow unbounded.
 *
 * Two guards the paper does not need at its frame rates but a general scene does:
 *  - a signed-distance guard: a liquid particle that a fast move carried past an object's particles
 *    (sdf < GUARD · r) is put back to sdf = GUARD · r along the sdf gradient (moving objects too);
 *  - domain walls (scene `domain` with particle.walls): particles stay r inside every face that is
 *    not "open"; "noslip" and moving walls also take friction FACE_FRICTION per 1/30 s.
 *
 * Object contacts run every move and after every density pass (~14 times a sub-timestep) over
 * lists made once a sub-timestep (ObjectContactLists): the passes read only each list's near run
 * while the particle stays in its far entries' clearance ball, in the lists' own order, so the
 * results are those of testing every entry. Honey drop, frames 3–12, one thread, CPU ms/frame
 * (bench/_coll.ts, 2 shared cores at load ~4, min of 3, two alternating runs): moves' object
 * contacts 40 → 19–21, after density passes 28.6 → 15–18, guard (moves + density) 10.4 + 8.3 →
 * 5.8 + 5, liquid contacts 25 → 19–20, friction 15 → 9.4–10.4, listing 21.7 → 21–22: in all
 * 150 → 99–111, the state bit for bit the same; memory 1 313 → 1 284 bytes a particle (16-bit
 * entries, 16 bytes of clearance).
 */
import { FACES, type Boundary } from '../scene/schema.ts';
import type { StepContext } from './context.ts';
import { parallelObjectContacts } from './object-contacts-parallel.ts';
import { parallelContactLists } from './object-lists-parallel.ts';
import { parallelContacts } from './contacts-parallel.ts';
import { allocFloat32, allocInt32, allocUint16 } from '../parallel/legacy.ts';

/** Liquid particle centres are kept at least this many radii outside every solid. */
export const GUARD = 0.5;
const FACE_FRICTION = 0.5;
/**
 * Liquid particles are separated to this fraction of the lattice spacing 2r. At the full 2r the
 * contacts fight density correction (a disordered liquid at ρ0 has pairs closer than the lattice
 * spacing), and every pass of it would reappear as velocity here; below it, density correction
 * keeps the spacing and contacts only catch fast, deep overlaps.
 */
export const LIQUID_CONTACT = 0.8;
/**
 * Only the first PBD_KICK · r of an overlap becomes velocity. A resting particle is pushed by about
 * g dt² (well under 0.01 r at the scenes' steps), so resting is unaffected; a deep overlap that a
 * moving object or density correction made is still removed, but does not explode into speed.
 */
export const PBD_KICK = 0.05;

export function preventInterpenetration(ctx: StepContext, dt: number): void {
  // With a thread team, liquid and object contacts are one job (contacts-parallel.ts).
  if (!parallelContacts(ctx, dt, LIQUID_CONTACT * 2 * ctx.r, PBD_KICK * ctx.r, liquidMassesEqual(ctx))) {
    liquidContacts(ctx, dt);
    objectContacts(ctx);
  }
  signedDistanceGuard(ctx);
  domainWalls(ctx, dt);
}

/** True when every liquid has the same particle mass (contact pushes then split ½ : ½). */
function liquidMassesEqual(ctx: StepContext): boolean {
  const mass = ctx.mass;
  let m0 = -1;
  for (let m = 0; m < mass.length; m++) {
    if (!ctx.isLiquid[m]) continue;
    if (m0 < 0) m0 = mass[m];
    else if (mass[m] !== m0) return false;
  }
  return true;
}

/**
 * Liquid pairs of ctx.contacts closer than LIQUID_CONTACT · 2r are separated (exported for bench/_coll.ts).
 * The separation also becomes velocity (as in position-based dynamics, up to PBD_KICK): a particle
 * resting on others is pushed back by g dt² each move and so gets back the g dt gravity gave it.
 * The pushes are equal and opposite in momentum, so this conserves momentum. With a thread team the
 * moves separate the pairs slab by slab (contacts-parallel.ts).
 */
export function liquidContacts(ctx: StepContext, dt: number): void {
  const L = ctx.liquid, n = L.count, pos = L.pos, vel = L.vel, mat = L.material, mass = ctx.mass;
  const ls = ctx.contacts.start, lj = ctx.contacts.j;
  const dc = LIQUID_CONTACT * 2 * ctx.r, inv = 1 / dt, kick = PBD_KICK * ctx.r;
  // One liquid mass (every scene so far): the weights are m/(m + m) = 1/2 exactly, hoisted.
  const uniform = liquidMassesEqual(ctx);
  for (let i = 0; i < n; i++) {
    const a = ls[i], b = ls[i + 1];
    if (a !== b) contactRow(pos, vel, mat, mass, i, lj, a, b, dc, inv, kick, uniform);
  }
}

/**
 * liquidContacts' separations of particle i from j = js[a..b) in turn (each j > i on one thread,
 * so only i's own pushes move i: its position stays in registers). The one loop the serial and
 * threaded (contacts-parallel.ts) paths run.
 */
export function contactRow(
  pos: Float64Array, vel: Float64Array, mat: Uint16Array, mass: Float64Array, i: number, js: Int32Array, a: number, b: number,
  dc: number, inv: number, kick: number, uniform: boolean,
): void {
  const dc2 = dc * dc;
  let xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
  for (let q = a; q < b; q++) {
    const j = js[q];
    const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 >= dc2 || d2 === 0) continue;
    const d = Math.sqrt(d2);
    const ux = dx / d, uy = dy / d, uz = dz / d;
    let wi = 0.5, wj = 0.5;
    if (!uniform) {
      const mi = mass[mat[i]], mj = mass[mat[j]];
      wi = mj / (mi + mj); wj = mi / (mi + mj);
    }
    const overlap = dc - d;
    const si = overlap * wi, sj = overlap * wj;
    const v = Math.min(overlap, kick) * inv, vi = v * wi, vj = v * wj;
    xi -= si * ux; yi -= si * uy; zi -= si * uz;
    pos[3 * i] = xi; pos[3 * i + 1] = yi; pos[3 * i + 2] = zi;
    pos[3 * j] += sj * ux; pos[3 * j + 1] += sj * uy; pos[3 * j + 2] += sj * uz;
    vel[3 * i] -= vi * ux; vel[3 * i + 1] -= vi * uy; vel[3 * i + 2] -= vi * uz;
    vel[3 * j] += vj * ux; vel[3 * j + 1] += vj * uy; vel[3 * j + 2] += vj * uz;
  }
}

/** Object particles within this many (r + r_o), plus travel, are listed for contacts and friction (friction.ts touches at 1.1). */
const CONTACT_LIST_TOUCH = 1.25;
/** Friction's touching distance, (r + r_o) (friction.ts). */
export const TOUCH = 1.1;
/** List entries beyond friction's touch plus this many radii are "far" (ObjectContactLists). */
const NEAR_SLACK = 1;
/** Round-off allowance of the far entries' clearance, radii (setClearance). */
export const CLEAR_MARGIN = 1e-5;

/**
 * Per liquid particle, the object particles its moves and density passes of this sub-timestep can
 * meet: entries [start[i], start[i + 1]) of `j`, by rank: the object particles numbered cell by
 * cell in (k, j, i) order of their objectCells cell, slots within a cell in order, which is the
 * order a list meets them in (ctx.objectCellsNear scans k, j, i). `pos` and `index` (the object
 * particle) are by rank. A pass takes a list's entries in rank order, so whatever skips it makes,
 * results are bit for bit those of testing every entry in listing order.
 *
 * On the honey drop's impact a list reaches ~20 r (travel) but a contact is at 2.5 r: a list holds
 * first its near entries (within friction's touch + NEAR_SLACK · r when last sorted), then its far
 * ones, each run in rank order, far ones flagged (+ `far`); `clear` keeps a point c and a distance
 * D with every far entry at least D from c. While the particle is within D − d of c no far entry
 * is within d of it (triangle inequality), and a pass reads only the near run. When the particle
 * leaves that ball, the pass merges both runs in rank order, tests every entry, and sorts the list
 * into near and far again from where the particle is. D loses CLEAR_MARGIN · r to round-off.
 * Entries are 16-bit while the ranks fit in 15 bits (4 003 object particles on the honey drop).
 */
/** Scratch of sortNearFar: room for the longest list (one per thread). */
export interface NearFarScratch {
  tmp: Int32Array;
  tmpD: Float64Array;
}

export class ObjectContactLists implements NearFarScratch {
  start = new Int32Array(1);
  j: Uint16Array | Int32Array = new Uint16Array(0);
  /** Flag of a far entry (added to its rank). */
  far = 0x8000;
  length = 0;
  /** Per particle: c (x, y, z) and D, float32. */
  clear = new Float32Array(0);
  /** Object particle positions and indices by rank, and the first rank of each object cell. */
  pos = new Float64Array(0);
  index = new Int32Array(0);
  cellRank = new Int32Array(0);
  /** Candidates of a liquid cell (listObjectContacts): ranks and positions. */
  cand = new Int32Array(0);
  candPos = new Float64Array(0);
  /** Scratch of the longest list (sortNearFar), and that length. */
  tmp = new Int32Array(0);
  tmpD = new Float64Array(0);
  longest = 0;
  /** On SharedArrayBuffers (a thread team reads start and j), from the next reset on. */
  shared = false;

  reset(n: number, objects: number): void {
    const wide = objects > 0x7fff;
    if (this.start.length < n + 1 || (this.shared && !(this.start.buffer instanceof SharedArrayBuffer))) {
      this.start = allocInt32(Math.ceil((n + 1) * 1.25), this.shared);
      this.clear = allocFloat32(4 * Math.ceil((n + 1) * 1.25), this.shared);
    }
    if (wide !== this.j instanceof Int32Array || (this.shared && !(this.j.buffer instanceof SharedArrayBuffer))) {
      this.j = wide ? allocInt32(Math.max(1024, this.j.length), this.shared) : allocUint16(Math.max(1024, this.j.length), this.shared);
    }
    this.far = wide ? 0x40000000 : 0x8000;
    this.length = 0;
  }

  /** Room for `extra` more entries (keeping the first `length`). */
  grow(extra: number): void {
    if (this.length + extra <= this.j.length) return;
    const size = Math.max(1024, Math.ceil((this.length + extra) * 1.25));
    const bigger = this.j instanceof Int32Array ? allocInt32(size, this.shared) : allocUint16(size, this.shared);
    bigger.set(this.j.subarray(0, this.length));
    this.j = bigger;
  }

  /** Ranks the object particles (cells in (k, j, i) order) and copies their positions by rank. */
  rank(ctx: StepContext): void {
    const og = ctx.objectCells.grid, nc = og.cellCount, no = ctx.objects.count, ci = og.cellI, cj = og.cellJ, ck = og.cellK;
    const cells = Array.from({ length: nc }, (_, c) => c);
    cells.sort((a, b) => ck[a] - ck[b] || cj[a] - cj[b] || ci[a] - ci[b]);
    if (this.cellRank.length < nc) this.cellRank = new Int32Array(Math.ceil(nc * 1.25));
    if (this.index.length < no) {
      this.index = new Int32Array(no);
      this.pos = new Float64Array(3 * no);
    }
    const sp = ctx.objectSlotPos, order = og.order, pos = this.pos, index = this.index;
    let r = 0;
    for (const c of cells) {
      this.cellRank[c] = r;
      for (let s = og.start[c], s1 = s + og.count[c]; s < s1; s++, r++) {
        pos[3 * r] = sp[3 * s]; pos[3 * r + 1] = sp[3 * s + 1]; pos[3 * r + 2] = sp[3 * s + 2];
        index[r] = order[s];
      }
    }
  }
}

export function objectListsOf(ctx: StepContext): ObjectContactLists {
  return ctx.keep('objectContacts.lists', () => {
    const lists = new ObjectContactLists();
    lists.shared = ctx.shared;
    return lists;
  });
}

/**
 * Records c = (x, y, z) rounded to float32 and D = (the nearest far entry's distance from (x, y, z),
 * √min2) − |(x, y, z) − c| − margin, rounded down: |c − o| ≥ |p − o| − |p − c|.
 */
function setClearance(clear: Float32Array, i: number, x: number, y: number, z: number, min2: number, margin: number): void {
  const cx = Math.fround(x), cy = Math.fround(y), cz = Math.fround(z);
  clear[4 * i] = cx; clear[4 * i + 1] = cy; clear[4 * i + 2] = cz;
  const d = Math.sqrt(min2) - Math.sqrt((x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2) - margin;
  const f = Math.fround(d);
  clear[4 * i + 3] = f <= d ? f : d - Math.abs(d) * 2 ** -23;
}

/** True when (x, y, z) is certainly farther than d from every far entry of i's list. */
export function clearOf(clear: Float32Array, i: number, x: number, y: number, z: number, d: number): boolean {
  const free = clear[4 * i + 3] - d;
  if (!(free > 0)) return false;
  const dx = x - clear[4 * i], dy = y - clear[4 * i + 1], dz = z - clear[4 * i + 2];
  return dx * dx + dy * dy + dz * dz < free * free;
}

/** Squared distance below which a list entry is near (ObjectContactLists). */
export function near2Of(ctx: StepContext): number {
  const d = TOUCH * (ctx.r + ctx.ro) + NEAR_SLACK * ctx.r;
  return d * d;
}

/**
 * Lists, per liquid particle, the object particles the moves and density correction of this
 * sub-timestep can meet (ObjectContactLists), after viscosity, when each particle's velocity is
 * known. A particle's list reaches 1.25 (r + r_o) (contact; friction touches at 1.1) plus one
 * radius (density correction's displacements) plus twice its own travel bound
 * (|v| + g δt + the fastest object speed) δt; particles not flagged near a body (markNearObjects)
 * get none. Adhesion is left out of the bound, as it was of the former scene-wide one: near a
 * solid it mostly presses particles that contacts hold. A margin from the fastest particle of the
 * scene made every list as long as the fastest one needs: on the honey drop, draped on its ball,
 * 14 r instead of ~4 r, and the moves and density passes walked ~10× the entries. A particle a list
 * misses is still kept out of solids by the signed-distance guard.
 *
 * Each list comes out in rank order (object cells in (k, j, i) order, as objectCellsNear gives
 * them), split into its near and far runs, with its clearance.
 */
export function listObjectContacts(ctx: StepContext, dt: number): void {
  const L = ctx.liquid, n = L.count, O = ctx.objects;
  const list = objectListsOf(ctx);
  list.reset(n, O.count);
  if (O.count === 0) {
    list.start.fill(0, 0, n + 1);
    return;
  }
  list.rank(ctx);
  const og = ctx.objectCells.grid;
  const v: ContactListView = {
    pos: L.pos, vel: L.vel, near: L.nearObject, start: ctx.cells.grid.start, count: ctx.cells.grid.count,
    ostart: og.start, ocount: og.count, cellRank: list.cellRank, opos: ctx.objectSlotPos, clear: list.clear,
    base: CONTACT_LIST_TOUCH * (ctx.r + ctx.ro) + ctx.r, g: Math.hypot(...ctx.scene.gravity), dt, vo: O.maxSpeed,
    near2: near2Of(ctx), margin: CLEAR_MARGIN * ctx.r, farBit: list.far,
  };
  let longest: number;
  const threaded = parallelContactLists(ctx, v);
  if (threaded >= 0) longest = threaded;
  else {
    const finder: ObjectCellFinder = {
      find: (x0, y0, z0, x1, y1, z1, reach) => ctx.objectCellsNear(x0, y0, z0, x1, y1, z1, reach),
      get cells() { return ctx.nearObjectCells; },
    };
    longest = contactListRange(v, finder, 0, ctx.cells.grid.cellCount, list, list);
  }
  list.start[n] = list.length;
  list.longest = longest;
  if (list.tmp.length < longest) list.tmp = new Int32Array(Math.ceil(longest * 1.25));
  if (list.tmpD.length < longest) list.tmpD = new Float64Array(list.tmp.length);
}

/** What contactListRange reads: the sorted liquid and its cells, the ranked object particles, the reach constants. */
export interface ContactListView {
  pos: Float64Array;
  vel: Float64Array;
  near: Uint8Array;
  /** Liquid cells (ctx.cells.grid): first particle and count. */
  start: Int32Array;
  count: Int32Array;
  /** Object cells: first slot and count; the rank of each cell's first particle; positions by slot. */
  ostart: Int32Array;
  ocount: Int32Array;
  cellRank: Int32Array;
  opos: Float64Array;
  /** Per liquid particle: the clearance of its far entries (ObjectContactLists.clear), written. */
  clear: Float32Array;
  base: number;
  g: number;
  dt: number;
  vo: number;
  near2: number;
  margin: number;
  farBit: number;
}

/** The object cells near a box: StepContext.objectCellsNear, or a dense copy of them on a thread team. */
export interface ObjectCellFinder {
  find(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, reach: number): number;
  /** The cells the last `find` found (its first return value of them). */
  readonly cells: Int32Array;
}

/** A list contactListRange appends to (ObjectContactLists, or a thread's own). */
export interface ContactListSink {
  start: Int32Array;
  j: Uint16Array | Int32Array;
  length: number;
  /** Room for `extra` more entries, keeping the first `length`. */
  grow(extra: number): void;
}

/** contactListRange's scratch: one liquid cell's candidates (ranks, positions) and far entries. */
export interface ContactListScratch {
  cand: Int32Array;
  candPos: Float64Array;
  tmp: Int32Array;
}

/**
 * listObjectContacts' loop over the liquid cells [c0, c1): the lists of their particles appended
 * to `out` (start entries at their particles, relative to out's own entries), their clearances
 * into v.clear. Returns the longest list. The one loop the serial and threaded
 * (object-lists-parallel.ts) paths run.
 */
export function contactListRange(
  v: ContactListView, finder: ObjectCellFinder, c0: number, c1: number, out: ContactListSink, scratch: ContactListScratch,
): number {
  const pos = v.pos, vel = v.vel, near = v.near, start = v.start, cnt = v.count;
  const ostart = v.ostart, ocnt = v.ocount, cellRank = v.cellRank, opos = v.opos, clear = v.clear;
  const base = v.base, g = v.g, dt = v.dt, vo = v.vo, near2 = v.near2, margin = v.margin, farBit = v.farBit;
  const ls = out.start;
  let tmp = scratch.tmp, lj = out.j, len = out.length, longest = 0;
  for (let c = c0; c < c1; c++) {
    const i0 = start[c], i1 = i0 + cnt[c];
    if (i1 === i0) continue;
    // The reach of the cell's fastest particle picks the object cells: those overlapping the
    // cell's flagged particles' box grown by it, whose own particle box is within that reach.
    let v2max = -1, bx0 = Infinity, by0 = Infinity, bz0 = Infinity, bx1 = -Infinity, by1 = -Infinity, bz1 = -Infinity;
    for (let i = i0; i < i1; i++) {
      if (!near[i]) continue;
      const v2 = vel[3 * i] * vel[3 * i] + vel[3 * i + 1] * vel[3 * i + 1] + vel[3 * i + 2] * vel[3 * i + 2];
      if (v2 > v2max) v2max = v2;
      const x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
      if (x < bx0) bx0 = x;
      if (x > bx1) bx1 = x;
      if (y < by0) by0 = y;
      if (y > by1) by1 = y;
      if (z < bz0) bz0 = z;
      if (z > bz1) bz1 = z;
    }
    if (v2max < 0) {
      for (let i = i0; i < i1; i++) ls[i] = len;
      continue;
    }
    const reachMax = base + 2 * (Math.sqrt(v2max) + g * dt + vo) * dt;
    const m = finder.find(bx0, by0, bz0, bx1, by1, bz1, reachMax);
    const cellsNear = finder.cells;
    // The cell's candidates: object particles within reachMax of its particle box (no particle of
    // the cell is nearer to one than the box; the test is widened by 1e-9 against round-off), by
    // rank, their positions packed; each particle of the cell then tests only those.
    const cut2 = (reachMax * (1 + 1e-9)) ** 2;
    let most = 0;
    for (let q = 0; q < m; q++) most += ocnt[cellsNear[q]];
    if (scratch.cand.length < most) {
      scratch.cand = new Int32Array(Math.ceil(most * 1.25));
      scratch.candPos = new Float64Array(3 * scratch.cand.length);
    }
    const cand = scratch.cand, cpos = scratch.candPos;
    let nc = 0;
    for (let q = 0; q < m; q++) {
      const oc = cellsNear[q], s0 = ostart[oc], r0 = cellRank[oc] - s0;
      for (let s = s0, s1 = s0 + ocnt[oc]; s < s1; s++) {
        const x = opos[3 * s], y = opos[3 * s + 1], z = opos[3 * s + 2];
        const ex = x < bx0 ? bx0 - x : x > bx1 ? x - bx1 : 0;
        const ey = y < by0 ? by0 - y : y > by1 ? y - by1 : 0;
        const ez = z < bz0 ? bz0 - z : z > bz1 ? z - bz1 : 0;
        if (ex * ex + ey * ey + ez * ez >= cut2) continue;
        cand[nc] = r0 + s;
        cpos[3 * nc] = x; cpos[3 * nc + 1] = y; cpos[3 * nc + 2] = z;
        nc++;
      }
    }
    out.length = len;
    out.grow(nc * (i1 - i0));
    lj = out.j;
    if (tmp.length < nc) tmp = scratch.tmp = new Int32Array(Math.ceil(nc * 1.25));
    for (let i = i0; i < i1; i++) {
      ls[i] = len;
      if (nc === 0 || !near[i]) continue;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const vi = Math.sqrt(vel[3 * i] * vel[3 * i] + vel[3 * i + 1] * vel[3 * i + 1] + vel[3 * i + 2] * vel[3 * i + 2]);
      const reach = base + 2 * (vi + g * dt + vo) * dt, reach2 = reach * reach;
      let min2 = Infinity, nf = 0;
      for (let k = 0; k < nc; k++) {
        const dx = cpos[3 * k] - xi, dy = cpos[3 * k + 1] - yi, dz = cpos[3 * k + 2] - zi;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 >= reach2) continue;
        if (d2 < near2) lj[len++] = cand[k];
        else {
          tmp[nf++] = cand[k] + farBit;
          if (d2 < min2) min2 = d2;
        }
      }
      for (let k = 0; k < nf; k++) lj[len++] = tmp[k];
      if (len > ls[i]) {
        setClearance(clear, i, xi, yi, zi, min2, margin);
        if (len - ls[i] > longest) longest = len - ls[i];
      }
    }
    out.length = len;
  }
  out.length = len;
  return longest;
}

/**
 * Liquid particles out of object particles: to the contact distance r + r_o along the line from
 * the object particle (its normal when they coincide), without closing velocity relative to it.
 * With a thread team the particles are split over the threads (object-contacts-parallel.ts).
 */
export function objectContacts(ctx: StepContext): void {
  const L = ctx.liquid, O = ctx.objects, n = L.count;
  if (O.count === 0) return;
  if (parallelObjectContacts(ctx)) return;
  const list = objectListsOf(ctx);
  objectContactRange(L.pos, L.vel, list.pos, O.vel, O.normal, list.index, list.start, list.j, ctx.r + ctx.ro, 0, n, list.clear, list, near2Of(ctx), CLEAR_MARGIN * ctx.r);
}

/** Pushes liquid particle i, (dx, dy, dz) from the object particle o with dx² + dy² + dz² = d2 < dc², out to dc. */
function pushOut(
  pos: Float64Array, vel: Float64Array, ovel: Float64Array, onormal: Float64Array, i: number, o: number,
  dx: number, dy: number, dz: number, d2: number, dc: number,
): void {
  let ux: number, uy: number, uz: number, d: number;
  if (d2 > 0) {
    d = Math.sqrt(d2);
    ux = dx / d; uy = dy / d; uz = dz / d;
  } else {
    d = 0;
    ux = onormal[3 * o]; uy = onormal[3 * o + 1]; uz = onormal[3 * o + 2];
  }
  const push = dc - d;
  pos[3 * i] += push * ux; pos[3 * i + 1] += push * uy; pos[3 * i + 2] += push * uz;
  const vn = (vel[3 * i] - ovel[3 * o]) * ux + (vel[3 * i + 1] - ovel[3 * o + 1]) * uy + (vel[3 * i + 2] - ovel[3 * o + 2]) * uz;
  if (vn < 0) {
    vel[3 * i] -= vn * ux; vel[3 * i + 1] -= vn * uy; vel[3 * i + 2] -= vn * uz;
  }
}

/**
 * objectContacts over liquid particles [i0, i1): writes only their own positions and velocities
 * (and with `lists`, their own lists' order and clearance). `opos` is by rank; `ovel` and `onormal`
 * are read at index[rank] (null: by rank too). Without `lists` (a thread team) every entry is
 * tested, both runs merged in rank order.
 */
export function objectContactRange(
  pos: Float64Array, vel: Float64Array, opos: Float64Array, ovel: Float64Array, onormal: Float64Array, index: Int32Array | null,
  ls: Int32Array, lj: Uint16Array | Int32Array, dc: number, i0: number, i1: number,
  clear: Float32Array, scratch: NearFarScratch, near2: number, margin: number,
): void {
  const dc2 = dc * dc, far = lj instanceof Uint16Array ? 0x8000 : 0x40000000;
  for (let i = i0; i < i1; i++) {
    const q0 = ls[i], q1 = ls[i + 1];
    if (q0 === q1) continue;
    let xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    // The near run, while the particle is inside the far entries' clearance ball.
    let a = q0, last = -1;
    if (clearOf(clear, i, xi, yi, zi, dc)) {
      let left = false;
      for (; a < q1; a++) {
        const s = lj[a];
        if (s >= far) break;
        const dx = xi - opos[3 * s], dy = yi - opos[3 * s + 1], dz = zi - opos[3 * s + 2];
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 >= dc2) continue;
        pushOut(pos, vel, ovel, onormal, i, index === null ? s : index[s], dx, dy, dz, d2, dc);
        xi = pos[3 * i]; yi = pos[3 * i + 1]; zi = pos[3 * i + 2];
        if (!clearOf(clear, i, xi, yi, zi, dc)) {
          left = true;
          last = s;
          a++;
          break;
        }
      }
      if (!left) continue;
    }
    // The rest in rank order: near entries from a, far ones after the last rank taken.
    let split = a;
    while (split < q1 && lj[split] < far) split++;
    let b = split;
    while (b < q1 && lj[b] - far < last) b++;
    while (a < split || b < q1) {
      const s = b >= q1 || (a < split && lj[a] < lj[b] - far) ? lj[a++] : lj[b++] - far;
      const dx = xi - opos[3 * s], dy = yi - opos[3 * s + 1], dz = zi - opos[3 * s + 2];
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 >= dc2) continue;
      pushOut(pos, vel, ovel, onormal, i, index === null ? s : index[s], dx, dy, dz, d2, dc);
      xi = pos[3 * i]; yi = pos[3 * i + 1]; zi = pos[3 * i + 2];
    }
    sortNearFar(clear, scratch, lj, far, q0, q1, opos, i, xi, yi, zi, near2, margin);
  }
}

/** Sorts i's entries [q0, q1) into near and far runs (each in rank order) from (x, y, z), and records the clearance. */
function sortNearFar(
  clear: Float32Array, scratch: NearFarScratch, lj: Uint16Array | Int32Array, far: number, q0: number, q1: number, opos: Float64Array,
  i: number, x: number, y: number, z: number, near2: number, margin: number,
): void {
  const tmp = scratch.tmp, d2s = scratch.tmpD;
  let split = q0;
  while (split < q1 && lj[split] < far) split++;
  let a = q0, b = split, k = 0;
  while (a < split || b < q1) tmp[k++] = b >= q1 || (a < split && lj[a] < lj[b] - far) ? lj[a++] : lj[b++] - far;
  let w = q0, min2 = Infinity;
  for (let e = 0; e < k; e++) {
    const s = tmp[e];
    const dx = x - opos[3 * s], dy = y - opos[3 * s + 1], dz = z - opos[3 * s + 2];
    const d2 = (d2s[e] = dx * dx + dy * dy + dz * dz);
    if (d2 < near2) lj[w++] = s;
  }
  for (let e = 0; e < k; e++) {
    if (d2s[e] < near2) continue;
    lj[w++] = tmp[e] + far;
    if (d2s[e] < min2) min2 = d2s[e];
  }
  setClearance(clear, i, x, y, z, min2, margin);
}

const local = new Float64Array(3);
const world = new Float64Array(3);
const bodyVel = new Float64Array(3);

/**
 * Flags the liquid particles within `margin` (m) of a body for the signed-distance guard: inside
 * the body's bounds grown by the margin and, there, with a signed distance under GUARD · r plus the
 * margin (one evaluation a sub-timestep instead of one a move and a density pass: a particle
 * draped over a ball is inside its bounds but mostly far from its surface).
 */
export function markNearObjects(ctx: StepContext, margin: number): void {
  const L = ctx.liquid, n = L.count, pos = L.pos, near = L.nearObject;
  const reach = GUARD * ctx.r + margin;
  near.fill(0, 0, n);
  for (const b of ctx.objects.bodies) {
    const R = b.pose.R, t = b.pose.t;
    const min = b.min, max = b.max, sdf = b.compiled.sdf;
    for (let i = 0; i < n; i++) {
      if (near[i]) continue;
      const dx = pos[3 * i] - t[0], dy = pos[3 * i + 1] - t[1], dz = pos[3 * i + 2] - t[2];
      const x = R[0] * dx + R[3] * dy + R[6] * dz;
      const y = R[1] * dx + R[4] * dy + R[7] * dz;
      const z = R[2] * dx + R[5] * dy + R[8] * dz;
      if (x > min[0] - margin && x < max[0] + margin && y > min[1] - margin && y < max[1] + margin && z > min[2] - margin && z < max[2] + margin) {
        // Not "≥ reach": a NaN distance keeps the particle flagged.
        if (!(sdf(x, y, z) >= reach)) near[i] = 1;
      }
    }
  }
}

/**
 * Per body, over the flagged particles (a particle meets the bodies in the same order as it would
 * particle by particle: each only moves itself). The body's pose and bounds are hoisted, and the
 * bounds test rejects most particles before the shape's sdf is evaluated.
 */
export function signedDistanceGuard(ctx: StepContext): void {
  const L = ctx.liquid, n = L.count, pos = L.pos, vel = L.vel, near = L.nearObject;
  const bodies = ctx.objects.bodies;
  if (bodies.length === 0) return;
  const target = GUARD * ctx.r;
  const eps = 0.05 * ctx.r;
  for (const b of bodies) {
    const R = b.pose.R, t = b.pose.t, sdf = b.compiled.sdf;
    const R0 = R[0], R1 = R[1], R2 = R[2], R3 = R[3], R4 = R[4], R5 = R[5], R6 = R[6], R7 = R[7], R8 = R[8];
    const tx = t[0], ty = t[1], tz = t[2];
    const x0 = b.min[0] - target, y0 = b.min[1] - target, z0 = b.min[2] - target;
    const x1 = b.max[0] + target, y1 = b.max[1] + target, z1 = b.max[2] + target;
    for (let i = 0; i < n; i++) {
      if (!near[i]) continue;
      const dx = pos[3 * i] - tx, dy = pos[3 * i + 1] - ty, dz = pos[3 * i + 2] - tz;
      const x = R0 * dx + R3 * dy + R6 * dz;
      if (x < x0 || x > x1) continue;
      const y = R1 * dx + R4 * dy + R7 * dz;
      if (y < y0 || y > y1) continue;
      const z = R2 * dx + R5 * dy + R8 * dz;
      if (z < z0 || z > z1) continue;
      const s = sdf(x, y, z);
      if (!(s < target)) continue;
      let gx = sdf(x + eps, y, z) - sdf(x - eps, y, z);
      let gy = sdf(x, y + eps, z) - sdf(x, y - eps, z);
      let gz = sdf(x, y, z + eps) - sdf(x, y, z - eps);
      const gl = Math.hypot(gx, gy, gz);
      if (!(gl > 0)) continue;
      gx /= gl; gy /= gl; gz /= gl;
      const push = target - s;
      local[0] = x + push * gx; local[1] = y + push * gy; local[2] = z + push * gz;
      world[0] = R0 * local[0] + R1 * local[1] + R2 * local[2] + tx;
      world[1] = R3 * local[0] + R4 * local[1] + R5 * local[2] + ty;
      world[2] = R6 * local[0] + R7 * local[1] + R8 * local[2] + tz;
      pos[3 * i] = world[0]; pos[3 * i + 1] = world[1]; pos[3 * i + 2] = world[2];
      // World normal, and the body's velocity at the point: no closing speed left.
      const nx = R0 * gx + R1 * gy + R2 * gz;
      const ny = R3 * gx + R4 * gy + R5 * gz;
      const nz = R6 * gx + R7 * gy + R8 * gz;
      if (b.motion.isStatic) bodyVel.fill(0);
      else b.motion.velocityAt(ctx.time, world, bodyVel);
      const vn = (vel[3 * i] - bodyVel[0]) * nx + (vel[3 * i + 1] - bodyVel[1]) * ny + (vel[3 * i + 2] - bodyVel[2]) * nz;
      if (vn < 0) {
        vel[3 * i] -= vn * nx; vel[3 * i + 1] -= vn * ny; vel[3 * i + 2] -= vn * nz;
      }
      ctx.count('guardPushes');
    }
  }
}

export function faceBoundary(ctx: StepContext, face: (typeof FACES)[number]): Boundary {
  const d = ctx.scene.domain!;
  return d.faces[face] ?? d.boundary;
}

export function domainWalls(ctx: StepContext, dt: number): void {
  const d = ctx.scene.domain;
  if (!d || !ctx.scene.particle.walls) return;
  const L = ctx.liquid, n = L.count, pos = L.pos, vel = L.vel, r = ctx.r;
  const keep = Math.pow(1 - FACE_FRICTION, 30 * dt);
  for (let f = 0; f < 6; f++) {
    const face = FACES[f];
    const bnd = faceBoundary(ctx, face);
    if (bnd === 'open') continue;
    const axis = f >> 1, upper = (f & 1) === 1;
    const limit = upper ? d.max[axis] - r : d.min[axis] + r;
    const wall = typeof bnd === 'object' ? bnd.velocity : null;
    const sticky = bnd === 'noslip' || wall !== null;
    for (let i = 0; i < n; i++) {
      const o = 3 * i + axis;
      if (upper ? pos[o] <= limit : pos[o] >= limit) continue;
      pos[o] = limit;
      if (upper ? vel[o] > 0 : vel[o] < 0) vel[o] = 0;
      if (sticky) {
        for (let k = 0; k < 3; k++) {
          if (k === axis) continue;
          const w = wall ? wall[k] : 0;
          vel[3 * i + k] = w + (vel[3 * i + k] - w) * keep;
        }
      }
    }
  }
}
