/**
 * Buoyant rigid bodies (Foster & Metaxas 1996 §5), solids with motion `{ "type": "free" }`.
 *
 * A body is a set of nodes n_i filling its volume (a lattice of spacing h/3, each with volume dV
 * = V/N and mass m_i = ρ_s dV). After the pressure solve each node feels (equation 13)
 *   f_i = w_i (−∇p_i dV − k_d ρ_l dV (v_i − u(x_i))) + m_i g,
 * w_i its submerged fraction (from φ across the node's thickness, so the force does not jump as
 * node layers cross the surface),
 * with ∇p by backward differences of the cell pressures (equation 14; p = q ρ h / Δt from the
 * pressure variable of pressure.ts, air at p_atm = 0) and the damping of the paper's matrix D taken
 * proportional to the node's velocity relative to the liquid (DRAG_RATE). The total
 * force and torque move the body by the Newton–Euler equations (16) (semi-implicit Euler, the
 * orientation as a unit quaternion, angular damping from the scene), and it is kept inside the
 * closed faces of the domain box.
 *
 * As in the paper, the bodies are small next to the flow and do not act on it ("they act like large
 * marker particles"): free bodies are not solid cells of the grid (solids.ts skips them), so the
 * liquid's pressure is the undisturbed one and a body at rest floats where ρ_l V_submerged = ρ_s V.
 */
import { SimulationError } from '../api.ts';
import { sampleVolume } from '../scene/sample.ts';
import { quatToMatrix, type CompiledMotion, type RigidPose } from '../scene/motion.ts';
import { OPEN } from './domain.ts';
import { velocityAtPoint } from './interpolate.ts';
import { AIR, FLUID, SOLID, type GridStore } from './store.ts';
import type { GridSolid } from './solids.ts';
import type { GridSimulation } from './step.ts';

/**
 * Drag on a submerged node relative to the liquid, per second and per unit of displaced liquid
 * mass (f = −k_d ρ_l dV (v − u)): a floating body's bobbing then decays at about k_d whatever
 * its density.
 */
export const DRAG_RATE = 6;

const world = new Float64Array(3);
const uf = new Float64Array(3);
const F = new Float64Array(3), T = new Float64Array(3), grad = new Float64Array(3);

export class FreeBody {
  /** Node positions relative to the centre of mass, rest frame. */
  readonly nodes: Float64Array;
  readonly nodeVolume: number;
  /** Node lattice spacing, m. */
  readonly spacing: number;
  readonly mass: number;
  /** Body-frame inertia tensor (row-major) and its inverse. */
  readonly inertia = new Float64Array(9);
  readonly inertiaInv = new Float64Array(9);
  /** Rest-frame centre of mass. */
  readonly com0 = new Float64Array(3);
  /** World centre of mass, velocity, angular velocity; orientation quaternion [x, y, z, w]. */
  readonly x = new Float64Array(3);
  readonly v = new Float64Array(3);
  readonly w = new Float64Array(3);
  readonly q = new Float64Array([0, 0, 0, 1]);
  readonly R = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  /** Submerged fraction of the nodes after the last step. */
  submerged = 0;
  readonly motion: CompiledMotion;

  constructor(readonly solid: GridSolid, density: number, h: number, readonly angularDamping: number) {
    const shape = solid.shape, spacing = (this.spacing = h / 3);
    const b = shape.bounds;
    const pts = sampleVolume(shape, spacing, [b.min[0] + spacing / 2, b.min[1] + spacing / 2, b.min[2] + spacing / 2]);
    const n = pts.length / 3;
    if (n === 0) {
      throw new SimulationError(`free body '${solid.name}' is too small for grid.cellSize ${h} m: no point of its ${spacing.toPrecision(3)} m sampling lattice lies inside it (make it larger, or grid.cellSize smaller)`, 'setup', 0);
    }
    for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) this.com0[a] += pts[3 * i + a] / n;
    this.nodes = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) this.nodes[3 * i + a] = pts[3 * i + a] - this.com0[a];
    this.nodeVolume = shape.volume / n;
    this.mass = density * shape.volume;
    const m = density * this.nodeVolume, I = this.inertia;
    for (let i = 0; i < n; i++) {
      const rx = this.nodes[3 * i], ry = this.nodes[3 * i + 1], rz = this.nodes[3 * i + 2];
      I[0] += m * (ry * ry + rz * rz); I[4] += m * (rx * rx + rz * rz); I[8] += m * (rx * rx + ry * ry);
      I[1] -= m * rx * ry; I[2] -= m * rx * rz; I[5] -= m * ry * rz;
    }
    // A single node (or a flat layer) has no inertia about some axis: give it a floor.
    const floor = 1e-3 * this.mass * h * h;
    I[0] += floor; I[4] += floor; I[8] += floor;
    I[3] = I[1]; I[6] = I[2]; I[7] = I[5];
    invert3(I, this.inertiaInv);
    this.x.set(this.com0);
    const self = this;
    this.motion = {
      poseAt(_time: number, out: RigidPose): RigidPose {
        out.R.set(self.R);
        // world = R rest + t with the centre of mass at x: t = x − R com0.
        for (let a = 0; a < 3; a++) out.t[a] = self.x[a] - (self.R[3 * a] * self.com0[0] + self.R[3 * a + 1] * self.com0[1] + self.R[3 * a + 2] * self.com0[2]);
        return out;
      },
      velocityAt(_time: number, p: ArrayLike<number>, out: Float64Array): Float64Array {
        const rx = p[0] - self.x[0], ry = p[1] - self.x[1], rz = p[2] - self.x[2];
        out[0] = self.v[0] + self.w[1] * rz - self.w[2] * ry;
        out[1] = self.v[1] + self.w[2] * rx - self.w[0] * rz;
        out[2] = self.v[2] + self.w[0] * ry - self.w[1] * rx;
        return out;
      },
      isStatic: false,
      isFree: true,
    };
  }

  /** World position of node i into `world`. */
  nodeWorld(i: number, out: Float64Array): void {
    const R = this.R, r = this.nodes;
    const rx = r[3 * i], ry = r[3 * i + 1], rz = r[3 * i + 2];
    for (let a = 0; a < 3; a++) out[a] = this.x[a] + R[3 * a] * rx + R[3 * a + 1] * ry + R[3 * a + 2] * rz;
  }
}

export class BuoyantBodies {
  constructor(readonly bodies: FreeBody[]) {}

  /** The free bodies of the scene (their motions replace the identity of compileMotion), or null. */
  static create(sim: GridSimulation): BuoyantBodies | null {
    const list: FreeBody[] = [];
    for (const solid of sim.solids.list) {
      if (!solid.motion.isFree) continue;
      const body = sim.scene.bodies.find((b) => (b.name ?? b.material) === solid.name && b.motion.type === 'free');
      const mat = sim.scene.materials[solid.material];
      const density = mat.kind === 'solid' ? mat.density : undefined;
      if (density === undefined) throw new Error(`free body '${solid.name}' needs a density in material '${solid.material}'`);
      const fb = new FreeBody(solid, density, sim.d.h, body && body.motion.type === 'free' ? body.motion.angularDamping : 0.5);
      solid.motion = fb.motion;
      list.push(fb);
    }
    return list.length > 0 ? new BuoyantBodies(list) : null;
  }

  /** Forces from the pressure just solved, then one Newton–Euler step. */
  step(sim: GridSimulation, dt: number): void {
    const s = sim.store, d = sim.d, h = d.h, g = sim.scene.gravity;
    const rhoL = sim.liquid?.density ?? 1000;
    const pScale = (rhoL * h) / dt; // p = q ρ h / Δt
    for (const b of this.bodies) {
      F.fill(0); T.fill(0);
      const n = b.nodes.length / 3, m = b.mass / n, drag = DRAG_RATE * rhoL * b.nodeVolume;
      let wet = 0;
      for (let i = 0; i < n; i++) {
        b.nodeWorld(i, world);
        let fx = m * g[0], fy = m * g[1], fz = m * g[2];
        const wf = wetFraction(sim, world, b.spacing);
        if (wf > 0) {
          wet += wf;
          pressureGradient(s, d, world, pScale, grad);
          velocityAtPoint(s, d, world[0], world[1], world[2], uf);
          const vx = b.v[0] + b.w[1] * (world[2] - b.x[2]) - b.w[2] * (world[1] - b.x[1]);
          const vy = b.v[1] + b.w[2] * (world[0] - b.x[0]) - b.w[0] * (world[2] - b.x[2]);
          const vz = b.v[2] + b.w[0] * (world[1] - b.x[1]) - b.w[1] * (world[0] - b.x[0]);
          fx += wf * (-grad[0] * b.nodeVolume - drag * (vx - uf[0]));
          fy += wf * (-grad[1] * b.nodeVolume - drag * (vy - uf[1]));
          fz += wf * (-grad[2] * b.nodeVolume - drag * (vz - uf[2]));
        }
        F[0] += fx; F[1] += fy; F[2] += fz;
        const rx = world[0] - b.x[0], ry = world[1] - b.x[1], rz = world[2] - b.x[2];
        T[0] += ry * fz - rz * fy; T[1] += rz * fx - rx * fz; T[2] += rx * fy - ry * fx;
      }
      b.submerged = wet / n;
      integrate(b, F, T, dt);
      keepInside(b, sim);
    }
  }
}

/** Submerged fraction of a node of thickness `spacing` (the tracker's answer, smooth with a level set). */
function wetFraction(sim: GridSimulation, p: Float64Array, spacing: number): number {
  return sim.tracker.wetFraction(sim, p, spacing);
}

/** Equation 14: backward differences of the pressure of the node's cell (forward at a solid). */
function pressureGradient(s: GridStore, d: GridSimulation['d'], p: Float64Array, scale: number, out: Float64Array): void {
  const inv = 1 / d.h;
  const c = s.find(Math.floor((p[0] - d.origin[0]) * inv), Math.floor((p[1] - d.origin[1]) * inv), Math.floor((p[2] - d.origin[2]) * inv));
  out.fill(0);
  if (c < 0 || s.type[c] !== FLUID) return;
  const pc = scale * s.pressure[c];
  for (let a = 0; a < 3; a++) {
    const m = s.nb[6 * c + 2 * a], up = s.nb[6 * c + 2 * a + 1];
    if (m >= 0 && s.type[m] !== SOLID) out[a] = (pc - (s.type[m] === AIR ? 0 : scale * s.pressure[m])) * inv;
    else if (up >= 0 && s.type[up] !== SOLID) out[a] = ((s.type[up] === AIR ? 0 : scale * s.pressure[up]) - pc) * inv;
  }
}

const Iw = new Float64Array(9), tmp9 = new Float64Array(9), Lw = new Float64Array(3);

function integrate(b: FreeBody, F: Float64Array, T: Float64Array, dt: number): void {
  for (let a = 0; a < 3; a++) b.v[a] += (dt * F[a]) / b.mass;
  // World inverse inertia R I⁻¹ Rᵀ; gyroscopic term −ω × (I ω).
  rotateTensor(b.R, b.inertia, Iw);
  mulVec(Iw, b.w, Lw);
  const gx = b.w[1] * Lw[2] - b.w[2] * Lw[1], gy = b.w[2] * Lw[0] - b.w[0] * Lw[2], gz = b.w[0] * Lw[1] - b.w[1] * Lw[0];
  rotateTensor(b.R, b.inertiaInv, Iw);
  const tx = T[0] - gx, ty = T[1] - gy, tz = T[2] - gz;
  b.w[0] += dt * (Iw[0] * tx + Iw[1] * ty + Iw[2] * tz);
  b.w[1] += dt * (Iw[3] * tx + Iw[4] * ty + Iw[5] * tz);
  b.w[2] += dt * (Iw[6] * tx + Iw[7] * ty + Iw[8] * tz);
  const fade = Math.exp(-b.angularDamping * dt);
  for (let a = 0; a < 3; a++) { b.w[a] *= fade; b.x[a] += dt * b.v[a]; }
  // q += ½ Δt (ω, 0) ⊗ q, normalised.
  const [qx, qy, qz, qw] = b.q, [wx, wy, wz] = b.w, k = 0.5 * dt;
  b.q[0] = qx + k * (wx * qw + wy * qz - wz * qy);
  b.q[1] = qy + k * (wy * qw + wz * qx - wx * qz);
  b.q[2] = qz + k * (wz * qw + wx * qy - wy * qx);
  b.q[3] = qw - k * (wx * qx + wy * qy + wz * qz);
  const l = Math.hypot(b.q[0], b.q[1], b.q[2], b.q[3]);
  for (let a = 0; a < 4; a++) b.q[a] /= l;
  quatToMatrix(b.q, b.R);
}

/** Pushes the body back inside the closed faces of the box (inelastic along the face normal). */
function keepInside(b: FreeBody, sim: GridSimulation): void {
  const d = sim.d, n = b.nodes.length / 3;
  for (let a = 0; a < 3; a++) {
    const lo = d.origin[a], hi = d.origin[a] + d.n[a] * d.h;
    let under = 0, over = 0;
    for (let i = 0; i < n; i++) {
      b.nodeWorld(i, world);
      under = Math.max(under, lo - world[a]);
      over = Math.max(over, world[a] - hi);
    }
    if (under > 0 && d.kind[2 * a] !== OPEN) { b.x[a] += under; if (b.v[a] < 0) b.v[a] = 0; }
    if (over > 0 && d.kind[2 * a + 1] !== OPEN) { b.x[a] -= over; if (b.v[a] > 0) b.v[a] = 0; }
  }
}

function rotateTensor(R: Float64Array, A: Float64Array, out: Float64Array): void {
  // out = R A Rᵀ
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
}

function mulVec(A: Float64Array, v: Float64Array, out: Float64Array): void {
  for (let i = 0; i < 3; i++) out[i] = A[3 * i] * v[0] + A[3 * i + 1] * v[1] + A[3 * i + 2] * v[2];
}

function invert3(A: Float64Array, out: Float64Array): void {
  const [a, b, c, d, e, f, g, h, i] = A;
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  const k = 1 / det;
  out[0] = (e * i - f * h) * k; out[1] = (c * h - b * i) * k; out[2] = (b * f - c * e) * k;
  out[3] = (f * g - d * i) * k; out[4] = (a * i - c * g) * k; out[5] = (c * d - a * f) * k;
  out[6] = (d * h - e * g) * k; out[7] = (b * g - a * h) * k; out[8] = (a * e - b * d) * k;
}
