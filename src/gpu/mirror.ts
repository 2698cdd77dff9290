/// <reference types="@webgpu/types" />
/**
 * The WebGPU backend behind `viscid run --backend webgpu`: the GPU steps the frames
 * (simulation.ts), and after each one its particles are copied into a particle-engine simulation on
 * the host (the mirror), whose queries then answer as for a CPU run: the points, the surface job
 * or mesh, the metrics, and the checkpoint (a particle-engine checkpoint of the GPU's state, which
 * either backend resumes). The mirror is not stepped. Each frame it takes the GPU's particles in
 * the GPU's slot order, as many as the GPU holds now (sinks remove some: sinks.ts), with their
 * surface flags and normals from the surface test run on the GPU at the frame's positions
 * (`read(true)`; surface.ts), so the "surface" colour mode and `output.normals: "particles"`
 * read the particles' own; and their ids (LiquidParticles.id: a particle's id at frame 0 is its
 * index then).
 */
import type { StepStats } from '../api.ts';
import { ParticleSimulation } from '../particle/simulation.ts';
import { GpuParticleSimulation } from './simulation.ts';

export class GpuParticleRun {
  private readonly gpu: GpuParticleSimulation;

  /** `mirror`: a particle simulation of the scene, new or restored from a checkpoint (the GPU starts from its liquid). */
  /** The host copy's ids at the start, by the GPU's particle index (GpuParticles.id). */
  private readonly ids: Int32Array;
  /** The host's next id when the run was seeded: that of the first particle let in on the GPU. */
  private readonly firstNew: number;

  constructor(device: GPUDevice, readonly mirror: ParticleSimulation) {
    this.gpu = new GpuParticleSimulation(device, mirror.scene, mirror);
    const L = mirror.ctx.liquid;
    this.ids = L.id.slice(0, L.count);
    this.firstNew = L.nextId;
  }

  /** One frame on the GPU, then its particles into the mirror. */
  async stepFrame(): Promise<StepStats> {
    const stats = await this.gpu.stepFrame();
    const { pos, vel, density, id, surface, normal } = await this.gpu.read(true);
    const ctx = this.mirror.ctx, L = ctx.liquid, n = this.gpu.count;
    // One liquid (refuse.ts): every row takes its material.
    let material = 0;
    while (material < ctx.isLiquid.length && !ctx.isLiquid[material]) material++;
    // Rows for liquid let in (sources.ts; the rows' fields are all written below).
    if (n > L.capacity) L.reserve(n);
    for (let i = L.count; i < n; i++) L.material[i] = material;
    L.count = n;
    L.pos.set(pos);
    L.vel.set(vel);
    L.density.set(density);
    if (surface && normal) {
      L.surface.set(surface);
      L.normal.set(normal);
    }
    // A particle let in on the GPU has the id after the seeding liquid's (GpuParticles.id); the
    // sources took the host's ids for it in the same order (sources.ts runs emit.ts on this liquid).
    const n0 = this.ids.length;
    for (let i = 0; i < n; i++) L.id[i] = id[i] < n0 ? this.ids[id[i]] : this.firstNew + id[i] - n0;
    // The sources' carries and which bodies were let in, so that a checkpoint of the copy resumes them.
    const emitted = this.gpu.emitterState();
    if (emitted) this.mirror.emitters.restore(emitted);
    // A gel's springs, so that a checkpoint of the copy resumes them (gel-checkpoint.ts).
    if (this.gpu.gel && ctx.gel) {
      const sp = await this.gpu.gel.read(), gel = ctx.gel, hostId = (i: number): number => (i < n0 ? this.ids[i] : this.firstNew + i - n0);
      gel.count = 0;
      gel.reserve(sp.idA.length);
      for (let q = 0; q < sp.idA.length; q++) { gel.idA[q] = hostId(sp.idA[q]); gel.idB[q] = hostId(sp.idB[q]); gel.rest[q] = sp.rest[q]; }
      gel.count = sp.idA.length;
    }
    ctx.frame = this.gpu.frame;
    ctx.time = this.gpu.time;
    this.mirror.particlesMoved();
    return stats;
  }

  dispose(): void {
    this.gpu.destroy();
    this.mirror.dispose();
  }
}
