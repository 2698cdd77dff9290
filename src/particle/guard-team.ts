/**
 * The signed-distance guard (boundaries.ts signedDistanceGuard) inside the runs that come before
 * it: the object contacts of every move (the contacts job, liquid-contacts.ts) and of every density
 * pass (the object-contacts job, keepOut in step.ts). The guard moves each particle alone, after its
 * object contacts, which also move each particle alone; so each thread guards the particles whose
 * object contacts it took, right after them, and every particle meets the same pushes in the same
 * order as on the calling thread (contacts, then the bodies in turn): the same bits.
 *
 * A spawned thread holds no scene and so no closures: the bodies are passed as numbers (GUARD_WORDS
 * a body: the pose, the bounds and CompiledShape.code, whose codedSdf is the body's sdf bit for bit).
 * Only where every body is static and has a code (spheres, boxes, capsules, planes) and no free body
 * takes the guard's change back; elsewhere the guard runs on the calling thread after the run, as before.
 */
import type { StepContext } from './context.ts';
import { GUARD } from './boundaries.ts';
import { CODE_SPHERE, codedSdf, SHAPE_CODE_WORDS, sphereSdf } from '../scene/shapes.ts';
import { allocFloat64, allocInt32, isShared } from '../parallel/memory.ts';
import { MAX_THREADS } from '../parallel/team.ts';
import { teamWork } from './work.ts';

/** Words a body takes in the guard's array: R (9), t (3), min (3), max (3), its shape's code. */
export const GUARD_WORDS = 18 + SHAPE_CODE_WORDS;

/** What the contacts' jobs read for the guard (their inputs gb, gl, ge; their array gpush; their scalars). */
export interface GuardArgs {
  a: { gb: Float64Array; gl: Int32Array; ge: Int32Array; gpush: Int32Array };
  s: { gn: number; gtarget: number; geps: number };
}

/** The bodies as numbers and the pushes each thread counted, per simulation (a room of its own). */
class GuardBodies {
  gb = new Float64Array(0);
  gpush = new Int32Array(MAX_THREADS);
  /** The bodies' poses when gb was filled (static bodies: filled once). */
  filled = -1;
}
const states = new WeakMap<StepContext, GuardBodies>();
const EMPTY_F64 = [new Float64Array(0), allocFloat64(0, typeof SharedArrayBuffer !== 'undefined')];
const EMPTY_I32 = [new Int32Array(1), allocInt32(1, typeof SharedArrayBuffer !== 'undefined')];

/**
 * Sets the guard into a contacts job's arguments: gn > 0 (the bodies) where the run may take it
 * (see the header), else gn = 0 and the calling thread guards after the run. Returns gn > 0.
 */
export function setGuard(ctx: StepContext, x: GuardArgs): boolean {
  const bodies = ctx.objects.bodies, nb = bodies.length, sh = ctx.shared ? 1 : 0;
  x.s.gn = 0;
  x.a.gb = EMPTY_F64[sh]; x.a.gl = EMPTY_I32[sh]; x.a.ge = EMPTY_I32[sh];
  const st = stateOf(ctx);
  x.a.gpush = st.gpush;
  if (!teamWork.guardInRuns || nb === 0 || ctx.freeBodies || ctx.guardEnds.length < nb + 1) return false;
  for (let b = 0; b < nb; b++) if (!bodies[b].motion.isStatic || bodies[b].compiled.code === undefined) return false;
  if (st.gb.length < nb * GUARD_WORDS || (ctx.shared && !isShared(st.gb))) {
    st.gb = allocFloat64(nb * GUARD_WORDS, ctx.shared);
    st.filled = -1;
  }
  if (st.filled !== nb) {
    const gb = st.gb;
    for (let b = 0; b < nb; b++) {
      const body = bodies[b], o = b * GUARD_WORDS;
      gb.set(body.pose.R, o);
      gb.set(body.pose.t, o + 9);
      gb.set(body.min, o + 12);
      gb.set(body.max, o + 15);
      gb.set(body.compiled.code!, o + 18);
    }
    st.filled = nb;
  }
  x.a.gb = st.gb;
  x.a.gl = ctx.guardList;
  x.a.ge = ctx.guardEnds;
  x.a.gpush.fill(0);
  x.s.gn = nb;
  x.s.gtarget = GUARD * ctx.r;
  x.s.geps = 0.05 * ctx.r;
  return true;
}

function stateOf(ctx: StepContext): GuardBodies {
  let st = states.get(ctx);
  if (st !== undefined) return st;
  st = new GuardBodies();
  if (ctx.shared) st.gpush = allocInt32(MAX_THREADS, true);
  states.set(ctx, st);
  return st;
}

/** After a run that took the guard: its pushes into the counters (boundaries.ts counts them one by one). */
export function countGuardPushes(ctx: StepContext, x: GuardArgs): void {
  let pushes = 0;
  for (let t = 0; t < MAX_THREADS; t++) pushes += x.a.gpush[t];
  if (pushes > 0) ctx.count('guardPushes', pushes);
}

/**
 * signedDistanceGuard over the listed particles in [from, to) of n, for static bodies coded in gb:
 * the same arithmetic in the same order per particle. Returns the pushes.
 */
export function guardRange(
  pos: Float64Array, vel: Float64Array, gb: Float64Array, nb: number, list: Int32Array, ends: Int32Array,
  n: number, from: number, to: number, target: number, eps: number,
): number {
  let pushes = 0;
  for (let bi = 0; bi < nb; bi++) {
    const o = bi * GUARD_WORDS, c = o + 18;
    const R0 = gb[o], R1 = gb[o + 1], R2 = gb[o + 2], R3 = gb[o + 3], R4 = gb[o + 4], R5 = gb[o + 5], R6 = gb[o + 6], R7 = gb[o + 7], R8 = gb[o + 8];
    const tx = gb[o + 9], ty = gb[o + 10], tz = gb[o + 11];
    const x0 = gb[o + 12] - target, y0 = gb[o + 13] - target, z0 = gb[o + 14] - target;
    const x1 = gb[o + 15] + target, y1 = gb[o + 16] + target, z1 = gb[o + 17] + target;
    // The first distance, which every particle in the bounds takes, by a call V8 inlines for spheres and
    // planes (codedSdf's, not inlined here, boxes its double arguments: an allocation a call).
    const kind = gb[c], p1 = gb[c + 1], p2 = gb[c + 2], p3 = gb[c + 3], p4 = gb[c + 4];
    for (let q = ends[bi], q1 = ends[bi + 1]; q < q1; q++) {
      const s0 = list[2 * q];
      // (Ascending: a run starting past a removed tail, or past the range, ends the body's list.)
      if (s0 >= n || s0 >= to) break;
      const s1 = list[2 * q + 1], i0 = s0 > from ? s0 : from, e = s1 < n ? (s1 < to ? s1 : to) : n < to ? n : to;
      for (let i = i0; i < e; i++) {
        const dx = pos[3 * i] - tx, dy = pos[3 * i + 1] - ty, dz = pos[3 * i + 2] - tz;
        const x = R0 * dx + R3 * dy + R6 * dz;
        if (x < x0 || x > x1) continue;
        const y = R1 * dx + R4 * dy + R7 * dz;
        if (y < y0 || y > y1) continue;
        const z = R2 * dx + R5 * dy + R8 * dz;
        if (z < z0 || z > z1) continue;
        const s = kind === CODE_SPHERE ? sphereSdf(x, y, z, p1, p2, p3, p4) : codedSdf(gb, c, x, y, z);
        if (!(s < target)) continue;
        let gx = codedSdf(gb, c, x + eps, y, z) - codedSdf(gb, c, x - eps, y, z);
        let gy = codedSdf(gb, c, x, y + eps, z) - codedSdf(gb, c, x, y - eps, z);
        let gz = codedSdf(gb, c, x, y, z + eps) - codedSdf(gb, c, x, y, z - eps);
        const gl = Math.hypot(gx, gy, gz);
        if (!(gl > 0)) continue;
        gx /= gl; gy /= gl; gz /= gl;
        const push = target - s;
        const lx = x + push * gx, ly = y + push * gy, lz = z + push * gz;
        const wx = R0 * lx + R1 * ly + R2 * lz + tx;
        const wy = R3 * lx + R4 * ly + R5 * lz + ty;
        const wz = R6 * lx + R7 * ly + R8 * lz + tz;
        pos[3 * i] = wx; pos[3 * i + 1] = wy; pos[3 * i + 2] = wz;
        // World normal; a static body's velocity is 0: no closing speed left.
        const nx = R0 * gx + R1 * gy + R2 * gz;
        const ny = R3 * gx + R4 * gy + R5 * gz;
        const nz = R6 * gx + R7 * gy + R8 * gz;
        const vn = (vel[3 * i] - 0) * nx + (vel[3 * i + 1] - 0) * ny + (vel[3 * i + 2] - 0) * nz;
        if (vn < 0) {
          vel[3 * i] -= vn * nx; vel[3 * i + 1] -= vn * ny; vel[3 * i + 2] -= vn * nz;
        }
        pushes++;
      }
    }
  }
  return pushes;
}
