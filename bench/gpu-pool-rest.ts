/**
 * A still water pool on the WebGPU backend against the CPU engine, frame by frame: RMS speed /
 * √(g h) of each (the measure of bench/pool-rest.ts and tests/particle/water-pool-start.test.ts).
 *
 *   npx tsx bench/gpu-pool-rest.ts [width cm=4] [depth cm=3.2] [frames=15] [key=value …]
 *
 * key=value: r (m, 0.004), nu (m²/s, 1e-6), cpu=0 (GPU only), and p.name=value particle settings.
 * Needs the optional `webgpu` package and an adapter (VK_ICD_FILENAMES names SwiftShader's where no GPU).
 */
import { requestNodeGpu, releaseNodeGpu } from '../src/cli/webgpu.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { ParticleSimulation } from '../src/particle/simulation.ts';
import { parseScene } from '../src/scene/parse.ts';
import type { SceneInput } from '../src/scene/schema.ts';

const args = process.argv.slice(2);
const posArgs = args.filter((a) => !a.includes('='));
const kv = Object.fromEntries(args.filter((a) => a.includes('=')).map((a) => a.split('=') as [string, string]));
const width = Number(posArgs[0] ?? 4) / 100, depth = Number(posArgs[1] ?? 3.2) / 100, frames = Number(posArgs[2] ?? 15);
const r = Number(kv.r ?? 0.004), nu = Number(kv.nu ?? 1e-6);
const particle: Record<string, unknown> = { radius: r };
for (const [k, v] of Object.entries(kv)) if (k.startsWith('p.')) particle[k.slice(2)] = v === 'true' ? true : v === 'false' ? false : Number.isNaN(Number(v)) ? v : Number(v);
const input: SceneInput = {
  name: 'pool', fps: 30, duration: 10,
  domain: { min: [0, 0, 0], max: [width, 2 * depth, width], boundary: 'noslip' },
  materials: { w: { kind: 'liquid', density: 1000, viscosity: { value: nu, unit: 'm2/s' } } },
  bodies: [{ material: 'w', shape: { type: 'box', center: [width / 2, depth / 2, width / 2], size: [width, depth, width] } }],
  particle,
};
const scene = parseScene(input);
const u = Math.sqrt(9.81 * depth);
const rms = (vel: ArrayLike<number>, n: number): number => {
  let sq = 0;
  for (let i = 0; i < 3 * n; i++) sq += vel[i] * vel[i];
  return Math.sqrt(sq / n) / u;
};
const { device, adapter } = await requestNodeGpu();
const gpu = new GpuParticleSimulation(device, scene);
const cpu = kv.cpu === '0' ? null : new ParticleSimulation(scene);
console.log(`pool ${width * 100}×${depth * 100} cm, r ${r * 1000} mm, ν ${nu}, ${gpu.count} particles, √(g h) ${u.toFixed(3)} m/s, adapter ${adapter}; ${JSON.stringify(particle)}`);
for (let f = 1; f <= frames; f++) {
  const t0 = performance.now();
  await gpu.stepFrame();
  const ms = performance.now() - t0;
  const { vel } = await gpu.read();
  cpu?.stepFrame();
  const c = cpu ? rms(cpu.ctx.liquid.vel, cpu.ctx.liquid.count).toFixed(4) : '-';
  console.log(`frame ${f}: RMS / √(g h) GPU ${rms(vel, gpu.count).toFixed(4)} CPU ${c} (GPU frame ${ms.toFixed(0)} ms wall)`);
}
gpu.destroy();
cpu?.dispose();
releaseNodeGpu();
