/**
 * The contacts of a move (collisions.ts preventInterpenetration: liquid contacts, then liquid ←
 * object contacts) as one job of a thread team. The liquid contacts are a two-phase Gauss–Seidel
 * over spatial slabs, as viscosity's (viscosity-parallel.ts): once a sub-timestep, after the
 * adhesion stage has listed the contact pairs (within CONTACT_REACH radii), the liquid is cut into
 * T slabs at equal shares of contact pairs, every interior slab at least twice the contact reach
 * wide (slabs.ts), and each thread splits its slab's rows into the pairs inside the slab and those
 * across a boundary (job "split"). Each move, one job:
 *   phase 1: thread t separates the pairs with both ends in slab t, in index order as at T = 1;
 *   barrier;
 *   phase 2: thread t (t < T − 1) separates the pairs across boundary t | t+1;
 *   barrier;
 *   the object contacts of thread t's share of the particles (object-contacts-parallel.ts).
 * The slabs are fixed for the sub-timestep while the moves carry the particles: a pair's ends stay
 * in the slabs they were cut into, so the split holds whatever the particles do. Every separation
 * moves equal and opposite momentum, as on one thread; the order of the separations depends only
 * on the state and T, so runs repeat for a given T and differ from T = 1 in the order of the
 * Gauss–Seidel updates (the pairs across a boundary come after the slabs' own).
 * Run as a job of its own the liquid contacts did not pay (a move's cost 0.5 ms on the honey drop,
 * and the hand-off and barrier took what the split saved); sharing the object contacts' job they
 * cost one barrier more.
 */
import type { StepContext } from './context.ts';
import { CONTACT_REACH } from './context.ts';
import { allocFloat64, allocInt32, type SlotArray, type TeamSync } from '../parallel/legacy.ts';
import { MAX_SLABS, R_OFF, SlabCut } from './legacy-slabs.ts';
import { objectContactsKernel, prepareObjectContacts } from './object-contacts-parallel.ts';
import { contactRow } from './collisions.ts';
import { CONTACTS_KERNEL, CONTACTS_SPLIT_KERNEL, runSlotKernel, teamOf, teamWork } from './threads.ts';

/** Team slots of this stage (the object contacts' are object-contacts-parallel.ts's). */
const S_POS = 122, S_VEL = 123, S_MAT = 124, S_CSTART = 125, S_CJ = 126, S_OWNER = 127, S_PLIST = 128, S_OFF = 129,
  S_ROWS = 130, S_INJ = 131, S_XSLOTS = 132, S_META = 133, S_MASS = 134, S_SIDES = 135;
/** params (Float64 entries). */
const P_T = 85, P_DC = 86, P_INV = 87, P_KICK = 88, P_UNIFORM = 89, P_OBJECTS = 90;
/** meta (Int32): upEnd[0..T), downStart[0..T), error flag. */
const MAX_T = MAX_SLABS;
const M_UP = 0, M_DOWN = M_UP + MAX_T, M_ERR = M_DOWN + MAX_T, META_WORDS = M_ERR + 1;

/**
 * The stage's shared arrays, and the contact list version and stage-scratch use they were split
 * for. The split itself (rows, cross-slab particles, the pairs by slab) is carved from the
 * context's stage scratch (StepContext.stageScratch), which nothing else uses between viscosity
 * and density correction, when the moves run; at the list's and the liquid's capacities, so that
 * the views stay the same from one sub-timestep to the next.
 */
class Buffers {
  slabs = new SlabCut();
  meta = allocInt32(META_WORDS, true);
  mass = allocFloat64(0, true);
  version = -1;
  uses = -1;
  /** False when the split found a particle two threads would touch at once (see the split job): the calling thread then takes the moves. */
  ok = false;
}

/** Split job's marks: a particle has a cross-slab partner in the slab above / below its own. */
const UP = 1, DOWN = 2;

/**
 * Runs a move's liquid and object contacts on the context's team, splitting the contact list
 * into slabs first when it is new; false without a team worth using (the calling thread then runs
 * liquidContacts and objectContacts itself). dc: the liquid contact distance; kick: the most of an
 * overlap that becomes velocity; uniform: every liquid of one mass.
 */
export function parallelContacts(ctx: StepContext, dt: number, dc: number, kick: number, uniform: boolean): boolean {
  const team = teamOf(ctx), L = ctx.liquid, n = L.count, list = ctx.contacts;
  if (team === null || team.size < 2 || n < teamWork.minParticles) return false;
  if (!(L.pos.buffer instanceof SharedArrayBuffer) || !(list.j.buffer instanceof SharedArrayBuffer) || !(list.start.buffer instanceof SharedArrayBuffer)) return false;
  const objects = ctx.objects.count > 0;
  if (objects && prepareObjectContacts(ctx) === null) return false;
  const T = Math.min(team.size, MAX_T), nm = ctx.mass.length;
  const B = ctx.keep('contacts.parallel', () => new Buffers());
  const p = team.params;
  p[P_T] = T; p[P_DC] = dc; p[P_INV] = 1 / dt; p[P_KICK] = kick; p[P_UNIFORM] = uniform ? 1 : 0; p[P_OBJECTS] = objects ? 1 : 0;
  team.setSlot(S_POS, L.pos);
  team.setSlot(S_VEL, L.vel);
  team.setSlot(S_MAT, L.material);
  if (B.version !== list.version || B.uses !== ctx.stageScratchUses) {
    B.slabs.reserve(n);
    if (B.mass.length < nm) B.mass = allocFloat64(nm, true);
    B.mass.set(ctx.mass);
    const m = Math.max(n, L.capacity), cap = list.j.length, mem = ctx.stageScratch(4 * (5 * m + cap) + m + 64, true);
    const rows = mem.i32(4 * m), xslots = mem.i32(m), inJ = mem.i32(cap), sides = mem.u8(m);
    const slabs = B.slabs, ls = list.start, w = slabs.weight;
    for (let i = 0; i < n; i++) w[i] = ls[i + 1] - ls[i];
    // Interior slabs twice the contact reach wide (2.01: round-off of d < reach).
    slabs.cut(L.pos, n, T, 2.01 * CONTACT_REACH * ctx.r, ls);
    B.meta[M_ERR] = 0;
    team.setSlot(S_CSTART, ls);
    team.setSlot(S_CJ, list.j);
    team.setSlot(S_OWNER, slabs.owner);
    team.setSlot(S_PLIST, slabs.plist);
    team.setSlot(S_OFF, slabs.offsets);
    team.setSlot(S_ROWS, rows);
    team.setSlot(S_INJ, inJ);
    team.setSlot(S_XSLOTS, xslots);
    team.setSlot(S_META, B.meta);
    team.setSlot(S_MASS, B.mass);
    team.setSlot(S_SIDES, sides);
    runSlotKernel(team, CONTACTS_SPLIT_KERNEL);
    B.ok = B.meta[M_ERR] === 0;
    B.version = list.version;
    B.uses = ctx.stageScratchUses;
    if (!B.ok) ctx.count('contactsOnOneThread');
  }
  if (!B.ok) return false;
  runSlotKernel(team, CONTACTS_KERNEL);
  return true;
}

/**
 * Job "split": this thread's slab rows into the pairs inside the slab (forward) and across
 * (backward). The slabs are cut a move into the sub-timestep, from where the particles are then,
 * while the pairs were listed at its start, so the width rule alone does not prove that no particle
 * has partners in the slabs on both sides (it would be touched by two threads at once in phase 2):
 * every cross-slab pair marks both its ends with the side of the other, and a particle marked on
 * both sides, or a pair more than one slab apart, sends the moves of this sub-timestep back to
 * the calling thread.
 */
export function contactsSplitKernel(rank: number, team: TeamSync, slots: readonly SlotArray[], params: Float64Array): void {
  const T = params[P_T];
  if (rank >= T) {
    team.barrier();
    team.barrier();
    return;
  }
  const ls = slots[S_CSTART] as Int32Array, lj = slots[S_CJ] as Int32Array, owner = slots[S_OWNER] as Uint8Array;
  const plist = slots[S_PLIST] as Int32Array, off = slots[S_OFF] as Int32Array, rows = slots[S_ROWS] as Int32Array;
  const inJ = slots[S_INJ] as Int32Array, xslots = slots[S_XSLOTS] as Int32Array, meta = slots[S_META] as Int32Array;
  const sides = slots[S_SIDES] as Uint8Array;
  const t = rank, k0 = off[t], k1 = off[t + 1];
  for (let k = k0; k < k1; k++) sides[plist[k]] = 0;
  team.barrier();
  let wp = off[R_OFF + t], xp = off[R_OFF + t + 1], up = k0, down = k1, bad = 0;
  for (let k = k0; k < k1; k++) {
    const i = plist[k];
    rows[4 * k] = wp;
    const xEnd = xp;
    let other = -1;
    for (let q = ls[i], q1 = ls[i + 1]; q < q1; q++) {
      const j = lj[q], o = owner[j];
      if (o === t) inJ[wp++] = j;
      else {
        if (other < 0) other = o;
        else if (o !== other) bad = 1;
        inJ[--xp] = j;
        Atomics.or(sides, i, o > t ? UP : DOWN);
        Atomics.or(sides, j, o > t ? DOWN : UP);
      }
    }
    rows[4 * k + 1] = wp;
    rows[4 * k + 2] = xp;
    rows[4 * k + 3] = xEnd;
    if (other < 0) continue;
    if (other === t + 1) xslots[up++] = k;
    else if (other === t - 1) xslots[--down] = k;
    else bad = 1;
  }
  meta[M_UP + t] = up;
  meta[M_DOWN + t] = down;
  team.barrier();
  for (let k = k0; k < k1; k++) if (sides[plist[k]] === (UP | DOWN)) bad = 1;
  if (bad) meta[M_ERR] = 1;
}

/** The move's job: this slab's own pairs, the pairs across boundary t | t+1, then the object contacts. */
export function contactsKernel(rank: number, team: TeamSync, slots: readonly SlotArray[], params: Float64Array): void {
  const T = params[P_T];
  if (rank < T) {
    const pos = slots[S_POS] as Float64Array, vel = slots[S_VEL] as Float64Array, mat = slots[S_MAT] as Uint16Array;
    const plist = slots[S_PLIST] as Int32Array, off = slots[S_OFF] as Int32Array, rows = slots[S_ROWS] as Int32Array;
    const inJ = slots[S_INJ] as Int32Array, xslots = slots[S_XSLOTS] as Int32Array, meta = slots[S_META] as Int32Array;
    const mass = slots[S_MASS] as Float64Array;
    const dc = params[P_DC], inv = params[P_INV], kick = params[P_KICK], uniform = params[P_UNIFORM] === 1;
    const t = rank, k0 = off[t], k1 = off[t + 1];
    for (let k = k0; k < k1; k++) {
      const a = rows[4 * k], b = rows[4 * k + 1];
      if (a !== b) contactRow(pos, vel, mat, mass, plist[k], inJ, a, b, dc, inv, kick, uniform);
    }
    team.barrier();
    if (t < T - 1) {
      for (let u = k0, ue = meta[M_UP + t]; u < ue; u++) {
        const k = xslots[u];
        contactRow(pos, vel, mat, mass, plist[k], inJ, rows[4 * k + 2], rows[4 * k + 3], dc, inv, kick, uniform);
      }
      for (let u = off[t + 2] - 1, ue = meta[M_DOWN + t + 1]; u >= ue; u--) {
        const k = xslots[u];
        contactRow(pos, vel, mat, mass, plist[k], inJ, rows[4 * k + 2], rows[4 * k + 3], dc, inv, kick, uniform);
      }
    }
  } else {
    team.barrier();
  }
  if (params[P_OBJECTS] === 0) return;
  team.barrier();
  objectContactsKernel(rank, team, slots, params);
}
