/**
 * Solid objects in the grid (Cline §6, Foster & Fedkiw 2001). A cell whose centre lies inside a
 * solid body is a solid cell holding the object's velocity there; faces between liquid and a solid
 * hold the solid's velocity in the pressure solve (the modified system; see pressure.ts). For moving
 * objects, the liquid velocity at the centre of each liquid cell beside the object is pushed along
 * the object's normal so that it does not flow into it (equation 16) and written back to the cell's
 * faces. Shapes and motions are the scene's, shared with the particle engine.
 */
import type { Scene, TriMesh } from '../scene/scene.ts';
import type { Shape } from '../scene/schema.ts';
import { compileShape, type CompiledShape } from '../scene/shapes.ts';
import type { ClipSolid } from '../surface/solid-clip.ts';
import { compileMotion, createPose, inversePose, type CompiledMotion, type RigidPose } from '../scene/motion.ts';
import type { GridDomain } from './domain.ts';
import { velocityAtPoint as velocityAtPoint_ } from './interpolate.ts';
import { FACE_ACTIVE as FACE_ACTIVE_, FLUID as FLUID_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const velocityAtPoint = velocityAtPoint_, FACE_ACTIVE = FACE_ACTIVE_, FLUID = FLUID_, SOLID = SOLID_;

export interface GridSolid {
  name: string;
  material: string;
  shape: CompiledShape;
  /** The scene's shape and, for a mesh, its loaded file (what a surface job clips by). */
  source: Shape;
  mesh?: TriMesh;
  motion: CompiledMotion;
  pose: RigidPose;
}

const rest = new Float64Array(3);
const world = new Float64Array(3);
const vel = new Float64Array(3);
const uc = new Float64Array(3);

export class GridSolids {
  readonly list: GridSolid[] = [];
  readonly moving: boolean;
  time = 0;

  constructor(scene: Scene, private d: GridDomain) {
    for (const body of scene.bodies) {
      if (scene.materials[body.material].kind !== 'solid') continue;
      this.list.push({
        name: body.name ?? body.material,
        material: body.material,
        shape: compileShape(body.shape, scene.assets.meshes),
        source: body.shape,
        ...(body.shape.type === 'mesh' ? { mesh: scene.assets.meshes[body.shape.file] } : {}),
        motion: compileMotion(body.motion),
        pose: createPose(),
      });
    }
    this.moving = this.list.some((b) => !b.motion.isStatic);
    const cells = d.n[0] * d.n[1] * d.n[2];
    const still = this.list.every((b) => b.motion.isStatic || b.motion.isFree);
    this.known = still && this.list.length > 0 && this.list.length < 126 && cells <= 1 << 24 ? new Int8Array(cells) : null;
  }

  setTime(time: number): void {
    this.time = time;
    for (const b of this.list) b.motion.poseAt(time, b.pose);
  }

  /**
   * The solids a surface job's drawn φ is cut by (surface/solid-clip.ts), as plain data posed at
   * `time`: every object that is cells of the grid. Free bodies are not (they float on the grid's
   * pressure, buoyancy.ts), and the liquid is not kept out of them, so they do not cut it either.
   */
  clipSolids(time: number): ClipSolid[] {
    const out: ClipSolid[] = [], pose = createPose();
    for (const b of this.list) {
      if (b.motion.isFree) continue;
      b.motion.poseAt(time, pose);
      out.push({ shape: b.source, ...(b.mesh ? { mesh: b.mesh } : {}), R: pose.R.slice(), t: pose.t.slice() });
    }
    return out;
  }

  /** Signed distance to solid b at a world point. */
  distance(b: number, x: number, y: number, z: number): number {
    const body = this.list[b];
    world[0] = x; world[1] = y; world[2] = z;
    inversePose(body.pose, world, rest);
    return body.shape.sdf(rest[0], rest[1], rest[2]);
  }

  /** Signed distance to the nearest object that holds cells (not a free body) at a world point, m. */
  readonly objectDistance = (x: number, y: number, z: number): number => {
    let best = Infinity;
    for (let b = 0; b < this.list.length; b++) if (!this.list[b].motion.isFree) best = Math.min(best, this.distance(b, x, y, z));
    return best;
  };

  /** The velocity of the nearest object that holds cells (not a free body) at a world point into `out`, m/s. */
  readonly objectVelocity = (x: number, y: number, z: number, out: Float64Array): void => {
    let b = -1, best = Infinity;
    for (let q = 0; q < this.list.length; q++) {
      if (this.list[q].motion.isFree) continue;
      const d = this.distance(q, x, y, z);
      if (d < best) { best = d; b = q; }
    }
    out[0] = out[1] = out[2] = 0;
    if (b < 0 || this.list[b].motion.isStatic) return;
    world[0] = x; world[1] = y; world[2] = z;
    this.list[b].motion.velocityAt(this.time, world, out);
  };

  /**
   * Index of the solid containing the centre of cell (i, j, k), or −1. Where every object holding
   * cells stands still, the answer for a cell of the domain is kept (`known`): the grid rebuild asks
   * it of tens of thousands of cells every step.
   */
  readonly solidAt = (i: number, j: number, k: number): number => {
    if (this.list.length === 0) return -1;
    const n = this.d.n, known = this.known;
    if (known !== null && i >= 0 && j >= 0 && k >= 0 && i < n[0] && j < n[1] && k < n[2]) {
      const key = i + n[0] * (j + n[1] * k);
      if (known[key] === 0) known[key] = this.findSolid(i, j, k) + 2;
      return known[key] - 2;
    }
    return this.findSolid(i, j, k);
  };

  /** Cell-centre answers of `solidAt` (solid + 2; 0 where not asked yet), or null where objects move. */
  private readonly known: Int8Array | null;

  private findSolid(i: number, j: number, k: number): number {
    const h = this.d.h, o = this.d.origin;
    const x = o[0] + h * (i + 0.5), y = o[1] + h * (j + 0.5), z = o[2] + h * (k + 0.5);
    // Free (buoyant) bodies are not cells of the grid: they float on its pressure (buoyancy.ts).
    for (let b = 0; b < this.list.length; b++) if (!this.list[b].motion.isFree && this.distance(b, x, y, z) < 0) return b;
    return -1;
  }

  /** Writes each solid cell's object velocity into `solidVel` (zero for walls). */
  fillVelocities(s: GridStore): void {
    const h = this.d.h, o = this.d.origin;
    for (let c = 0; c < s.count; c++) {
      s.solidVel[0][c] = s.solidVel[1][c] = s.solidVel[2][c] = 0;
      if (s.type[c] !== SOLID || s.wall[c] !== 0 || !this.moving) continue;
      const b = this.solidAt(s.ci[c], s.cj[c], s.ck[c]);
      if (b < 0) continue;
      world[0] = o[0] + h * (s.ci[c] + 0.5); world[1] = o[1] + h * (s.cj[c] + 0.5); world[2] = o[2] + h * (s.ck[c] + 0.5);
      this.list[b].motion.velocityAt(this.time, world, vel);
      s.solidVel[0][c] = vel[0]; s.solidVel[1][c] = vel[1]; s.solidVel[2][c] = vel[2];
    }
  }

  /**
   * A separating face (Chentanez & Müller 2012: a solid keeps liquid from flowing into it but
   * cannot pull it after it): a face between a liquid cell and an object moving away from it holds
   * 0 where the liquid is not moving towards the object (its normal velocity on the cell's opposite
   * face, towards the object, is not above 0), so a body leaving the liquid does not draw it along;
   * where the liquid does move towards it, the object's velocity stays (no flow into it). For liquids
   * that separate from objects (pressure.ts separatesUnderObjects, Ga > 1); called after each
   * applySolidVelocities of the step's start and end velocities and before the projection
   * (stages.ts). Without it, a plate lifted off a pool at 5 cm/s drew the water under it up at 3.6
   * cm/s, and each cell it vacated filled with water (tests/grid/body-side.ts `lift-slow`). Taking
   * the liquid's own velocity whatever its sign let the water under the plate fall away from it
   * (it carries gravity's step, which the projection would take back). Returns the faces set.
   */
  separateLeaving(s: GridStore): number {
    if (!this.moving) return 0;
    const { nb, type, wall, u, solidVel } = s;
    let faces = 0;
    for (let c = 0; c < s.count; c++) {
      if (type[c] !== FLUID) continue;
      for (let a = 0; a < 3; a++) {
        const lo = nb[6 * c + 2 * a], hi = nb[6 * c + 2 * a + 1];
        // An object on the +a side moving along +a: the face is its −a face; the liquid's own, c's −a face.
        if (hi >= 0 && type[hi] === SOLID && wall[hi] === 0 && solidVel[a][hi] > 0) {
          if (!(lo >= 0 && type[lo] !== SOLID && u[a][c] > 0)) { u[a][hi] = 0; faces++; }
        }
        // An object on the −a side moving along −a: the face is c's −a face; the liquid's own, its +a face.
        if (lo >= 0 && type[lo] === SOLID && wall[lo] === 0 && solidVel[a][lo] < 0) {
          if (!(hi >= 0 && type[hi] !== SOLID && u[a][hi] < 0)) { u[a][c] = 0; faces++; }
        }
      }
    }
    return faces;
  }

  /** Equation 16 on the liquid cells beside moving objects; returns how many were pushed. */
  pushNormals(s: GridStore): number {
    if (!this.moving) return 0;
    const h = this.d.h, o = this.d.origin, e = 0.5 * h;
    let pushed = 0;
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] !== FLUID) continue;
      let border = false;
      for (let dd = 0; dd < 6; dd++) {
        const m = s.nb[6 * c + dd];
        if (m >= 0 && s.type[m] === SOLID && s.wall[m] === 0) { border = true; break; }
      }
      if (!border) continue;
      const x = o[0] + h * (s.ci[c] + 0.5), y = o[1] + h * (s.cj[c] + 0.5), z = o[2] + h * (s.ck[c] + 0.5);
      let b = 0, best = Infinity;
      for (let q = 0; q < this.list.length; q++) {
        if (this.list[q].motion.isFree) continue;
        const dq = this.distance(q, x, y, z);
        if (dq < best) { best = dq; b = q; }
      }
      // Average normal from the distance gradient (central differences over the cell).
      const nx = this.distance(b, x + e, y, z) - this.distance(b, x - e, y, z);
      const ny = this.distance(b, x, y + e, z) - this.distance(b, x, y - e, z);
      const nz = this.distance(b, x, y, z + e) - this.distance(b, x, y, z - e);
      const len = Math.hypot(nx, ny, nz);
      if (!(len > 0)) continue;
      const n0 = nx / len, n1 = ny / len, n2 = nz / len;
      world[0] = x; world[1] = y; world[2] = z;
      this.list[b].motion.velocityAt(this.time, world, vel);
      velocityAtPoint(s, this.d, x, y, z, uc);
      const push = Math.max(0, vel[0] * n0 + vel[1] * n1 + vel[2] * n2 - (uc[0] * n0 + uc[1] * n1 + uc[2] * n2));
      if (push === 0) continue;
      pushed++;
      const add = [push * n0, push * n1, push * n2];
      for (let a = 0; a < 3; a++) {
        if (s.face[3 * c + a] === FACE_ACTIVE) s.u[a][c] += add[a];
        const up = s.nb[6 * c + 2 * a + 1];
        if (up >= 0 && s.face[3 * up + a] === FACE_ACTIVE) s.u[a][up] += add[a];
      }
    }
    return pushed;
  }
}
