/**
 * Liquid ← object contacts (collisions.ts objectContactRange) on a thread team: each liquid
 * particle only moves itself (and reorders its own list and clearance), so thread t takes the
 * particles [n t/T, n (t+1)/T) and no sums are needed; results are the same as on one thread, bit
 * for bit. Each thread sorts lists into near and far runs with its own scratch (workerScratch,
 * module state: one per thread). It runs every move and after every density pass, so it is worth a
 * job even though one call is short. The object particles' arrays are copied to shared memory by
 * rank (the lists' numbering, collisions.ts ObjectContactLists) when they change (every
 * sub-timestep: the ranks are made with the lists).
 * The threads used to test every entry of every list (the clearance and the scratch were the
 * calling thread's), which cost as much as the split saved: honey drop on 2 threads, a contact pass
 * after a density pass 0.59 ms against 0.56 on one thread.
 */
import type { StepContext } from './context.ts';
import { allocFloat64, allocInt32, shareOf, type SlotArray, type TeamSync, type ThreadTeam } from '../parallel/legacy.ts';
import { frictionKeep, frictionRange, frictionTouch } from './friction.ts';
import { accelerateError, accelerateRange, translateRange } from './integrate.ts';
import { CLEAR_MARGIN, near2Of, objectContactRange, objectListsOf, type NearFarScratch } from './collisions.ts';
import { FRICTION_KERNEL, MOVE_KERNEL, OBJECT_CONTACTS_KERNEL, runSlotKernel, teamOf, teamWork } from './threads.ts';

const S_POS = 96, S_VEL = 97, S_OPOS = 98, S_OVEL = 99, S_ONORMAL = 100, S_LS = 101, S_LJ = 102, S_CLEAR = 103,
  S_SURFACE = 119, S_OBODY = 120, S_KEEP = 121;
const P_N = 61, P_T = 62, P_DC = 63, P_NEAR2 = 64, P_MARGIN = 65, P_LONGEST = 66, P_TOUCH = 84;
/** A move's accelerate and translate (moveKernel): its step, gravity, maxSpeed², whether friction follows. */
const P_DT = 91, P_GX = 92, P_GY = 93, P_GZ = 94, P_MAX2 = 95, P_FRICTION = 96;
/** moveKernel's slots: the liquid's accelerations, and per thread the particle accelerate stopped at (−1: none). */
const S_ACC = 136, S_STOP = 137;
const MAX_T = 64;

/** sortNearFar's scratch of this thread (the calling thread, rank 0, uses the lists' own). */
const workerScratch: NearFarScratch = { tmp: new Int32Array(0), tmpD: new Float64Array(0) };

export function objectContactsKernel(rank: number, _team: TeamSync, slots: readonly SlotArray[], params: Float64Array): void {
  const [i0, i1] = shareOf(rank, params[P_T], params[P_N]);
  const longest = params[P_LONGEST];
  if (workerScratch.tmp.length < longest) {
    workerScratch.tmp = new Int32Array(Math.ceil(longest * 1.25));
    workerScratch.tmpD = new Float64Array(workerScratch.tmp.length);
  }
  objectContactRange(
    slots[S_POS] as Float64Array, slots[S_VEL] as Float64Array, slots[S_OPOS] as Float64Array, slots[S_OVEL] as Float64Array,
    slots[S_ONORMAL] as Float64Array, null, slots[S_LS] as Int32Array, slots[S_LJ] as Uint16Array | Int32Array, params[P_DC],
    i0, i1, slots[S_CLEAR] as Float32Array, workerScratch, params[P_NEAR2], params[P_MARGIN],
  );
}

/** Shared copies of the object particles' positions, velocities, normals and bodies by rank, refreshed when they change. */
class Shared {
  pos: Float64Array = allocFloat64(0, true);
  vel: Float64Array = allocFloat64(0, true);
  normal: Float64Array = allocFloat64(0, true);
  body: Int32Array = allocInt32(0, true);
  /** Per body: the velocity kept per move under friction (friction.ts). */
  keep: Float64Array = allocFloat64(0, true);
  /** The object arrays and the time they were copied at. */
  from: Float64Array | null = null;
  at = NaN;
}

/**
 * The context's team and the shared copies of the object particles by rank, or null where the
 * team is not worth using or the lists are not on shared memory yet.
 */
function teamAndObjects(ctx: StepContext): { team: ThreadTeam; sh: Shared } | null {
  const team = teamOf(ctx), L = ctx.liquid, O = ctx.objects, n = L.count, list = objectListsOf(ctx);
  if (team === null || team.size < 2 || n < teamWork.minParticles) return null;
  // The lists move onto shared memory from their next rebuild (collisions.ts listObjectContacts).
  list.shared = true;
  if (!(L.pos.buffer instanceof SharedArrayBuffer) || !(list.j.buffer instanceof SharedArrayBuffer) || !(list.start.buffer instanceof SharedArrayBuffer) || !(list.clear.buffer instanceof SharedArrayBuffer)) return null;
  const sh = ctx.keep('objectContacts.shared', () => new Shared());
  const k = 3 * O.count;
  if (sh.pos.length < k) {
    sh.pos = allocFloat64(k, true);
    sh.vel = allocFloat64(k, true);
    sh.normal = allocFloat64(k, true);
    sh.body = allocInt32(O.count, true);
    sh.from = null;
  }
  // Objects move, and ranks are made, only between sub-timesteps (ctx.time is the sub-timestep's start).
  if (sh.from !== list.pos || sh.at !== ctx.time) {
    const index = list.index, vel = O.vel, normal = O.normal, body = O.body, sv = sh.vel, sn = sh.normal, sb = sh.body;
    sh.pos.set(list.pos.subarray(0, k));
    for (let s = 0; s < O.count; s++) {
      const o = index[s];
      sv[3 * s] = vel[3 * o]; sv[3 * s + 1] = vel[3 * o + 1]; sv[3 * s + 2] = vel[3 * o + 2];
      sn[3 * s] = normal[3 * o]; sn[3 * s + 1] = normal[3 * o + 1]; sn[3 * s + 2] = normal[3 * o + 2];
      sb[s] = body[o];
    }
    sh.from = list.pos;
    sh.at = ctx.time;
  }
  return { team, sh };
}

export function parallelObjectContacts(ctx: StepContext): boolean {
  const team = prepareObjectContacts(ctx);
  if (team === null) return false;
  runSlotKernel(team, OBJECT_CONTACTS_KERNEL);
  return true;
}

/**
 * Hands the team what objectContactsKernel reads (contacts-parallel.ts runs it inside its own job);
 * the team, or null where parallelObjectContacts would return false.
 */
export function prepareObjectContacts(ctx: StepContext): ThreadTeam | null {
  const got = teamAndObjects(ctx);
  if (got === null) return null;
  const { team, sh } = got, L = ctx.liquid, n = L.count, list = objectListsOf(ctx);
  const p = team.params;
  p[P_N] = n; p[P_T] = team.size; p[P_DC] = ctx.r + ctx.ro;
  p[P_NEAR2] = near2Of(ctx); p[P_MARGIN] = CLEAR_MARGIN * ctx.r; p[P_LONGEST] = list.longest;
  team.setSlot(S_POS, L.pos);
  team.setSlot(S_VEL, L.vel);
  team.setSlot(S_OPOS, sh.pos);
  team.setSlot(S_OVEL, sh.vel);
  team.setSlot(S_ONORMAL, sh.normal);
  team.setSlot(S_LS, list.start);
  team.setSlot(S_LJ, list.j);
  team.setSlot(S_CLEAR, list.clear);
  return team;
}

export function frictionKernel(rank: number, _team: TeamSync, slots: readonly SlotArray[], params: Float64Array): void {
  const [i0, i1] = shareOf(rank, params[P_T], params[P_N]);
  frictionRange(
    slots[S_POS] as Float64Array, slots[S_VEL] as Float64Array, slots[S_SURFACE] as Uint8Array, slots[S_LS] as Int32Array,
    slots[S_LJ] as Uint16Array | Int32Array, slots[S_CLEAR] as Float32Array, slots[S_OPOS] as Float64Array, slots[S_OVEL] as Float64Array,
    slots[S_OBODY] as Int32Array, null, slots[S_KEEP] as Float64Array, params[P_TOUCH], i0, i1,
  );
}

/** applyFriction's loop on the context's team (bit for bit: each particle changes only itself); false without one. */
export function parallelFriction(ctx: StepContext, keep: readonly number[], touch: number): boolean {
  const got = teamAndObjects(ctx);
  if (got === null) return false;
  const { team, sh } = got, L = ctx.liquid, list = objectListsOf(ctx);
  const p = team.params;
  p[P_N] = L.count; p[P_T] = team.size;
  team.setSlot(S_POS, L.pos);
  team.setSlot(S_VEL, L.vel);
  frictionSlots(team, sh, L.surface, list, keep, touch);
  runSlotKernel(team, FRICTION_KERNEL);
  return true;
}

/** What frictionRange reads besides positions and velocities, handed to the team (friction and move kernels). */
function frictionSlots(team: ThreadTeam, sh: Shared, surface: Uint8Array, list: ReturnType<typeof objectListsOf>, keep: readonly number[], touch: number): void {
  if (sh.keep.length < keep.length) sh.keep = allocFloat64(keep.length, true);
  sh.keep.set(keep);
  team.params[P_TOUCH] = touch;
  team.setSlot(S_SURFACE, surface);
  team.setSlot(S_OPOS, sh.pos);
  team.setSlot(S_OVEL, sh.vel);
  team.setSlot(S_OBODY, sh.body);
  team.setSlot(S_KEEP, sh.keep);
  team.setSlot(S_LS, list.start);
  team.setSlot(S_LJ, list.j);
  team.setSlot(S_CLEAR, list.clear);
}

/** Per thread: the particle accelerate stopped at (moveKernel), −1 when none. */
let moveStops: Int32Array | null = null;

/**
 * A move's accelerate, translate and friction (integrate.ts, friction.ts) over thread t's run of
 * particles [n t/T, n (t+1)/T): every particle changes only itself in all three, so one job does
 * them without a barrier, bit for bit as the three serial loops. A thread whose particle exceeds
 * particle.maxSpeed stops there, as accelerate does, and says which (S_STOP).
 */
export function moveKernel(rank: number, _team: TeamSync, slots: readonly SlotArray[], params: Float64Array): void {
  const [i0, i1] = shareOf(rank, params[P_T], params[P_N]);
  const pos = slots[S_POS] as Float64Array, vel = slots[S_VEL] as Float64Array, dt = params[P_DT];
  const stop = accelerateRange(vel, slots[S_ACC] as Float64Array, params[P_GX], params[P_GY], params[P_GZ], dt, params[P_MAX2], i0, i1);
  (slots[S_STOP] as Int32Array)[rank] = stop;
  if (stop >= 0) return;
  translateRange(pos, vel, dt, i0, i1);
  if (params[P_FRICTION] !== 1) return;
  frictionRange(
    pos, vel, slots[S_SURFACE] as Uint8Array, slots[S_LS] as Int32Array,
    slots[S_LJ] as Uint16Array | Int32Array, slots[S_CLEAR] as Float32Array, slots[S_OPOS] as Float64Array, slots[S_OVEL] as Float64Array,
    slots[S_OBODY] as Int32Array, null, slots[S_KEEP] as Float64Array, params[P_TOUCH], i0, i1,
  );
}

/**
 * One move's accelerate, translate and friction as one job on the context's team (moveKernel);
 * false where the team is not worth using (the caller runs the three stages itself). Scenes with
 * solids need their object contact lists on shared memory (teamAndObjects), as friction does.
 */
export function parallelMove(ctx: StepContext, dt: number): boolean {
  const L = ctx.liquid, O = ctx.objects, n = L.count;
  let team: ThreadTeam | null;
  const friction = O.count > 0;
  if (friction) {
    const got = teamAndObjects(ctx);
    if (got === null) return false;
    team = got.team;
    frictionSlots(team, got.sh, L.surface, objectListsOf(ctx), frictionKeep(ctx, dt), frictionTouch(ctx));
  } else {
    team = teamOf(ctx);
    if (team === null || team.size < 2 || n < teamWork.minParticles || !(L.pos.buffer instanceof SharedArrayBuffer)) return false;
  }
  const p = team.params, [gx, gy, gz] = ctx.scene.gravity;
  p[P_N] = n; p[P_T] = team.size; p[P_DT] = dt;
  p[P_GX] = gx; p[P_GY] = gy; p[P_GZ] = gz; p[P_MAX2] = ctx.scene.particle.maxSpeed ** 2;
  p[P_FRICTION] = friction ? 1 : 0;
  const stops = (moveStops ??= allocInt32(MAX_T, true));
  team.setSlot(S_POS, L.pos);
  team.setSlot(S_VEL, L.vel);
  team.setSlot(S_ACC, L.acc);
  team.setSlot(S_STOP, stops);
  runSlotKernel(team, MOVE_KERNEL);
  // The first particle in order past maxSpeed, as accelerate on one thread would report it.
  for (let t = 0; t < team.size; t++) if (stops[t] >= 0) throw accelerateError(ctx, stops[t]);
  return true;
}
