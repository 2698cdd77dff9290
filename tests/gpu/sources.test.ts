/**
 * Liquid let in on the WebGPU step (src/gpu/sources.ts) against the CPU particle engine
 * (src/particle/emit.ts), on SwiftShader (tiny scenes): a spout pours a stream into a box as on the
 * CPU (the count let in, the stream's reach and centre of mass), a liquid body with a start time
 * appears then, and the host copy (src/gpu/mirror.ts) follows the count with every id once. The
 * pour runs with the exchange and at the defaults (the implicit viscosity between two pressure
 * solves, whose vectors and warm start are sized to the capacity: the scene starts with no liquid).
 */
import { describe, expect, it } from 'vitest';
import { GpuParticleRun } from '../../src/gpu/mirror.ts';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { checked, GPU_SKIP, gpuDevice, releaseGpuAfterAll, gpuFrames } from './device.ts';
import { skipTitle } from '../skips.ts';

releaseGpuAfterAll();

/** A spout (4 mm disk, 0.5 m/s down) 40 mm above the floor of a slip box; a 3-particle blob at t = 0.05 s. */
const input: SceneInput = {
  fps: 30,
  duration: 1,
  materials: { w: { kind: 'liquid', viscosity: { value: 1e-3, unit: 'm2/s' } } },
  particle: { radius: 0.002, viscositySolver: 'exchange', pressureAfterViscosity: false },
  domain: { min: [0, 0, 0], max: [0.024, 0.06, 0.024], boundary: 'slip' },
  sources: [{ material: 'w', center: [0.012, 0.04, 0.012], radius: 0.004, speed: 0.5 }],
  bodies: [{ material: 'w', shape: { type: 'box', center: [0.006, 0.01, 0.006], size: [0.008, 0.004, 0.004] }, start: 0.05 }],
};

/** Count, centre of mass height and lowest particle, m. */
function stream(pos: ArrayLike<number>, n: number): { n: number; cy: number; low: number } {
  let cy = 0, low = Infinity;
  for (let i = 0; i < n; i++) { cy += pos[3 * i + 1]; low = Math.min(low, pos[3 * i + 1]); }
  return { n, cy: cy / n, low };
}

/** The spout scene on both engines for three frames: the counts each frame, the stream's centre of mass and lowest particle. */
async function pour(scene: SceneInput, label: string): Promise<void> {
  const frames = 3;
  const gpuCounts: number[] = [];
  const run = await gpuFrames(scene, frames, (s) => gpuCounts.push(s.counters.particles));
  const gpu = { ...stream(run.pos, run.n), counts: gpuCounts, capacity: run.capacity, n: run.n };
  const cpuSim = new ParticleSimulation(parseScene(scene));
  const counts: number[] = [];
  for (let f = 0; f < frames; f++) counts.push(cpuSim.stepFrame().counters.particles);
  const L = cpuSim.ctx.liquid, cpu = stream(L.pos, L.count);
  cpuSim.dispose();
  const mm = (v: number) => (v * 1000).toFixed(2);
  console.log(`${label}: spout and a late body, frames 1–${frames}: particles ${gpu.counts.join(', ')} / ${counts.join(', ')} (GPU / CPU; room made for ${gpu.capacity}); centre of mass ${mm(gpu.cy)} / ${mm(cpu.cy)} mm, lowest ${mm(gpu.low)} / ${mm(cpu.low)} mm`);
  // The same emitters on both (the host runs emit.ts): the counts within one particle of each other.
  for (let f = 0; f < frames; f++) expect(Math.abs(gpu.counts[f] - counts[f])).toBeLessThanOrEqual(1);
  expect(gpu.counts[2]).toBeGreaterThan(gpu.counts[0]);
  expect(gpu.capacity).toBeGreaterThanOrEqual(gpu.n);
  expect(Math.abs(gpu.cy - cpu.cy)).toBeLessThan(0.002);
  expect(Math.abs(gpu.low - cpu.low)).toBeLessThan(0.003);
}

describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'WebGPU sources'), () => {
  it('pours from a spout and adds a late liquid body as the CPU engine does (the exchange, one pressure solve)', () => pour(input, 'exchange'), 600_000);

  it('pours from a spout at the defaults (the implicit viscosity between two pressure solves; its vectors sized to the capacity) as the CPU engine does', () => {
    const defaults: SceneInput = { ...input, particle: { radius: 0.002 } };
    return pour(defaults, 'defaults');
  }, 600_000);

  it('keeps the host copy at the GPU\'s count, each id once', async () => {
    const device = await gpuDevice();
    const { n, ids, next } = await checked(device, async () => {
      const run = new GpuParticleRun(device, new ParticleSimulation(parseScene(input)));
      await run.stepFrame();
      await run.stepFrame();
      const L = run.mirror.ctx.liquid, n = L.count;
      const out = { n, ids: new Set(Array.from(L.id.subarray(0, n))), next: L.nextId };
      run.dispose();
      return out;
    });
    expect(n).toBeGreaterThan(10);
    expect(ids.size).toBe(n);
    for (const id of ids) expect(id >= 0 && id < next).toBe(true);
  }, 600_000);
});
