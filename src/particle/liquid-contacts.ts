/**
 * Liquid contacts (Steele §3.4, inter-penetration prevention between liquid particles): pairs of
 * ctx.contacts (listed by adhesion.ts within CONTACT_REACH radii) closer than LIQUID_CONTACT · 2r
 * are separated to that distance, split by inverse mass. The separation also becomes velocity (as
 * in position-based dynamics, up to PBD_KICK · r): a particle resting on others is pushed back by
 * g dt² each move and so gets back the g dt gravity gave it. The pushes are equal and opposite in
 * momentum, so momentum is conserved.
 *
 * Each move runs one job (contactsJob): the liquid contacts as a two-phase Gauss–Seidel over slabs
 * (slabs.ts), then the object contacts (object-contacts.ts) of each thread's share of the
 * particles. The slabs are cut once a sub-timestep, at the first move, at equal shares of contact
 * pairs and at least twice the contact reach wide, and each thread partitions its slab's rows
 * (contactSlabsJob); the pairs' ends stay in the slabs they were cut into while the moves carry
 * them. The cut is made after the pairs were listed, so the width rule alone does not prove that no
 * particle has partners in the slabs on both sides (two threads would touch it at once in phase
 * 2): every cross-slab pair marks both its ends with the side of the other, and a particle marked
 * on both sides, or a pair more than one slab apart, sends the moves of the sub-timestep to one
 * thread (counted as contactsOnOneThread). On one thread the sweep is in list order.
 */
import type { StepContext } from './context.ts';
import { CONTACT_REACH } from './context.ts';
import { defineJob, itemCut } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { allocInt32 } from '../parallel/memory.ts';
import { MAX_SLABS, ROWS_DOWN, ROWS_ERR, ROWS_META, ROWS_UP, SlabCut } from './slabs.ts';
import { nearFarScratch, objectContactRange, objectContactsJob, setObjectContacts } from './object-contacts.ts';
import type { NearFarScratch } from './object-lists.ts';
import { teamWork } from './work.ts';
import { checkMove, moveJob, moveRange, setMove } from './move.ts';
import { countGuardPushes, guardRange, setGuard } from './guard-team.ts';

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

/** The slab cut of the sub-timestep's contact list, and the list version and stage-scratch use it was made for. */
export class ContactSlabs {
  readonly slabs = new SlabCut();
  meta: Int32Array;
  version = -1;
  uses = -1;
  constructor(shared: boolean) {
    this.meta = allocInt32(ROWS_META, shared);
  }
}

/**
 * Whether the next move can run in the contacts job's own run (liquidAndObjectContacts' `move`):
 * the job runs on the team and its slab cut is the sub-timestep's (a cut is made at the positions
 * after the move, so a move that a new cut follows runs in a job of its own).
 */
export function contactsTakeMove(ctx: StepContext): boolean {
  if (!teamWork.movesWithContacts) return false;
  const st = ctx.contactSlabs;
  if (st === null || st === undefined || st.version !== ctx.contacts.version || st.uses !== ctx.stageScratchUses) return false;
  return ctx.runner.bind(contactsJob).threads(ctx.liquid.count) > 1;
}

/** What the slab cut holds between cuts (SlabCut.carve): no view of the stage buffer. */
const NO_CUT = new Float64Array(0);

/**
 * A move's liquid and object contacts (see the header). `move` (a move mode of move.ts, where
 * contactsTakeMove): the move of length dt runs first in the same run, each thread over its share
 * of the particles (the move job's cut), then a barrier, then the contacts: one run a move where
 * there were two. The move changes each particle alone, so the bits are those of the two jobs.
 * Returns whether the run took the signed-distance guard too (guard-team.ts).
 */
export function liquidAndObjectContacts(ctx: StepContext, dt: number, move = -1): boolean {
  const L = ctx.liquid, n = L.count, list = ctx.contacts, st = (ctx.contactSlabs ??= new ContactSlabs(ctx.shared));
  const job = ctx.runner.bind(contactsJob), a = job.a;
  if (st.version !== list.version || st.uses !== ctx.stageScratchUses) {
    const split = ctx.runner.bind(contactSlabsJob);
    split.inline = false;
    // The split lives in the stage scratch, which nothing else takes between viscosity and density
    // correction; at the list's and the liquid's capacities, so that its views stay the same from
    // one sub-timestep to the next. With a team the cut's weights and projections too (SlabCut.carve):
    // they live only while the cut is made.
    const m = Math.max(n, L.capacity), cutBytes = ctx.shared ? 16 * m + 16 : 0;
    const mem = ctx.stageScratch(4 * (4 * m + MAX_SLABS + 1) + 2 * m + 64 + cutBytes, ctx.shared);
    const ends = mem.i32(2 * m), xslots = mem.i32(m), plist = mem.i32(m), offsets = mem.i32(MAX_SLABS + 1), owner = mem.u8(m), sides = mem.u8(m);
    if (cutBytes > 0) st.slabs.carve(mem.f64(m), mem.f64(m));
    const sa = split.a;
    sa.ls = list.start; sa.lj = list.j; sa.ends = ends; sa.xslots = xslots; sa.meta = st.meta; sa.sides = sides;
    sa.owner = owner; sa.plist = plist; sa.offsets = offsets;
    for (let tries = 0; tries < 2; tries++) {
      const T = split.threads(n);
      if (T > 1) {
        st.slabs.reserve(n);
        const w = st.slabs.weight, ls = list.start;
        for (let i = 0; i < n; i++) w[i] = ls[i + 1] - ls[i];
      }
      // Interior slabs twice the contact reach wide (2.01: round-off of d < reach).
      st.slabs.cut(L.pos, n, T, 2.01 * CONTACT_REACH * ctx.r, { owner, plist, offsets });
      st.meta[ROWS_ERR] = 0;
      runJob(split, n);
      if (st.meta[ROWS_ERR] === 0) break;
      ctx.count('contactsOnOneThread');
      split.inline = true;
    }
    // (No view of the stage buffer kept past the cut: the buffer may be replaced.)
    if (cutBytes > 0) st.slabs.carve(NO_CUT, NO_CUT);
    job.inline = split.inline;
    st.version = list.version;
    st.uses = ctx.stageScratchUses;
    a.cs = list.start; a.cj = list.j; a.ends = ends; a.xslots = xslots; a.meta = st.meta; a.plist = plist; a.offsets = offsets;
  }
  a.mat = L.material; a.mass = ctx.mass;
  const s = job.s;
  s.move = move >= 0 ? 1 : 0;
  if (move >= 0) setMove(ctx, dt, move, a, s, true);
  s.contact = LIQUID_CONTACT * 2 * ctx.r; s.inv = 1 / dt; s.kick = PBD_KICK * ctx.r; s.uniform = liquidMassesEqual(ctx) ? 1 : 0;
  s.objects = ctx.objects.count > 0 ? 1 : 0;
  if (s.objects === 1) setObjectContacts(ctx, a, s);
  else {
    a.pos = L.pos;
    a.vel = L.vel;
  }
  // The signed-distance guard after the object contacts, in this run (guard-team.ts), where it can.
  const guarded = setGuard(ctx, job) && s.objects === 1;
  if (!guarded) s.gn = 0;
  // The calling thread does the cross-slab rows alone (two threads): the object contacts' cut
  // moves so that the two threads' whole runs take equal measured times (share.ts).
  s.oshare = job.cut.share;
  runJob(job, n);
  const team = ctx.runner.team;
  if (s.objects === 1 && job.teamed && job.size === 2 && team !== null) job.cut.update(team.worked[0], team.worked[1]);
  if (guarded) countGuardPushes(ctx, job);
  if (move >= 0) checkMove(ctx, job.teamed ? job.size : 1);
  return guarded;
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

/** Split marks: a particle has a cross-slab partner in the slab above / below its own. */
const UP = 1, DOWN = 2;

/**
 * Each thread's slab rows of the contact list: the cross-slab particles found and checked (see the
 * header), then, if no particle is touched from two sides, each row partitioned in place into its
 * pairs inside the slab (list order) and those across (reverse order), ends at ends[2i], ends[2i + 1].
 */
export const contactSlabsJob = defineJob({
  name: 'contact-slabs',
  arrays: { lj: 'index', ends: 'i32', xslots: 'i32', meta: 'i32', sides: 'u8' },
  inputs: { ls: 'i32', owner: 'u8', plist: 'i32', offsets: 'i32' },
  split: 'ranks',
  minItems: () => teamWork.minParticles,
  scratch: () => ({ cross: new Int32Array(64) }),
  kernel(x) {
    const { lj, ends, xslots, meta, sides, ls, owner, plist, offsets } = x.a;
    const t = x.rank, T = x.size, k0 = offsets[t], k1 = offsets[t + 1];
    if (T === 1) {
      // One slab: every pair is the slab's own.
      for (let k = k0; k < k1; k++) {
        const i = plist[k];
        ends[2 * i] = ends[2 * i + 1] = ls[i + 1];
      }
      meta[ROWS_UP] = k0;
      meta[ROWS_DOWN] = k1;
      return;
    }
    for (let k = k0; k < k1; k++) sides[plist[k]] = 0;
    x.barrier();
    let up = k0, down = k1, bad = 0;
    for (let k = k0; k < k1; k++) {
      const i = plist[k];
      let other = -1;
      for (let q = ls[i], q1 = ls[i + 1]; q < q1; q++) {
        const j = lj[q], o = owner[j];
        if (o === t) continue;
        if (other < 0) other = o;
        else if (o !== other) bad = 1;
        Atomics.or(sides, i, o > t ? UP : DOWN);
        Atomics.or(sides, j, o > t ? DOWN : UP);
      }
      if (other < 0) continue;
      if (other === t + 1) xslots[up++] = k;
      else if (other === t - 1) xslots[--down] = k;
      else bad = 1;
    }
    meta[ROWS_UP + t] = up;
    meta[ROWS_DOWN + t] = down;
    x.barrier();
    for (let k = k0; k < k1; k++) if (sides[plist[k]] === (UP | DOWN)) bad = 1;
    if (bad) meta[ROWS_ERR] = 1;
    x.barrier();
    if (meta[ROWS_ERR] !== 0) return;
    let cross = x.scratch.cross;
    for (let k = k0; k < k1; k++) {
      const i = plist[k], q0 = ls[i], q1 = ls[i + 1];
      if (cross.length < q1 - q0) cross = x.scratch.cross = new Int32Array(Math.ceil((q1 - q0) * 1.5));
      let wp = q0, nx = 0;
      for (let q = q0; q < q1; q++) {
        const j = lj[q];
        if (owner[j] === t) lj[wp++] = j;
        else cross[nx++] = j;
      }
      ends[2 * i] = wp;
      for (let c = nx - 1; c >= 0; c--) lj[wp++] = cross[c];
      ends[2 * i + 1] = wp;
    }
  },
});

/** A move's contacts: the slab's own pairs, the pairs across boundary t | t+1, then the object contacts of the thread's share. */
export const contactsJob = defineJob({
  name: 'contacts',
  arrays: { ...objectContactsJob.arrays, acc: 'f64', stops: 'i32' },
  inputs: {
    ...objectContactsJob.inputs, cs: 'i32', cj: 'index', ends: 'i32', xslots: 'i32', meta: 'i32', plist: 'i32', offsets: 'i32', mat: 'u16', mass: 'f64',
    surface: 'u8', obody: 'i32', keep: 'f64',
  },
  scalars: [...objectContactsJob.scalars, 'contact', 'inv', 'kick', 'uniform', 'objects', ...moveJob.scalars, 'move', 'oshare'],
  split: 'ranks',
  minItems: () => teamWork.minParticles,
  scratch: (): NearFarScratch => ({ tmp: new Int32Array(0), tmpD: new Float64Array(0), dc: 0, near2: 0, margin: 0 }),
  kernel(x) {
    const a = x.a, s = x.s, { pos, vel, mat, mass, cs, cj, ends, xslots, meta, plist, offsets } = a;
    const t = x.rank, T = x.size, k0 = offsets[t], k1 = offsets[t + 1];
    if (s.move === 1) {
      // The move first (liquidAndObjectContacts' `move`), over the move job's share of the particles.
      moveRange(a, s, itemCut(moveJob, a, x.n, t, T), itemCut(moveJob, a, x.n, t + 1, T), t);
      x.barrier();
    }
    const dc = s.contact, inv = s.inv, kick = s.kick, uniform = s.uniform === 1;
    for (let k = k0; k < k1; k++) {
      const i = plist[k], q0 = cs[i], q1 = ends[2 * i];
      if (q0 !== q1) contactRow(pos, vel, mat, mass, i, cj, q0, q1, dc, inv, kick, uniform);
    }
    x.barrier();
    if (t < T - 1) {
      for (let u = k0, ue = meta[ROWS_UP + t]; u < ue; u++) {
        const i = plist[xslots[u]];
        contactRow(pos, vel, mat, mass, i, cj, ends[2 * i], ends[2 * i + 1], dc, inv, kick, uniform);
      }
      for (let u = offsets[t + 2] - 1, ue = meta[ROWS_DOWN + t + 1]; u >= ue; u--) {
        const i = plist[xslots[u]];
        contactRow(pos, vel, mat, mass, i, cj, ends[2 * i], ends[2 * i + 1], dc, inv, kick, uniform);
      }
    }
    if (s.objects !== 1) return;
    x.barrier();
    // The object contacts' share cut by their entries, as the object-contacts job's (OBJECT_LIST_COST),
    // two threads' at the calling thread's share `oshare` (each particle's result is the same at any cut).
    const i0 = itemCut(objectContactsJob, a, x.n, t, T, s.oshare), i1 = itemCut(objectContactsJob, a, x.n, t + 1, T, s.oshare);
    objectContactRange(pos, vel, a.opos, a.ovel, a.onormal, a.index, a.ls, a.lj, s.dc, i0, i1, a.clear, nearFarScratch(x.scratch, s.longest), s.near2, s.margin, a.odv);
    // The guard over the same particles, each after its own object contacts (guard-team.ts).
    if (s.gn > 0) a.gpush[t] += guardRange(pos, vel, a.gb, s.gn, a.gl, a.ge, x.n, i0, i1, s.gtarget, s.geps);
  },
});

/**
 * The separations of particle i from j = js[a..b) in turn (i's own pushes are the only ones that
 * move i while its row runs: its position stays in registers).
 */
export function contactRow(
  pos: Float64Array, vel: Float64Array, mat: Uint16Array, mass: Float64Array, i: number, js: Int32Array | Uint16Array, a: number, b: number,
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

