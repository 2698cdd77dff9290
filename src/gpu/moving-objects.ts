/// <reference types="@webgpu/types" />
/**
 * Moving solid bodies on the GPU (keyframes, spin, linear: scene/motion.ts), as the CPU engine
 * moves them (src/particle/objects.ts moveTo, Steele et al. 2004 "Object-Liquid Interaction"):
 * at the start of every sub-timestep [t0, t1) every body is placed at its pose at t1 and its
 * particles take the velocity of the move from t0 to t1. Here the host does that with the
 * particle engine's own ObjectParticles, sorts the object particles into their buckets again
 * (objects.ts sortPoints, the tables' sizes unchanged) and uploads them into both of the sort's
 * buffer sets, with their velocities in `wall[cap + j]` (objects.ts objectVel: the contacts,
 * friction, the objects' share of the exchange and the pressure's advection read them), and the
 * guarded bodies' poses (guard-wgsl.ts); in the velocities' w, a free body's index + 1
 * (free-wgsl.ts: free bodies are placed the same way, at the pose the host integrated). γ of each
 * object particle stays that of the first pose (the bodies are rigid; two bodies moving apart or
 * together keep the γ of where they started).
 */
import type { StepContext } from '../particle/context.ts';
import { sortPoints, type GpuObjects } from './objects.ts';

export class MovingObjects {
  private readonly all: Int32Array;
  private readonly pick: Int32Array;
  private readonly pos4: Float32Array<ArrayBuffer>;
  private readonly normal4: Float32Array<ArrayBuffer>;
  private readonly vel4: Float32Array<ArrayBuffer>;
  private readonly starts: Uint32Array<ArrayBuffer>;

  /** `plan`: the objects as gpuObjects laid them out at the first pose (counts, tables, γ, functions). */
  constructor(private readonly ctx: StepContext, private readonly plan: GpuObjects) {
    const m = plan.count, w = plan.wide.count;
    this.all = Int32Array.from({ length: m }, (_, s) => s);
    this.pick = this.all.filter((s) => plan.fn[s] >= 0);
    this.pos4 = new Float32Array(4 * (m + w));
    this.normal4 = new Float32Array(4 * (m + w));
    this.vel4 = new Float32Array(4 * (m + w));
    this.starts = new Uint32Array(plan.starts.length + plan.wide.starts.length);
  }

  /**
   * Places the bodies for the sub-timestep [t0, t1) (ObjectParticles.moveTo) and returns the
   * object slots to upload: positions (xyz γ) and normals (xyz friction) of both copies, their
   * starts, and the velocities.
   */
  place(t0: number, t1: number): { pos4: Float32Array<ArrayBuffer>; normal4: Float32Array<ArrayBuffer>; vel4: Float32Array<ArrayBuffer>; starts: Uint32Array<ArrayBuffer> } {
    const O = this.ctx.objects, P = this.plan, m = P.count;
    O.moveTo(t0, t1);
    const main = sortPoints(O.pos, this.all, P.cell);
    const { pos4, normal4, vel4 } = this;
    for (let j = 0; j < m; j++) {
      const s = main.order[j];
      for (let k = 0; k < 3; k++) {
        pos4[4 * j + k] = O.pos[3 * s + k];
        normal4[4 * j + k] = O.normal[3 * s + k];
        vel4[4 * j + k] = O.vel[3 * s + k];
      }
      pos4[4 * j + 3] = P.gamma[s];
      normal4[4 * j + 3] = O.bodies[O.body[s]].friction;
      vel4[4 * j + 3] = this.freeOf(s);
    }
    const wide = sortPoints(O.pos, this.pick, P.wide.cell);
    for (let j = 0; j < this.pick.length; j++) {
      const s = wide.order[j], q = 4 * (m + j);
      for (let k = 0; k < 3; k++) pos4[q + k] = O.pos[3 * s + k];
      pos4[q + 3] = P.fn[s];
      vel4[q + 3] = this.freeOf(s);
    }
    this.starts.set(main.starts);
    this.starts.set(wide.starts, main.starts.length);
    return { pos4, normal4, vel4, starts: this.starts };
  }

  /** The free body of object particle s as its index + 1, 0 for a scripted one (free-wgsl.ts objectFree). */
  private freeOf(s: number): number {
    const F = this.ctx.freeBodies;
    return F ? F.freeOf[this.ctx.objects.body[s]] + 1 : 0;
  }
}
