/**
 * Particle-ized objects (Steele et al. 2004, "Object-Liquid Interaction"): every solid body is
 * sampled on its surface with object particles of radius objectRadius · r and outward normals.
 * Moving bodies get their pose at every sub-timestep; object particles then take part in adhesion,
 * friction and inter-penetration, never in viscosity or density.
 *
 * Besides the particles, each body keeps its compiled shape: a signed-distance guard (boundaries.ts)
 * catches liquid that a fast move carries past the object particles.
 */
import type { Scene } from '../scene/scene.ts';
import type { Shape } from '../scene/schema.ts';
import { compileShape, type CompiledShape } from '../scene/shapes.ts';
import { compileMotion, createPose, copyPose, type CompiledMotion, type RigidPose } from '../scene/motion.ts';
import { sampleSurface } from '../scene/sample.ts';
import { allocLike } from '../parallel/memory.ts';

/**
 * Depth, in object radii r_o, at which a free body's particles sit inside its surface, so that the
 * liquid a floating body displaces is its own volume, as Archimedes has it. The liquid is held
 * r + r_o from object particles (contacts, and the boundary volumes' density), and its own volume
 * ends r nearer: on the surface they held it a layer r_o thick too far out (scenes/floating-box.json
 * at r = 6 mm: the box floated 2 cm high). Sunk by r_o, a raft still floated 19 % of its draft
 * high (under pressure the liquid stands further off than the contact distance), by 1.5 r_o 9.5 %
 * low, and floating-box's cube 18 % low; 1.25, measured: raft +6 % (water), +11 % (syrup), cube
 * −4 % (docs/decisions.md, "Free bodies"). Static and scripted solids keep theirs on the surface.
 */
export const FREE_INSET = 1.25;

const pointVelocity = new Float64Array(3), pointWorld = new Float64Array(3);

export interface ObjectBody {
  name: string;
  /** Index into scene.materialNames. */
  material: number;
  /** Friction factor f of the body's material (fraction of velocity lost per 1/30 s). */
  friction: number;
  shape: Shape;
  compiled: CompiledShape;
  motion: CompiledMotion;
  /** First object particle and count. */
  first: number;
  count: number;
  /** Pose at the end of the current sub-timestep, and at its start. */
  pose: RigidPose;
  prevPose: RigidPose;
  /** Rest-pose bounds of the shape (planes: the drawn square, thickened). */
  min: Float64Array;
  max: Float64Array;
}

export class ObjectParticles {
  readonly bodies: ObjectBody[] = [];
  readonly count: number;
  readonly radius: number;
  /** (The same array as `pos` where no body moves.) */
  rest: Float64Array;
  /** (The same array as `normal` where no body moves.) */
  restNormal: Float64Array;
  /**
   * Positions, velocities, normals and bodies: on shared memory after `share` (the thread team's
   * jobs read them: the object contacts and friction read the positions here, by rank through the
   * contact lists' index, object-lists.ts).
   */
  pos: Float64Array;
  /** Empty where no body moves (`anyMoving` false): every object particle's velocity is 0. */
  vel: Float64Array;
  normal: Float64Array;
  readonly material: Uint16Array;
  body: Int32Array;
  readonly anyMoving: boolean;
  /** Largest object-particle speed of the current sub-timestep, m/s. */
  maxSpeed = 0;

  constructor(scene: Scene) {
    const r = scene.particle.radius;
    this.radius = r * scene.particle.objectRadius;
    const names = scene.materialNames;
    const samples: { positions: Float64Array; normals: Float64Array; count: number }[] = [];
    let total = 0;
    scene.bodies.forEach((b, i) => {
      const m = scene.materials[b.material];
      if (m.kind !== 'solid') return;
      const compiled = compileShape(b.shape, scene.assets.meshes);
      const s = sampleSurface(compiled, 2 * this.radius);
      samples.push(s);
      const slack = b.shape.type === 'plane' ? 4 * r : 0;
      this.bodies.push({
        name: b.name ?? `body ${i}`,
        material: names.indexOf(b.material),
        friction: m.friction,
        shape: b.shape,
        compiled,
        motion: compileMotion(b.motion),
        first: total,
        count: s.count,
        pose: createPose(),
        prevPose: createPose(),
        min: Float64Array.from(compiled.bounds.min, (v) => v - slack),
        max: Float64Array.from(compiled.bounds.max, (v) => v + slack),
      });
      total += s.count;
    });
    this.count = total;
    this.rest = new Float64Array(3 * total);
    this.restNormal = new Float64Array(3 * total);
    this.material = new Uint16Array(total);
    this.body = new Int32Array(total);
    this.bodies.forEach((b, bi) => {
      const s = samples[bi];
      // A free body's particles sit r_o inside its surface (FREE_INSET).
      if (b.motion.isFree) for (let q = 0; q < 3 * s.count; q++) s.positions[q] -= this.radius * FREE_INSET * s.normals[q];
      this.rest.set(s.positions.subarray(0, 3 * s.count), 3 * b.first);
      this.restNormal.set(s.normals.subarray(0, 3 * s.count), 3 * b.first);
      this.material.fill(b.material, b.first, b.first + b.count);
      this.body.fill(bi, b.first, b.first + b.count);
    });
    this.anyMoving = this.bodies.some((b) => !b.motion.isStatic);
    // Static scenes share the rest arrays (object particles never move).
    this.pos = this.anyMoving ? this.rest.slice() : this.rest;
    this.normal = this.anyMoving ? this.restNormal.slice() : this.restNormal;
    // A scene where no body moves keeps no velocities (all zero): the readers take 0 where the array is empty.
    this.vel = new Float64Array(this.anyMoving ? 3 * total : 0);
  }

  /**
   * Places every body at its pose at t1 and gives its particles the velocity of the move from t0
   * (the sub-timestep's start) to t1. Returns true when any particle moved.
   */
  moveTo(t0: number, t1: number): boolean {
    let moved = false, max2 = 0;
    const dt = t1 - t0;
    for (const b of this.bodies) {
      b.motion.poseAt(t0, b.prevPose);
      b.motion.poseAt(t1, b.pose);
      if (b.motion.isStatic) continue;
      moved = true;
      if (b.motion.isFree) {
        max2 = Math.max(max2, this.placeFree(b, t1));
        continue;
      }
      const R = b.pose.R, t = b.pose.t, R0 = b.prevPose.R, t0v = b.prevPose.t;
      const rest = this.rest, rn = this.restNormal, pos = this.pos, vel = this.vel, nrm = this.normal;
      for (let p = b.first; p < b.first + b.count; p++) {
        const o = 3 * p;
        const x = rest[o], y = rest[o + 1], z = rest[o + 2];
        const nx = R[0] * x + R[1] * y + R[2] * z + t[0];
        const ny = R[3] * x + R[4] * y + R[5] * z + t[1];
        const nz = R[6] * x + R[7] * y + R[8] * z + t[2];
        const px = R0[0] * x + R0[1] * y + R0[2] * z + t0v[0];
        const py = R0[3] * x + R0[4] * y + R0[5] * z + t0v[1];
        const pz = R0[6] * x + R0[7] * y + R0[8] * z + t0v[2];
        pos[o] = nx; pos[o + 1] = ny; pos[o + 2] = nz;
        vel[o] = dt > 0 ? (nx - px) / dt : 0;
        vel[o + 1] = dt > 0 ? (ny - py) / dt : 0;
        vel[o + 2] = dt > 0 ? (nz - pz) / dt : 0;
        const s2 = vel[o] * vel[o] + vel[o + 1] * vel[o + 1] + vel[o + 2] * vel[o + 2];
        if (s2 > max2) max2 = s2;
        const a = rn[o], c = rn[o + 1], d = rn[o + 2];
        nrm[o] = R[0] * a + R[1] * c + R[2] * d;
        nrm[o + 1] = R[3] * a + R[4] * c + R[5] * d;
        nrm[o + 2] = R[6] * a + R[7] * c + R[8] * d;
      }
    }
    this.maxSpeed = Math.sqrt(max2);
    return moved;
  }

  /**
   * A free body (free-bodies.ts) at its integrated pose: its particles there, with the body's
   * velocity v + ω × r at each. Returns the largest squared particle speed.
   */
  private placeFree(b: ObjectBody, time: number): number {
    const R = b.pose.R, t = b.pose.t, rest = this.rest, rn = this.restNormal, pos = this.pos, vel = this.vel, nrm = this.normal;
    let max2 = 0;
    for (let p = b.first; p < b.first + b.count; p++) {
      const o = 3 * p;
      const x = rest[o], y = rest[o + 1], z = rest[o + 2];
      pointWorld[0] = pos[o] = R[0] * x + R[1] * y + R[2] * z + t[0];
      pointWorld[1] = pos[o + 1] = R[3] * x + R[4] * y + R[5] * z + t[1];
      pointWorld[2] = pos[o + 2] = R[6] * x + R[7] * y + R[8] * z + t[2];
      b.motion.velocityAt(time, pointWorld, pointVelocity);
      vel[o] = pointVelocity[0]; vel[o + 1] = pointVelocity[1]; vel[o + 2] = pointVelocity[2];
      const s2 = vel[o] * vel[o] + vel[o + 1] * vel[o + 1] + vel[o + 2] * vel[o + 2];
      if (s2 > max2) max2 = s2;
      const a = rn[o], c = rn[o + 1], d = rn[o + 2];
      nrm[o] = R[0] * a + R[1] * c + R[2] * d;
      nrm[o + 1] = R[3] * a + R[4] * c + R[5] * d;
      nrm[o + 2] = R[6] * a + R[7] * c + R[8] * d;
    }
    return max2;
  }

  /** Moves the arrays a thread team reads (positions, velocities, normals, bodies) onto shared memory. */
  share(): void {
    const copy = <A extends Float64Array | Int32Array>(a: A): A => {
      const b = allocLike(a, a.length, true);
      b.set(a as never);
      return b;
    };
    // (Static scenes' positions are their rest positions, one array: so they stay.)
    const pos = copy(this.pos);
    if (this.pos === this.rest) this.rest = pos;
    this.pos = pos;
    this.vel = copy(this.vel);
    // (Static scenes' normals are their rest normals, one array: so they stay.)
    const normal = copy(this.normal);
    if (this.normal === this.restNormal) this.restNormal = normal;
    this.normal = normal;
    this.body = copy(this.body);
  }

  /** Pose of body b at the end of the current sub-timestep (copied into out). */
  poseOf(b: number, out: RigidPose): RigidPose {
    return copyPose(out, this.bodies[b].pose);
  }
}
