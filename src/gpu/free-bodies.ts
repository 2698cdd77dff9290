/// <reference types="@webgpu/types" />
/**
 * Free rigid bodies with the WebGPU step, coupled both ways as the CPU engine couples them
 * (src/particle/free-bodies.ts; Akinci, Ihmsen, Akinci, Solenthaler & Teschner 2012, §4–5). The
 * kernels hand each liquid slot's velocity change through a free body's particles to `keep[3 cap + a]`
 * (free-wgsl.ts); here that is summed per body, force and moment about the body's centre of mass,
 * by a two-level workgroup reduction in a fixed order (each workgroup of WORKGROUP slots in
 * workgroup memory, then one workgroup over the partials: no float atomics, so a run's sums do not
 * depend on scheduling; as viscosity-wgsl.ts reduces its dot products). It runs twice a
 * sub-timestep: before the second sort (the slots are reordered there) and after density
 * correction, each pass clearing the entries it read; and after each implicit viscosity solve over
 * the share its module leaves in a section of its own (viscosity-wgsl.ts viscFree: its module has
 * no `keep`). The sums (8 floats a body) are read back
 * once a sub-timestep; the host integrates the bodies with the CPU engine's own FreeBodies (the
 * seeding simulation's: Newton–Euler by symplectic Euler, gravity, the contacts with the walls and
 * the other solids, free-body-contacts.ts), and moving-objects.ts places their particles at the
 * new pose for the next sub-timestep, as it places scripted bodies.
 */
import type { StepContext } from '../particle/context.ts';
import type { FreeBodies } from '../particle/free-bodies.ts';
import { dispatch, Kernels, readBuffer, storageBuffer, uniformBuffer, WORKGROUP } from './device.ts';

/** Most free bodies the backend couples (the reduction's uniform). */
export const MAX_FREE = 8;
/** The reduction's uniform: n, the entries' first vec4, bodies, workgroups, then each body's centre of mass. */
const UNIFORM_BYTES = 16 + 16 * MAX_FREE;

const WGSL = /* wgsl */ `
struct Free { n: u32, base: u32, count: u32, groups: u32, com: array<vec4<f32>, ${MAX_FREE}> }
@group(0) @binding(0) var<uniform> U: Free;
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> share: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> parts: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> sums: array<vec4<f32>>;
var<workgroup> shF: array<vec3<f32>, ${WORKGROUP}>;
var<workgroup> shT: array<vec3<f32>, ${WORKGROUP}>;

fn treeSum(l: u32) {
  for (var s = ${WORKGROUP / 2}u; s > 0u; s = s >> 1u) {
    if (l < s) { shF[l] += shF[l + s]; shT[l] += shT[l + s]; }
    workgroupBarrier();
  }
}

// Per workgroup and body: Σ Δv and Σ (x − c) × Δv over its slots; the entries cleared.
@compute @workgroup_size(${WORKGROUP}) fn freeParts(@builtin(global_invocation_id) g: vec3<u32>, @builtin(local_invocation_id) li: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>) {
  let a = g.x;
  let l = li.x;
  var J = vec4<f32>(0.0);
  var x = vec3<f32>(0.0);
  if (a < U.n) {
    J = share[U.base + a];
    share[U.base + a] = vec4<f32>(0.0);
    x = pos[a].xyz;
  }
  for (var k = 0u; k < U.count; k++) {
    var f = vec3<f32>(0.0);
    if (J.w == f32(k + 1u)) { f = J.xyz; }
    shF[l] = f;
    shT[l] = cross(x - U.com[k].xyz, f);
    workgroupBarrier();
    treeSum(l);
    if (l == 0u) {
      let e = 2u * (wg.x * ${MAX_FREE}u + k);
      parts[e] = vec4<f32>(shF[0], 0.0);
      parts[e + 1u] = vec4<f32>(shT[0], 0.0);
    }
    workgroupBarrier();
  }
}

// One workgroup: the partials of every body, in a fixed order, added to its sums.
@compute @workgroup_size(${WORKGROUP}) fn freeTotal(@builtin(local_invocation_id) li: vec3<u32>) {
  let l = li.x;
  for (var k = 0u; k < U.count; k++) {
    var f = vec3<f32>(0.0);
    var t = vec3<f32>(0.0);
    for (var w = l; w < U.groups; w += ${WORKGROUP}u) {
      let e = 2u * (w * ${MAX_FREE}u + k);
      f += parts[e].xyz;
      t += parts[e + 1u].xyz;
    }
    shF[l] = f;
    shT[l] = t;
    workgroupBarrier();
    treeSum(l);
    if (l == 0u) {
      sums[2u * k] = vec4<f32>(sums[2u * k].xyz + shF[0], 0.0);
      sums[2u * k + 1u] = vec4<f32>(sums[2u * k + 1u].xyz + shT[0], 0.0);
    }
    workgroupBarrier();
  }
}
`;

const ENTRIES = ['freeParts', 'freeTotal'] as const;

export class GpuFreeBodies {
  private readonly kernels: Kernels<(typeof ENTRIES)[number]>;
  /** The uniforms of the two sources: `keep` from 3 cap, the implicit viscosity's share (viscosity-solve.ts freeShare). */
  private readonly uniforms: GPUBuffer[];
  private readonly bases: number[];
  private readonly parts: GPUBuffer;
  private readonly sums: GPUBuffer;
  private readonly head: ArrayBuffer = new ArrayBuffer(UNIFORM_BYTES);
  private readonly free: FreeBodies;
  /** The liquid particle's mass (kg; one liquid: refuse.ts). */
  private readonly mass: number;

  /** `liquid`: the liquid's material index; `capacity`: the step's P.cap. */
  constructor(private readonly device: GPUDevice, private readonly host: StepContext, liquid: number, capacity: number, viscosityBase: number | null) {
    const F = host.freeBodies;
    if (!F) throw new Error('the scene has no free body');
    if (F.count > MAX_FREE) throw new Error(`${F.count} free bodies: the WebGPU backend couples ${MAX_FREE}`);
    this.free = F;
    this.mass = host.mass[liquid];
    this.kernels = new Kernels(device, 'free bodies', WGSL, ENTRIES, 5, 0);
    this.bases = viscosityBase === null ? [3 * capacity] : [3 * capacity, viscosityBase];
    this.uniforms = this.bases.map(() => uniformBuffer(device, UNIFORM_BYTES, 'free bodies'));
    this.parts = storageBuffer(device, 32 * MAX_FREE * Math.ceil(capacity / WORKGROUP), 'free bodies: partial sums');
    this.sums = storageBuffer(device, 32 * MAX_FREE, 'free bodies: sums');
  }

  get count(): number { return this.free.count; }

  /** Start of a sub-timestep over `n` slots: the sums cleared, the bodies' centres of mass uploaded. */
  begin(enc: GPUCommandEncoder, n: number): void {
    const u = new Uint32Array(this.head), f = new Float32Array(this.head), F = this.free;
    u[0] = n; u[2] = F.count; u[3] = Math.ceil(n / WORKGROUP);
    for (let k = 0; k < F.count; k++) f.set(F.position(k), 4 + 4 * k);
    this.uniforms.forEach((b, i) => {
      u[1] = this.bases[i];
      this.device.queue.writeBuffer(b, 0, this.head);
    });
    enc.clearBuffer(this.sums);
  }

  /**
   * Adds what the slots hold to the sums and clears them: `keep` (free-wgsl.ts), or with `viscosity`
   * the implicit viscosity's share (viscosity-solve.ts freeShare, the buffer given).
   */
  reduce(pass: GPUComputePassEncoder, pos: GPUBuffer, share: GPUBuffer, n: number, viscosity = false): void {
    const uniform = this.uniforms[viscosity ? 1 : 0];
    if (!uniform) throw new Error('the free bodies were set up without the implicit viscosity\'s share');
    const group = this.kernels.bind(this.device, [uniform, pos, share, this.parts, this.sums]);
    dispatch(pass, this.kernels.pipelines.freeParts, group, n);
    dispatch(pass, this.kernels.pipelines.freeTotal, group, WORKGROUP);
  }

  /**
   * End of a sub-timestep of length dt (after its commands are submitted): the sums read back, each
   * body given −m Σ Δv and −m Σ (x − c) × Δv (free-bodies.ts impulse), and integrated on the host
   * (FreeBodies.end: the step, the contacts, the pose).
   */
  async end(dt: number): Promise<void> {
    const F = this.free, s = new Float32Array(await readBuffer(this.device, this.sums, 32 * F.count)), m = -this.mass;
    F.impulse.fill(0);
    F.force.fill(0);
    for (let k = 0; k < F.count; k++) {
      for (let a = 0; a < 3; a++) {
        F.impulse[6 * k + a] = m * s[8 * k + a];
        F.impulse[6 * k + 3 + a] = m * s[8 * k + 4 + a];
      }
    }
    F.end(this.host, dt);
  }

  destroy(): void {
    for (const b of this.uniforms) b.destroy();
    this.parts.destroy();
    this.sums.destroy();
  }
}
