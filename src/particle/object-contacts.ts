/**
 * Liquid ← object contacts (Steele §3.4, inter-penetration prevention against objects): a liquid
 * particle closer than r + r_o to an object particle is pushed out to that distance along the line
 * from it (the object particle's normal when they coincide), and loses its velocity towards it
 * relative to the object. Over the object contact lists (object-lists.ts), every move and after
 * every density pass. Each liquid particle moves only itself (and reorders only its own list), so
 * the job's threads take ranges of particles and the result is that of one thread, bit for bit.
 */
import type { StepContext } from './context.ts';
import { defineJob, type JobArrays } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { CLEAR_MARGIN, clearOf, clearOfAll, near2Of, objectListsOf, setClearance, type NearFarScratch } from './object-lists.ts';
import { OBJECT_LIST_COST, teamWork } from './work.ts';
import { allocFloat64 } from '../parallel/memory.ts';

/** Liquid particles out of object particles (see the header). */
export function objectContacts(ctx: StepContext): void {
  const L = ctx.liquid, O = ctx.objects;
  if (O.count === 0) return;
  const job = ctx.runner.bind(objectContactsJob);
  setObjectContacts(ctx, job.a, job.s);
  runJob(job, L.count);
}

/** What objectContactRange reads, from the context (also the move's contacts job, liquid-contacts.ts). */
export function setObjectContacts(
  ctx: StepContext, a: JobArrays<typeof objectContactsJob>, s: { dc: number; near2: number; margin: number; longest: number },
): void {
  const L = ctx.liquid, O = ctx.objects, list = objectListsOf(ctx);
  a.pos = L.pos; a.vel = L.vel; a.ls = list.start; a.lj = list.j; a.clear = list.clear;
  a.opos = O.pos; a.ovel = O.vel; a.onormal = O.normal; a.index = list.index;
  a.odv = ctx.freeBodies?.odv ?? noVelocityChange(ctx.shared);
  s.dc = ctx.r + ctx.ro; s.near2 = near2Of(ctx); s.margin = CLEAR_MARGIN * ctx.r; s.longest = list.longest;
}

/** sortNearFar's scratch of a thread, grown to the longest list. */
export function nearFarScratch(sc: NearFarScratch, longest: number): NearFarScratch {
  if (sc.tmp.length < longest) {
    sc.tmp = new Int32Array(Math.ceil(longest * 1.25));
    sc.tmpD = new Float64Array(sc.tmp.length);
  }
  return sc;
}

export const objectContactsJob = defineJob({
  name: 'object-contacts',
  arrays: { pos: 'f64', vel: 'f64', lj: 'index', clear: 'f32', odv: 'f64' },
  inputs: { opos: 'f64', ovel: 'f64', onormal: 'f64', index: 'i32', ls: 'i32' },
  scalars: ['dc', 'near2', 'margin', 'longest'],
  split: 'items',
  // A particle's work is its contact list's entries (most lists are empty: the liquid near a body
  // sits in a few runs of cells, and cut by count one thread took nearly all of it).
  cost: OBJECT_LIST_COST,
  // Each particle's result is its own: two threads' cut follows their measured times (job.ts balance).
  balance: true,
  minItems: () => teamWork.minParticles,
  scratch: (): NearFarScratch => ({ tmp: new Int32Array(0), tmpD: new Float64Array(0), dc: 0, near2: 0, margin: 0 }),
  kernel(x) {
    const a = x.a, s = x.s;
    objectContactRange(a.pos, a.vel, a.opos, a.ovel, a.onormal, a.index, a.ls, a.lj, s.dc, x.from, x.to, a.clear, nearFarScratch(x.scratch, s.longest), s.near2, s.margin, a.odv);
  },
});

/** Empty: no free body wants the contacts' velocity changes (one per kind of memory). */
const NO_CHANGE = [new Float64Array(0), new Float64Array(0)];
function noVelocityChange(shared: boolean): Float64Array {
  if (shared && !(NO_CHANGE[1].buffer instanceof SharedArrayBuffer)) NO_CHANGE[1] = allocFloat64(0, true);
  return NO_CHANGE[shared ? 1 : 0];
}

/**
 * Pushes liquid particle i, closer than dc to object particle o (position opos[3o..]), out to dc (sc.dc). The velocity removed is added to odv[3i..] when odv is not empty
 * (a free body takes it back, free-bodies.ts). Its numbers come as arrays and integers, not as
 * doubles: a call V8 does not inline boxes each double argument (an allocation a push).
 */
function pushOut(
  pos: Float64Array, vel: Float64Array, opos: Float64Array, ovel: Float64Array, onormal: Float64Array, i: number, o: number,
  sc: NearFarScratch, odv: Float64Array,
): void {
  const dx = pos[3 * i] - opos[3 * o], dy = pos[3 * i + 1] - opos[3 * o + 1], dz = pos[3 * i + 2] - opos[3 * o + 2];
  const d2 = dx * dx + dy * dy + dz * dz, dc = sc.dc;
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
  // (No velocities where no body moves: ObjectParticles.vel.)
  const still = ovel.length === 0, bx = still ? 0 : ovel[3 * o], by = still ? 0 : ovel[3 * o + 1], bz = still ? 0 : ovel[3 * o + 2];
  const vn = (vel[3 * i] - bx) * ux + (vel[3 * i + 1] - by) * uy + (vel[3 * i + 2] - bz) * uz;
  if (vn < 0) {
    vel[3 * i] -= vn * ux; vel[3 * i + 1] -= vn * uy; vel[3 * i + 2] -= vn * uz;
    if (odv.length !== 0) { odv[3 * i] -= vn * ux; odv[3 * i + 1] -= vn * uy; odv[3 * i + 2] -= vn * uz; }
  }
}

/**
 * objectContacts over liquid particles [i0, i1): writes only their own positions and velocities
 * and their own lists' order and clearance. The entries are ranks: `opos`, `ovel` and `onormal`
 * (the objects' own arrays) are read at index[rank].
 */
export function objectContactRange(
  pos: Float64Array, vel: Float64Array, opos: Float64Array, ovel: Float64Array, onormal: Float64Array, index: Int32Array,
  ls: Int32Array, lj: Uint16Array | Int32Array, dc: number, i0: number, i1: number,
  clear: Float32Array, scratch: NearFarScratch, near2: number, margin: number, odv: Float64Array,
): void {
  const dc2 = dc * dc, far = lj instanceof Uint16Array ? 0x8000 : 0x40000000;
  scratch.dc = dc; scratch.near2 = near2; scratch.margin = margin;
  for (let i = i0; i < i1; i++) {
    const q0 = ls[i], q1 = ls[i + 1];
    if (q0 === q1) continue;
    let xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    // No entry within dc (clearance A): the near run would push nothing and the particle stays in the ball.
    if (clearOfAll(clear, i, xi, yi, zi, dc)) continue;
    // The near run, while the particle is inside the far entries' clearance ball.
    let a = q0, last = -1;
    if (clearOf(clear, i, xi, yi, zi, dc)) {
      let left = false;
      for (; a < q1; a++) {
        const s = lj[a];
        if (s >= far) break;
        const o = index[s], dx = xi - opos[3 * o], dy = yi - opos[3 * o + 1], dz = zi - opos[3 * o + 2];
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 >= dc2) continue;
        pushOut(pos, vel, opos, ovel, onormal, i, o, scratch, odv);
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
      const o = index[s], dx = xi - opos[3 * o], dy = yi - opos[3 * o + 1], dz = zi - opos[3 * o + 2];
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 >= dc2) continue;
      pushOut(pos, vel, opos, ovel, onormal, i, o, scratch, odv);
      xi = pos[3 * i]; yi = pos[3 * i + 1]; zi = pos[3 * i + 2];
    }
    sortNearFar(clear, scratch, lj, far, q0, q1, opos, index, i, pos);
  }
}

/**
 * Sorts i's entries [q0, q1) into near and far runs (each in rank order) from where i is (pos), and
 * records the clearance (near2, margin: the scratch's). The object positions opos at index[rank].
 */
function sortNearFar(
  clear: Float32Array, scratch: NearFarScratch, lj: Uint16Array | Int32Array, far: number, q0: number, q1: number, opos: Float64Array,
  index: Int32Array, i: number, pos: Float64Array,
): void {
  const tmp = scratch.tmp, d2s = scratch.tmpD, near2 = scratch.near2, margin = scratch.margin;
  const x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
  let split = q0;
  while (split < q1 && lj[split] < far) split++;
  let a = q0, b = split, k = 0;
  while (a < split || b < q1) tmp[k++] = b >= q1 || (a < split && lj[a] < lj[b] - far) ? lj[a++] : lj[b++] - far;
  let w = q0, min2 = Infinity, all2 = Infinity;
  for (let e = 0; e < k; e++) {
    const s = tmp[e], o = 3 * index[s];
    const dx = x - opos[o], dy = y - opos[o + 1], dz = z - opos[o + 2];
    const d2 = (d2s[e] = dx * dx + dy * dy + dz * dz);
    if (d2 < all2) all2 = d2;
    if (d2 < near2) lj[w++] = s;
  }
  for (let e = 0; e < k; e++) {
    if (d2s[e] < near2) continue;
    lj[w++] = tmp[e] + far;
    if (d2s[e] < min2) min2 = d2s[e];
  }
  setClearance(clear, i, x, y, z, min2, margin, all2);
}

