/**
 * Free rigid bodies, coupled two ways with the liquid: solids with motion `{ "type": "free" }`
 * (Akinci, Ihmsen, Akinci, Solenthaler & Teschner 2012, "Versatile rigid-fluid coupling for
 * incompressible SPH", §4–5; as SPlisHSPlasH couples its dynamic rigid bodies: every force a
 * boundary particle exerts on the liquid is added, with the opposite sign, to the force and torque
 * of its body — BoundaryModel::addForce over BoundaryModel_Akinci2012's particles — and the body
 * is then integrated as a rigid body, DynamicRigidBody).
 *
 * A free body keeps its object particles (objects.ts) with their boundary volumes γ (solve-setup.ts:
 * Akinci eq. 4, rest positions, rigid), and they take part in everything objects take part in. What
 * the body does to the liquid in a sub-timestep comes back to it, equal and opposite (Akinci §5,
 * F_b = −F_{i←b}):
 *  - pressure: the boundary term p_a γ_s ∇W_as of the pressure stage (pressure.ts) and of every PBF
 *    density pass (pbf.ts), read per object particle from the solve's own rows (`boundaryReaction`),
 *    applied at the object particle;
 *  - the implicit viscosity's object terms (viscosity-weiler.ts), each object particle's to its own
 *    body (`addImpulse`);
 *  - adhesion toward the body (object-adhesion.ts), friction (friction.ts, in the moves), the bodies'
 *    exchange viscosity (boundary-viscosity.ts objectViscosity) and the signed-distance guard (boundaries.ts):
 *    each changes only the velocity (or acceleration) of liquid particles near bodies, so the change
 *    of the particles flagged near a free body is read around the stage (`capture` / `release`) and
 *    the body takes −m Δv at the particle;
 *  - object contacts (object-contacts.ts): the closing velocity each push removes is summed per
 *    liquid particle into `odv` by the contact kernel itself (the liquid contacts run in the same job).
 * A liquid particle near two free bodies gives its share to the nearer one (by signed distance).
 *
 * The body: mass ρ_s V (the solid material's density and the shape's volume), centre of mass and
 * inertia tensor from a lattice sampling of its volume, gravity, and the Newton–Euler equations
 * integrated once a sub-timestep by symplectic Euler (v and ω first, then x and the orientation
 * quaternion, as the grid engine's buoyancy.ts), with the motion's angular damping. Contacts with
 * the closed domain faces and with the other (non-free) solids: free-body-contacts.ts. The object
 * particles, their velocities (v + ω × r) and the signed distance of the body follow the body's pose
 * through its CompiledMotion (objects.ts moveTo), as for scripted motions.
 */
import type { Scene } from '../scene/scene.ts';
import type { StepContext } from './context.ts';
import type { ObjectParticles } from './objects.ts';
import type { SolveView } from './pressure-kernels.ts';
import { SimulationError } from '../api.ts';
import { sampleVolume } from '../scene/sample.ts';
import { quatToMatrix, type CompiledMotion, type RigidPose } from '../scene/motion.ts';
import { allocFloat64 } from '../parallel/memory.ts';
import { GUARD } from './boundaries.ts';
import { collideFreeBody, ContactScratch } from './free-body-contacts.ts';

/** Numbers of one body's state: centre of mass x (3), orientation quaternion q [x, y, z, w] (4), velocity v (3), angular velocity ω (3). */
export const STATE = 13;
const X = 0, Q = 3, V = 7, W = 10;

/** Largest number of lattice points used for a body's inertia. */
const INERTIA_SAMPLES = 20_000;

const local = new Float64Array(3);
const tmp9 = new Float64Array(9), Iw = new Float64Array(9), Lw = new Float64Array(3);

export class FreeBodies {
  readonly count: number;
  /** ObjectParticles.bodies index of each free body, and the free body of each object body (−1: not free). */
  readonly objectBody: Int32Array;
  readonly freeOf: Int32Array;
  /** Where each free body is in the scene ("bodies[3] 'box'"), for messages. */
  readonly places: string[] = [];
  /** STATE numbers a body: x, q, v, ω. What a checkpoint saves. */
  readonly state: Float64Array;
  /** Rotation of q (row-major, 9 a body). */
  readonly R: Float64Array;
  readonly mass: Float64Array;
  /** Body-frame inertia tensor about the centre of mass and its inverse (9 a body). */
  readonly inertia: Float64Array;
  readonly inertiaInv: Float64Array;
  /** Rest-frame centre of mass (3 a body). */
  readonly com0: Float64Array;
  readonly damping: Float64Array;
  /**
   * What the liquid gave each body in the current sub-timestep (6 a body): linear impulse, N s, and
   * angular impulse about the centre of mass, N m s; and forces held over the whole sub-timestep
   * (adhesion: N, N m), multiplied by δt when the body is integrated.
   */
  readonly impulse: Float64Array;
  readonly force: Float64Array;
  /** Per liquid particle (sorted order of the sub-timestep): free body + 1 when near one, else 0. */
  near = new Int32Array(0);
  /** The flagged particles, and a copy of their velocities or accelerations (capture). */
  list = new Int32Array(0);
  listCount = 0;
  private snap = new Float64Array(0);
  /** Per liquid particle: velocity the object contacts gave it this sub-timestep (object-contacts.ts). */
  odv: Float64Array = new Float64Array(0);
  /** The contact points of free-body-contacts.ts. */
  readonly contacts = new ContactScratch();

  private constructor(scene: Scene, objects: ObjectParticles, free: number[]) {
    const n = (this.count = free.length);
    this.objectBody = Int32Array.from(free);
    this.freeOf = new Int32Array(objects.bodies.length).fill(-1);
    this.state = new Float64Array(STATE * n);
    this.R = new Float64Array(9 * n);
    this.mass = new Float64Array(n);
    this.inertia = new Float64Array(9 * n);
    this.inertiaInv = new Float64Array(9 * n);
    this.com0 = new Float64Array(3 * n);
    this.damping = new Float64Array(n);
    this.impulse = new Float64Array(6 * n);
    this.force = new Float64Array(6 * n);
    const solids = scene.bodies.map((b, i) => ({ b, i })).filter(({ b }) => scene.materials[b.material].kind === 'solid');
    free.forEach((ob, k) => {
      this.freeOf[ob] = k;
      const body = objects.bodies[ob], { b, i } = solids[ob];
      const place = `bodies[${i}]${b.name ? ` '${b.name}'` : ''}`;
      this.places.push(place);
      const mat = scene.materials[b.material];
      const density = mat.kind === 'solid' ? mat.density : undefined;
      if (density === undefined) throw new SimulationError(`${place}: a free body needs a density in its material '${b.material}'`, 'setup', 0);
      const shape = body.compiled;
      if (!Number.isFinite(shape.volume) || b.shape.type === 'plane') {
        throw new SimulationError(`${place}: a ${b.shape.type} cannot be a free body in the particle engine (it has no finite volume, so no mass); make it static or give it a closed shape`, 'setup', 0);
      }
      if (b.motion.type === 'free') this.damping[k] = b.motion.angularDamping;
      this.massProperties(k, shape, density, place);
      this.state[STATE * k + Q + 3] = 1;
      for (let a = 0; a < 3; a++) this.state[STATE * k + X + a] = this.com0[3 * k + a];
      quatToMatrix(this.state.subarray(STATE * k + Q, STATE * k + Q + 4), this.R.subarray(9 * k, 9 * k + 9));
      body.motion = this.motionOf(k);
    });
  }

  /** The scene's free bodies (their object bodies' motions replaced by the integrated pose), or null when it has none. */
  static of(scene: Scene, objects: ObjectParticles): FreeBodies | null {
    const free: number[] = [];
    objects.bodies.forEach((b, k) => { if (b.motion.isFree) free.push(k); });
    if (free.length === 0) return null;
    if (scene.particle.densitySolver !== 'pbf') {
      throw new SimulationError(`free bodies need particle.densitySolver "pbf" in the particle engine (its pressure is what floats them); this scene has "${scene.particle.densitySolver}"`, 'setup', 0);
    }
    return new FreeBodies(scene, objects, free);
  }

  /** Mass, centre of mass and inertia tensor of body k from a lattice in its volume (the shape's exact volume for the mass). */
  private massProperties(k: number, shape: ObjectParticles['bodies'][number]['compiled'], density: number, place: string): void {
    const spacing = Math.cbrt(shape.volume / INERTIA_SAMPLES);
    // A lattice symmetric about the centre of the bounds (points at c + (k + ½) s): a symmetric shape's centre of mass comes out exact.
    const b = shape.bounds, c = [0, 1, 2].map((a) => (b.min[a] + b.max[a]) / 2);
    let pts = sampleVolume(shape, spacing, [c[0] + spacing / 2, c[1] + spacing / 2, c[2] + spacing / 2]);
    if (pts.length === 0) pts = sampleVolume(shape, spacing / 4, [c[0] + spacing / 8, c[1] + spacing / 8, c[2] + spacing / 8]);
    const np = pts.length / 3;
    if (np === 0) throw new SimulationError(`${place}: too thin to find its volume (no lattice point inside it at ${spacing.toPrecision(3)} m)`, 'setup', 0);
    const com = this.com0.subarray(3 * k, 3 * k + 3);
    for (let i = 0; i < np; i++) for (let a = 0; a < 3; a++) com[a] += pts[3 * i + a] / np;
    const M = (this.mass[k] = density * shape.volume), m = M / np, I = this.inertia.subarray(9 * k, 9 * k + 9);
    for (let i = 0; i < np; i++) {
      const rx = pts[3 * i] - com[0], ry = pts[3 * i + 1] - com[1], rz = pts[3 * i + 2] - com[2];
      I[0] += m * (ry * ry + rz * rz); I[4] += m * (rx * rx + rz * rz); I[8] += m * (rx * rx + ry * ry);
      I[1] -= m * rx * ry; I[2] -= m * rx * rz; I[5] -= m * ry * rz;
    }
    // A lattice cell's own inertia (m s²/6 about each axis), which the points leave out.
    for (const d of [0, 4, 8]) I[d] += (M * spacing * spacing) / 6;
    I[3] = I[1]; I[6] = I[2]; I[7] = I[5];
    invert3(I, this.inertiaInv.subarray(9 * k, 9 * k + 9));
  }

  /** The pose and velocities of body k as a CompiledMotion (time is ignored: the pose is the integrated one). */
  private motionOf(k: number): CompiledMotion {
    const s = this.state, R = this.R, c0 = this.com0;
    return {
      poseAt(_time: number, out: RigidPose): RigidPose {
        for (let a = 0; a < 9; a++) out.R[a] = R[9 * k + a];
        // world = R rest + t with the centre of mass at x: t = x − R com0.
        for (let a = 0; a < 3; a++) {
          const r = 9 * k + 3 * a;
          out.t[a] = s[STATE * k + X + a] - (R[r] * c0[3 * k] + R[r + 1] * c0[3 * k + 1] + R[r + 2] * c0[3 * k + 2]);
        }
        return out;
      },
      velocityAt(_time: number, p: ArrayLike<number>, out: Float64Array): Float64Array {
        const o = STATE * k, rx = p[0] - s[o + X], ry = p[1] - s[o + X + 1], rz = p[2] - s[o + X + 2];
        out[0] = s[o + V] + s[o + W + 1] * rz - s[o + W + 2] * ry;
        out[1] = s[o + V + 1] + s[o + W + 2] * rx - s[o + W] * rz;
        out[2] = s[o + V + 2] + s[o + W] * ry - s[o + W + 1] * rx;
        return out;
      },
      isStatic: false,
      isFree: true,
    };
  }

  /** Centre of mass, velocity, angular velocity or orientation of body k (views of the state). */
  position(k: number): Float64Array { return this.state.subarray(STATE * k + X, STATE * k + X + 3); }
  velocity(k: number): Float64Array { return this.state.subarray(STATE * k + V, STATE * k + V + 3); }
  angularVelocity(k: number): Float64Array { return this.state.subarray(STATE * k + W, STATE * k + W + 3); }
  orientation(k: number): Float64Array { return this.state.subarray(STATE * k + Q, STATE * k + Q + 4); }

  /** Puts back a saved state (STATE numbers a body) and the rotations it implies. */
  restore(saved: Float64Array): void {
    if (saved.length !== this.state.length) throw new Error(`checkpoint holds ${saved.length / STATE} free bodies, the scene ${this.count}`);
    this.state.set(saved);
    for (let k = 0; k < this.count; k++) quatToMatrix(this.orientation(k), this.R.subarray(9 * k, 9 * k + 9));
  }

  /**
   * Start of a sub-timestep, after the liquid is sorted and flagged near objects: clears what the
   * bodies were given, and flags the liquid particles within `margin` (m) of a free body (the
   * reach of every liquid–object interaction of the sub-timestep, as markNearObjects).
   */
  begin(ctx: StepContext, margin: number): void {
    const L = ctx.liquid, n = L.count, pos = L.pos, nearObject = L.nearObject, O = ctx.objects;
    this.impulse.fill(0);
    this.force.fill(0);
    if (this.near.length < n) {
      const cap = Math.max(n, L.capacity);
      this.near = new Int32Array(cap);
      this.list = new Int32Array(cap);
      this.snap = new Float64Array(3 * cap);
    }
    if (this.odv.length < 3 * n || (ctx.shared && !(this.odv.buffer instanceof SharedArrayBuffer))) {
      this.odv = allocFloat64(3 * Math.max(n, L.capacity), ctx.shared);
    }
    this.odv.fill(0, 0, 3 * n);
    const near = this.near, reach = GUARD * ctx.r + margin;
    let m = 0;
    for (let i = 0; i < n; i++) {
      near[i] = 0;
      if (!nearObject[i]) continue;
      let best = Infinity;
      for (let k = 0; k < this.count; k++) {
        const b = O.bodies[this.objectBody[k]], R = b.pose.R, t = b.pose.t;
        const dx = pos[3 * i] - t[0], dy = pos[3 * i + 1] - t[1], dz = pos[3 * i + 2] - t[2];
        local[0] = R[0] * dx + R[3] * dy + R[6] * dz;
        local[1] = R[1] * dx + R[4] * dy + R[7] * dz;
        local[2] = R[2] * dx + R[5] * dy + R[8] * dz;
        let inside = true;
        for (let a = 0; a < 3; a++) if (!(local[a] > b.min[a] - margin && local[a] < b.max[a] + margin)) inside = false;
        if (!inside) continue;
        const d = b.compiled.sdf(local[0], local[1], local[2]);
        if (d < reach && d < best) { best = d; near[i] = k + 1; }
      }
      if (near[i] !== 0) this.list[m++] = i;
    }
    this.listCount = m;
  }

  /** Copies the velocities (or, with `acc`, the accelerations) of the flagged particles before a stage. */
  capture(ctx: StepContext, acc = false): void {
    const src = acc ? ctx.liquid.acc : ctx.liquid.vel, list = this.list, snap = this.snap;
    for (let a = 0; a < this.listCount; a++) {
      const i = list[a];
      snap[3 * a] = src[3 * i]; snap[3 * a + 1] = src[3 * i + 1]; snap[3 * a + 2] = src[3 * i + 2];
    }
  }

  /**
   * After the stage: each flagged particle's velocity change since `capture` goes to its body as
   * −m Δv at the particle. (The "pbf" moves translate only, so around a move this is friction.)
   */
  release(ctx: StepContext): void {
    const L = ctx.liquid, vel = L.vel, list = this.list, snap = this.snap;
    for (let a = 0; a < this.listCount; a++) {
      const i = list[a], o = 3 * i;
      const dx = vel[o] - snap[3 * a], dy = vel[o + 1] - snap[3 * a + 1], dz = vel[o + 2] - snap[3 * a + 2];
      if (dx === 0 && dy === 0 && dz === 0) continue;
      const m = -ctx.mass[L.material[i]];
      this.add(this.impulse, this.near[i] - 1, m * dx, m * dy, m * dz, L.pos[o], L.pos[o + 1], L.pos[o + 2]);
    }
  }

  /** After object adhesion: the acceleration it gave each flagged particle, as a force −m Δa held over the sub-timestep. */
  releaseAcc(ctx: StepContext): void {
    const L = ctx.liquid, acc = L.acc, list = this.list, snap = this.snap;
    for (let a = 0; a < this.listCount; a++) {
      const i = list[a], o = 3 * i;
      const dx = acc[o] - snap[3 * a], dy = acc[o + 1] - snap[3 * a + 1], dz = acc[o + 2] - snap[3 * a + 2];
      if (dx === 0 && dy === 0 && dz === 0) continue;
      const m = -ctx.mass[L.material[i]];
      this.add(this.force, this.near[i] - 1, m * dx, m * dy, m * dz, L.pos[o], L.pos[o + 1], L.pos[o + 2]);
    }
  }

  /**
   * The reaction to the boundary term of a pressure displacement just computed from v.p (the
   * pressure stage's last pass, or a PBF density pass; pressure-kernels.ts): slot a moved by
   * −p_a γ_s G_as / n0 from object slot s, so the body of s takes m_a times the opposite over
   * δt, at the object particle. `order` maps slots to particles.
   */
  boundaryReaction(ctx: StepContext, v: SolveView, order: Int32Array, n: number, dt: number): void {
    const L = ctx.liquid, mass = ctx.mass, mat = L.material, O = ctx.objects, oorder = ctx.objectCells.grid.order, obody = O.body;
    const { x, bs, bj, bg, opos, gamma, p } = v, scale = 1 / (v.n0 * dt), freeOf = this.freeOf;
    for (let a = 0; a < n; a++) {
      const pa = p[a];
      if (pa === 0 || bs[a] === bs[a + 1]) continue;
      const ma = mass[mat[order[a]]] * pa * scale;
      const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
      for (let q = bs[a], q1 = bs[a + 1]; q < q1; q++) {
        const s = bj[q], g = bg[q];
        if (g === 0) continue;
        const k = freeOf[obody[oorder[s]]];
        if (k < 0) continue;
        const f = ma * gamma[s] * g, px = opos[3 * s], py = opos[3 * s + 1], pz = opos[3 * s + 2];
        this.add(this.impulse, k, f * (xa - px), f * (ya - py), f * (za - pz), px, py, pz);
      }
    }
  }

  /** An impulse (N s) the liquid gives body k at point p in the current sub-timestep (the implicit viscosity's object terms, viscosity-weiler.ts). */
  addImpulse(k: number, jx: number, jy: number, jz: number, px: number, py: number, pz: number): void {
    this.add(this.impulse, k, jx, jy, jz, px, py, pz);
  }

  /** Adds (jx, jy, jz) at point p to body k's linear and angular sums in `into` (impulse or force). */
  private add(into: Float64Array, k: number, jx: number, jy: number, jz: number, px: number, py: number, pz: number): void {
    const o = STATE * k, rx = px - this.state[o + X], ry = py - this.state[o + X + 1], rz = pz - this.state[o + X + 2], e = 6 * k;
    into[e] += jx; into[e + 1] += jy; into[e + 2] += jz;
    into[e + 3] += ry * jz - rz * jy; into[e + 4] += rz * jx - rx * jz; into[e + 5] += rx * jy - ry * jx;
  }

  /**
   * End of a sub-timestep of length dt: the object contacts' share (odv), then each body's
   * symplectic Euler step (Newton–Euler with gravity and the liquid's impulses), its contacts with
   * walls and solids, and its object body's pose brought up to date (drawing, checkpoints).
   */
  end(ctx: StepContext, dt: number): void {
    const L = ctx.liquid, odv = this.odv, list = this.list;
    for (let a = 0; a < this.listCount; a++) {
      const i = list[a], o = 3 * i;
      if (odv[o] === 0 && odv[o + 1] === 0 && odv[o + 2] === 0) continue;
      const m = -ctx.mass[L.material[i]];
      this.add(this.impulse, this.near[i] - 1, m * odv[o], m * odv[o + 1], m * odv[o + 2], L.pos[o], L.pos[o + 1], L.pos[o + 2]);
    }
    const g = ctx.scene.gravity;
    for (let k = 0; k < this.count; k++) {
      this.integrate(k, g, dt);
      collideFreeBody(ctx, this, k);
      const b = ctx.objects.bodies[this.objectBody[k]];
      b.motion.poseAt(ctx.time, b.pose);
    }
  }

  /** One symplectic Euler step of body k: v, ω from the sub-timestep's impulses and gravity, then x and q with the new ones. */
  private integrate(k: number, g: readonly number[], dt: number): void {
    const s = this.state, o = STATE * k, e = 6 * k, J = this.impulse, F = this.force, M = this.mass[k];
    for (let a = 0; a < 3; a++) s[o + V + a] += (J[e + a] + F[e + a] * dt) / M + g[a] * dt;
    const R = this.R.subarray(9 * k, 9 * k + 9);
    // ω += I_w⁻¹ (L − δt ω × I_w ω), I_w = R I Rᵀ (the gyroscopic term explicit), then damping.
    rotateTensor(R, this.inertia.subarray(9 * k, 9 * k + 9), Iw);
    const w0 = s[o + W], w1 = s[o + W + 1], w2 = s[o + W + 2];
    Lw[0] = Iw[0] * w0 + Iw[1] * w1 + Iw[2] * w2;
    Lw[1] = Iw[3] * w0 + Iw[4] * w1 + Iw[5] * w2;
    Lw[2] = Iw[6] * w0 + Iw[7] * w1 + Iw[8] * w2;
    const tx = J[e + 3] + dt * (F[e + 3] - (w1 * Lw[2] - w2 * Lw[1]));
    const ty = J[e + 4] + dt * (F[e + 4] - (w2 * Lw[0] - w0 * Lw[2]));
    const tz = J[e + 5] + dt * (F[e + 5] - (w0 * Lw[1] - w1 * Lw[0]));
    rotateTensor(R, this.inertiaInv.subarray(9 * k, 9 * k + 9), Iw);
    const fade = Math.exp(-this.damping[k] * dt);
    s[o + W] = (w0 + Iw[0] * tx + Iw[1] * ty + Iw[2] * tz) * fade;
    s[o + W + 1] = (w1 + Iw[3] * tx + Iw[4] * ty + Iw[5] * tz) * fade;
    s[o + W + 2] = (w2 + Iw[6] * tx + Iw[7] * ty + Iw[8] * tz) * fade;
    for (let a = 0; a < 3; a++) s[o + X + a] += dt * s[o + V + a];
    // q += ½ δt (ω, 0) ⊗ q, normalised.
    const qx = s[o + Q], qy = s[o + Q + 1], qz = s[o + Q + 2], qw = s[o + Q + 3], wx = s[o + W], wy = s[o + W + 1], wz = s[o + W + 2], h = 0.5 * dt;
    const nx = qx + h * (wx * qw + wy * qz - wz * qy), ny = qy + h * (wy * qw + wz * qx - wx * qz);
    const nz = qz + h * (wz * qw + wx * qy - wy * qx), nw = qw - h * (wx * qx + wy * qy + wz * qz);
    const l = Math.hypot(nx, ny, nz, nw);
    s[o + Q] = nx / l; s[o + Q + 1] = ny / l; s[o + Q + 2] = nz / l; s[o + Q + 3] = nw / l;
    quatToMatrix(s.subarray(o + Q, o + Q + 4), R);
  }

  /** World inverse inertia R I⁻¹ Rᵀ of body k into out. */
  worldInverseInertia(k: number, out: Float64Array): Float64Array {
    return rotateTensor(this.R.subarray(9 * k, 9 * k + 9), this.inertiaInv.subarray(9 * k, 9 * k + 9), out);
  }
}

/** out = R A Rᵀ. */
function rotateTensor(R: Float64Array, A: Float64Array, out: Float64Array): Float64Array {
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    let sum = 0;
    for (let k = 0; k < 3; k++) sum += A[3 * i + k] * R[3 * j + k];
    tmp9[3 * i + j] = sum;
  }
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    let sum = 0;
    for (let k = 0; k < 3; k++) sum += R[3 * i + k] * tmp9[3 * k + j];
    out[3 * i + j] = sum;
  }
  return out;
}

function invert3(A: Float64Array, out: Float64Array): void {
  const [a, b, c, d, e, f, g, h, i] = A;
  const k = 1 / (a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g));
  out[0] = (e * i - f * h) * k; out[1] = (c * h - b * i) * k; out[2] = (b * f - c * e) * k;
  out[3] = (f * g - d * i) * k; out[4] = (a * i - c * g) * k; out[5] = (c * d - a * f) * k;
  out[6] = (d * h - e * g) * k; out[7] = (b * g - a * h) * k; out[8] = (a * e - b * d) * k;
}
