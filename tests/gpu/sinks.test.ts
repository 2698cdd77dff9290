/**
 * Liquid leaving the scene on the WebGPU step (src/gpu/sinks.ts) against the CPU particle engine
 * (src/particle/emit.ts), on SwiftShader (keep the scenes tiny): a sink that covers part of a
 * block at the start takes exactly the particles inside it, and then those that fall into it as on
 * the CPU; an open side of a dam break lets the front out as on the CPU; the host copy
 * (src/gpu/mirror.ts) follows the count, with every survivor's id once.
 */
import { describe, expect, it } from 'vitest';
import { GpuParticleSimulation } from '../../src/gpu/simulation.ts';
import { GpuParticleRun } from '../../src/gpu/mirror.ts';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { checked, GPU_SKIP, gpuDevice, releaseGpuAfterAll } from './device.ts';
import { skipTitle } from '../skips.ts';

releaseGpuAfterAll();

const r = 0.002;

function scene(extra: Partial<SceneInput>): SceneInput {
  return {
    fps: 30,
    duration: 1,
    materials: { w: { kind: 'liquid', viscosity: { value: 1e-4, unit: 'm2/s' } } },
    adhesion: [{ between: ['w', 'w'], type: 'attract', strength: 0 }],
    particle: { radius: r, viscositySolver: 'exchange', pressureAfterViscosity: false },
    ...extra,
  };
}

/** Counts after each of `frames` frames, GPU and CPU. */
async function counts(input: SceneInput, frames: number): Promise<{ gpu: number[]; cpu: number[]; n0: number }> {
  const device = await gpuDevice();
  const gpu = await checked(device, async () => {
    const sim = new GpuParticleSimulation(device, parseScene(input));
    const out: number[] = [];
    for (let f = 0; f < frames; f++) out.push((await sim.stepFrame()).counters.particles);
    sim.destroy();
    return out;
  });
  const cpuSim = new ParticleSimulation(parseScene(input));
  const n0 = cpuSim.ctx.liquid.count;
  const cpu: number[] = [];
  for (let f = 0; f < frames; f++) cpu.push(cpuSim.stepFrame().counters.particles);
  cpuSim.dispose();
  return { gpu, cpu, n0 };
}

describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'WebGPU sinks and open faces'), () => {
  it('a sink takes the particles that fall into it, as the CPU engine does', async () => {
    // A 6 × 6 × 6 block (216 particles, lattice rows at y = 1, 5, 9 … 21 mm) falling freely; a box
    // sink under y = 11 mm (between two rows) from t = 0. Its lower three rows are inside it at the
    // start: both engines start from the CPU engine's particles as it seeds them, without those
    // (108 left). Then the block falls into it: 5.4 mm by 1/30 s, 49 mm by 0.1 s. Measured: 72, 0,
    // 0 particles on both.
    const input = scene({
      bodies: [{ material: 'w', shape: { type: 'box', center: [0.012, 0.012, 0.012], size: [0.024, 0.024, 0.024] } }],
      sinks: [{ shape: { type: 'box', center: [0.012, -0.04, 0.012], size: [0.2, 0.102, 0.2] } }],
    });
    const { gpu, cpu, n0 } = await counts(input, 3);
    console.log(`sink under a falling block: particles ${gpu.join(', ')} on the GPU, ${cpu.join(', ')} on the CPU (of ${n0})`);
    expect(n0).toBe(108);
    // A row is 36 particles: within a third of one of the CPU at every frame.
    for (let f = 0; f < 3; f++) expect(Math.abs(gpu[f] - cpu[f])).toBeLessThanOrEqual(12);
    expect(gpu[0]).toBeLessThan(108);
    expect(gpu[2]).toBe(0);
  }, 600_000);

  it('lets a dam-break front out through an open side as the CPU engine does', async () => {
    // The 2 mm dam break of the step's tests (5 × 8 × 2 particles from x = 0 to 20 mm) in a box
    // open at x = 40 mm: the front passes it within 0.1 s, and what is beyond it by more than the
    // liquid's reach is removed.
    const input = scene({
      domain: { min: [0, 0, 0], max: [0.04, 0.06, 0.008], boundary: 'slip', faces: { xmax: 'open' } },
      bodies: [{ material: 'w', shape: { type: 'box', center: [0.01, 0.016, 0.004], size: [0.02, 0.032, 0.008] } }],
    });
    const { gpu, cpu, n0 } = await counts(input, 5);
    console.log(`dam break through an open side: particles ${gpu.join(', ')} on the GPU, ${cpu.join(', ')} on the CPU (of ${n0})`);
    // Removed by frame 5 on the CPU, and the GPU within 25 % of the CPU's removal + 4 particles.
    const lostCpu = n0 - cpu[4], lostGpu = n0 - gpu[4];
    expect(lostCpu).toBeGreaterThan(0);
    expect(Math.abs(lostGpu - lostCpu)).toBeLessThanOrEqual(0.25 * lostCpu + 4);
  }, 600_000);

  it('keeps the host copy at the GPU\'s count, each survivor\'s id once', async () => {
    const input = scene({
      bodies: [{ material: 'w', shape: { type: 'box', center: [0.012, 0.012, 0.012], size: [0.024, 0.024, 0.024] } }],
      sinks: [{ shape: { type: 'sphere', center: [0.012, 0.0, 0.012], radius: 0.011 } }],
    });
    const device = await gpuDevice();
    const { n, ids } = await checked(device, async () => {
      const run = new GpuParticleRun(device, new ParticleSimulation(parseScene(input)));
      await run.stepFrame();
      const L = run.mirror.ctx.liquid;
      const n = L.count, ids = new Set(Array.from(L.id.subarray(0, n)));
      run.dispose();
      return { n, ids };
    });
    expect(n).toBeLessThan(216);
    expect(n).toBeGreaterThan(100);
    expect(ids.size).toBe(n);
    for (const id of ids) expect(id >= 0 && id < 216).toBe(true);
  }, 600_000);
});
