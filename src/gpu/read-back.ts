/// <reference types="@webgpu/types" />
/**
 * The WebGPU step's particles read back to the host (simulation.ts `read`): the vec4 slots of
 * positions, velocities (with the pressure's warm start in w), the liquid and the near flag (pos.w: liquids-wgsl.ts), the per-slot scalars (ρ/ρ0 in x) and, after the surface test
 * (friction-wgsl.ts: the flag in pos.w's lowest bit, beside the liquid: liquids-wgsl.ts; the normal in dx), the surface flags and normals, unpacked
 * into xyz arrays in the GPU's slot order.
 */
import { readBuffer } from './device.ts';

export interface GpuParticles {
  /** xyz per particle, in the GPU's (bucket) order. */
  pos: Float32Array;
  vel: Float32Array;
  /** The pressure's warm start, p/δt² (m²/s², vel.w: pressure-wgsl.ts; LiquidParticles.lambda). */
  lambda: Float32Array;
  /** ρ/ρ0 of the last density measure (pbf.ts finish). */
  density: Float32Array;
  /** Each slot's particle: its index in the CPU engine's liquid at frame 0, then on for liquid let in (sources.ts). */
  id: Uint32Array;
  /** Each slot's liquid (its index among the scene's liquids: liquids.ts liquidMaterials), from pos.w (liquids-wgsl.ts). */
  liquid: Uint8Array;
  /** 1 where the last sub-timestep flagged the slot near a body at its start (guard-wgsl.ts markNear; LiquidParticles.nearObject), from pos.w. */
  near: Uint8Array;
  /** With `read(true)`: the surface test at these positions (surface.ts), 1 on the surface, and its unit normal there (zero elsewhere). */
  surface?: Uint8Array;
  normal?: Float32Array;
}

/**
 * Reads `n` slots of the buffers back; `dx` (the surface normals) only where given. `scId`: the
 * particle of each of the slot scalars' slots where they are not the slots `id` names now (the
 * sort carries pos, vel and id, not sc: after `read(true)`'s sort, sc is still in the order the
 * density correction measured it in); each particle's ρ/ρ0 is then taken by its id.
 */
export async function readParticles(
  device: GPUDevice, b: { pos: GPUBuffer; vel: GPUBuffer; id: GPUBuffer; sc: GPUBuffer; dx: GPUBuffer | null; scId?: GPUBuffer }, n: number,
): Promise<GpuParticles> {
  const [p4, v4, id, s4, n4, sid] = await Promise.all([
    readBuffer(device, b.pos, 16 * n), readBuffer(device, b.vel, 16 * n), readBuffer(device, b.id, 4 * n),
    readBuffer(device, b.sc, 16 * n), b.dx ? readBuffer(device, b.dx, 16 * n) : null, b.scId ? readBuffer(device, b.scId, 4 * n) : null,
  ]);
  const a = new Float32Array(p4), v = new Float32Array(v4), c = new Float32Array(s4), ids = new Uint32Array(id);
  const pos = new Float32Array(3 * n), vel = new Float32Array(3 * n), lambda = new Float32Array(n), density = new Float32Array(n);
  const liquid = new Uint8Array(n), near = new Uint8Array(n);
  // The slot of each particle's scalars, by its slot now (the identity where sc is in id's order).
  const scSlot = new Uint32Array(n);
  if (sid) {
    const byId = new Map<number, number>(), s = new Uint32Array(sid);
    for (let j = 0; j < n; j++) byId.set(s[j], j);
    for (let i = 0; i < n; i++) scSlot[i] = byId.get(ids[i]) ?? i;
  } else for (let i = 0; i < n; i++) scSlot[i] = i;
  for (let i = 0; i < n; i++) {
    liquid[i] = a[4 * i + 3] >> 2;
    near[i] = (a[4 * i + 3] >> 1) & 1;
    for (let k = 0; k < 3; k++) { pos[3 * i + k] = a[4 * i + k]; vel[3 * i + k] = v[4 * i + k]; }
    lambda[i] = v[4 * i + 3];
    density[i] = c[4 * scSlot[i]];
  }
  const out: GpuParticles = { pos, vel, lambda, density, id: ids, liquid, near };
  if (n4) {
    const N = new Float32Array(n4), flag = new Uint8Array(n), normal = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) {
      flag[i] = a[4 * i + 3] & 1;
      if (flag[i]) for (let k = 0; k < 3; k++) normal[3 * i + k] = N[4 * i + k];
    }
    out.surface = flag;
    out.normal = normal;
  }
  return out;
}
