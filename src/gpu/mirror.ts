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
 * read the particles' own; their ids (LiquidParticles.id: a particle's id at frame 0 is its
 * index then); and the warm starts a resumed run starts from, as the CPU's checkpoint keeps them:
 * the pressure's p/δt² (LiquidParticles.lambda, vel.w on the GPU) and the implicit viscosity's last
 * change (its channel), so a run resumed from the copy's checkpoint (on the GPU or the CPU)
 * solves its first sub-timestep as the uninterrupted run does.
 */
import { GelSolve } from '../particle/gel-implicit.ts';
import type { StepStats } from '../api.ts';
import { ParticleSimulation } from '../particle/simulation.ts';
import { WARM_START_CHANNEL } from '../particle/viscosity-weiler.ts';
import { restoreStillWater } from '../particle/still-water.ts';
import { GpuParticleSimulation } from './simulation.ts';
import { liquidMaterials } from './liquids.ts';
import { UNSET } from './temperature.ts';

export class GpuParticleRun {
  private readonly gpu: GpuParticleSimulation;

  /** `mirror`: a particle simulation of the scene, new or restored from a checkpoint (the GPU starts from its liquid). */
  /** The host copy's ids at the start, by the GPU's particle index (GpuParticles.id). */
  private readonly ids: Int32Array;
  /** The host's next id when the run was seeded: that of the first particle let in on the GPU. */
  private readonly firstNew: number;

  /** Per liquid index (GpuParticles.liquid), its material (liquids.ts). */
  private readonly materials: number[];

  constructor(device: GPUDevice, readonly mirror: ParticleSimulation) {
    this.gpu = new GpuParticleSimulation(device, mirror.scene, mirror);
    this.materials = liquidMaterials(mirror.scene);
    const L = mirror.ctx.liquid;
    this.ids = L.id.slice(0, L.count);
    this.firstNew = L.nextId;
  }

  /** One frame on the GPU, then its particles into the mirror. */
  async stepFrame(): Promise<StepStats> {
    const stats = await this.gpu.stepFrame();
    const { pos, vel, lambda, density, id, liquid, surface, normal } = await this.gpu.read(true);
    const ctx = this.mirror.ctx, L = ctx.liquid, n = this.gpu.count;
    // Rows for liquid let in (sources.ts; the rows' fields are all written below), each row its liquid's material (liquids.ts).
    if (n > L.capacity) L.reserve(n);
    for (let i = 0; i < n; i++) L.material[i] = this.materials[liquid[i]];
    L.count = n;
    L.pos.set(pos);
    L.vel.set(vel);
    L.density.set(density);
    L.lambda.set(lambda);
    await this.warmStarts(id);
    await this.fractions(id, liquid);
    await this.temperatures(id);
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
      // The implicit step's warm start and carry (gel-implicit.ts), for the ids the GPU has given out.
      await this.gpu.gel.readSolve((gel.implicit ??= new GelSolve()), this.gpu.nextId, hostId, this.gpu.nextId > 0 ? Math.max(L.nextId, hostId(this.gpu.nextId - 1) + 1) : L.nextId);
    }
    ctx.frame = this.gpu.frame;
    ctx.time = this.gpu.time;
    restoreStillWater(ctx, this.gpu.maxima.still);
    // PBF's last compression (pbf-feed.ts), which decides its next feed where it was left over its tolerance.
    ctx.densityError = this.gpu.densityError;
    this.mirror.particlesMoved();
    return stats;
  }

  /**
   * The implicit viscosity's warm start into the copy's channel (viscosity-weiler.ts, made here as
   * the CPU stage makes it where the copy has none), from the GPU's by particle id, so that a run
   * resumed from the copy's checkpoint starts its first solves where this one would have.
   */
  private async warmStarts(id: Uint32Array): Promise<void> {
    if (!this.gpu.viscosity) return;
    const warm = await this.gpu.viscosity.warmStart();
    const ctx = this.mirror.ctx, L = ctx.liquid;
    const ch = L.channel(WARM_START_CHANNEL) ?? L.addChannel({ name: WARM_START_CHANNEL, kind: 'f32', width: 3, initial: new Float64Array(3 * ctx.mass.length) });
    const c = ch.array;
    for (let i = 0; i < L.count; i++) for (let k = 0; k < 3; k++) c[3 * i + k] = warm[4 * id[i] + k];
  }

  /**
   * The liquids' fractions into the copy's channel (colour-field.ts: its colours, and its
   * checkpoint), from the GPU's by particle id (mixing.ts; a row never mixed is all its own liquid).
   */
  private async fractions(id: Uint32Array, liquid: Uint8Array): Promise<void> {
    const mix = this.mirror.ctx.mixing;
    if (!this.gpu.mixing || !mix) return;
    const f = await this.gpu.mixing.read(this.gpu.capacity), w = mix.width, c = mix.fractions.array, n = this.mirror.ctx.liquid.count;
    for (let i = 0; i < n; i++) {
      const o = 8 * id[i];
      let sum = 0;
      for (let l = 0; l < this.materials.length; l++) sum += f[o + l];
      c.fill(0, w * i, w * (i + 1));
      if (sum === 0) c[w * i + this.materials[liquid[i]]] = 1;
      else this.materials.forEach((m, l) => { c[w * i + m] = f[o + l]; });
    }
  }

  /** The temperatures into the copy's channel (temperature.ts: its checkpoint), from the GPU's by particle id (src/gpu/temperature.ts). */
  private async temperatures(id: Uint32Array): Promise<void> {
    const st = this.mirror.ctx.temperature, heat = this.gpu.viscosity?.heat;
    if (!st || !heat) return;
    const T = await heat.read(this.gpu.capacity), L = this.mirror.ctx.liquid, out = st.T;
    for (let i = 0; i < L.count; i++) out[i] = T[id[i]] > UNSET / 10 ? T[id[i]] : st.initial[L.material[i]];
  }

  dispose(): void {
    this.gpu.destroy();
    this.mirror.dispose();
  }
}
