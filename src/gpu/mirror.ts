/// <reference types="@webgpu/types" />
/**
 * The WebGPU backend behind `viscid run --backend webgpu`: the GPU steps the frames
 * (simulation.ts), and after each one its particles are copied into a particle-engine simulation on
 * the host (the mirror), whose queries then answer as for a CPU run: the points, the surface job
 * or mesh, the metrics, and the checkpoint (a particle-engine checkpoint of the GPU's state, which
 * either backend resumes). The mirror is not stepped; its per-particle surface flags stay those of
 * the frame it was seeded at.
 */
import type { StepStats } from '../api.ts';
import { ParticleSimulation } from '../particle/simulation.ts';
import { GpuParticleSimulation } from './simulation.ts';

export class GpuParticleRun {
  private readonly gpu: GpuParticleSimulation;

  /** `mirror`: a particle simulation of the scene, new or restored from a checkpoint (the GPU starts from its liquid). */
  constructor(device: GPUDevice, readonly mirror: ParticleSimulation) {
    this.gpu = new GpuParticleSimulation(device, mirror.scene, mirror);
  }

  /** One frame on the GPU, then its particles into the mirror. */
  async stepFrame(): Promise<StepStats> {
    const stats = await this.gpu.stepFrame();
    const { pos, vel, density } = await this.gpu.read();
    const ctx = this.mirror.ctx, L = ctx.liquid, n = this.gpu.count;
    if (L.count !== n) throw new Error(`the host copy holds ${L.count} particles, the GPU ${n}`);
    L.pos.set(pos);
    L.vel.set(vel);
    L.density.set(density);
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
