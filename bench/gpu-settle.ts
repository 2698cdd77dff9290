/**
 * A viscous pool settling from its start lattice (the hydrostatic validation's pool: ν 1e-3 m²/s,
 * unfiltered, no cohesion, a no-slip box 1.5 × its depth) on the WebGPU backend against the CPU
 * engine, frame by frame: the centre of mass's height from the start over the depth (%), the
 * largest speed over √(g d), PBF's last mean compression (left over its tolerance, it feeds the
 * warm start while the liquid moves: still-water.ts pbfLeftOver, src/gpu/pbf-feed.ts; docs/decisions.md
 * "The feed where PBF is left with compression") and the gate's state.
 *
 *   npx tsx bench/gpu-settle.ts [width cm=4.8] [depth cm=3.2] [frames=10] [key=value …]
 *
 * key=value: r (m, 0.002), nu (m²/s, 1e-3), cpu=0 / gpu=0 (one engine only), fps (30), and
 * p.name=value particle settings. Needs the optional `webgpu` package and an adapter
 * (VK_ICD_FILENAMES names SwiftShader's where no GPU).
 */
import { requestNodeGpu, releaseNodeGpu } from '../src/cli/webgpu.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { ParticleSimulation } from '../src/particle/simulation.ts';
import { densityTolerance } from '../src/particle/solve-setup.ts';
import { pbfLeftOver, stillWaterOf } from '../src/particle/still-water.ts';
import { parseScene } from '../src/scene/parse.ts';
import type { SceneInput } from '../src/scene/schema.ts';

const args = process.argv.slice(2);
const posArgs = args.filter((a) => !a.includes('='));
const kv = Object.fromEntries(args.filter((a) => a.includes('=')).map((a) => a.split('=') as [string, string]));
const width = Number(posArgs[0] ?? 4.8) / 100, depth = Number(posArgs[1] ?? 3.2) / 100, frames = Number(posArgs[2] ?? 10);
const r = Number(kv.r ?? 0.002), nu = Number(kv.nu ?? 1e-3), fps = Number(kv.fps ?? 30);
const particle: Record<string, unknown> = { radius: r };
for (const [k, v] of Object.entries(kv)) if (k.startsWith('p.')) particle[k.slice(2)] = v === 'true' ? true : v === 'false' ? false : Number.isNaN(Number(v)) ? v : Number(v);
const input: SceneInput = {
  name: 'settling', fps, duration: 10,
  domain: { min: [0, 0, 0], max: [width, 1.5 * depth, width], boundary: 'noslip' },
  materials: { liquid: { kind: 'liquid', density: 1000, viscosity: { value: nu, unit: 'm2/s' } } },
  adhesion: [{ between: ['liquid', 'liquid'], type: 'attract', strength: 0 }],
  bodies: [{ material: 'liquid', shape: { type: 'box', center: [width / 2, depth / 2, width / 2], size: [width, depth, width] } }],
  particle,
};
const scene = parseScene(input);
const u = Math.sqrt(9.81 * depth);
const height = (pos: ArrayLike<number>, n: number): number => {
  let y = 0;
  for (let i = 0; i < n; i++) y += pos[3 * i + 1];
  return y / n;
};
const largest = (vel: ArrayLike<number>, n: number): number => {
  let m = 0;
  for (let i = 0; i < n; i++) m = Math.max(m, Math.hypot(vel[3 * i], vel[3 * i + 1], vel[3 * i + 2]));
  return m;
};
const gpuRun = kv.gpu !== '0', cpuRun = kv.cpu !== '0';
const nodeGpu = gpuRun ? await requestNodeGpu() : null;
const gpu = nodeGpu ? new GpuParticleSimulation(nodeGpu.device, scene) : null;
const cpu = cpuRun ? new ParticleSimulation(scene) : null;
const n0 = gpu?.count ?? cpu!.ctx.liquid.count;
console.log(`settling pool ${width * 100} × ${width * 100} cm, ${depth * 100} cm deep, r ${r * 1000} mm, ν ${nu}, ${n0} particles, adapter ${nodeGpu?.adapter ?? '-'}; ${JSON.stringify(particle)}`);
let g0 = NaN, c0 = NaN;
if (gpu) { const { pos } = await gpu.read(); g0 = height(pos, gpu.count); }
if (cpu) c0 = height(cpu.ctx.liquid.pos, cpu.ctx.liquid.count);
const pct = (y: number, y0: number): string => (((y - y0) / depth) * 100).toFixed(2).padStart(6);
for (let f = 1; f <= frames; f++) {
  let gs = '-', cs = '-';
  if (gpu) {
    const t0 = performance.now();
    const st = await gpu.stepFrame();
    const ms = performance.now() - t0;
    const { pos, vel } = await gpu.read();
    gs = `${pct(height(pos, gpu.count), g0)} % ${(largest(vel, gpu.count) / u).toFixed(4)} PBF left ${(gpu.densityError * 100).toFixed(3)} % still ${gpu.maxima.still} (${ms.toFixed(0)} ms, ${st.counters.substeps} sub-timesteps)`;
  }
  if (cpu) {
    // The feed's inputs as the frame's last sub-timestep left them.
    cpu.stepFrame();
    const L = cpu.ctx.liquid, left = pbfLeftOver(cpu.ctx, densityTolerance(cpu.ctx));
    cs = `${pct(height(L.pos, L.count), c0)} % ${(largest(L.vel, L.count) / u).toFixed(4)} PBF left ${(cpu.ctx.densityError * 100).toFixed(3)} % (${left ? 'over' : 'within'}) still ${stillWaterOf(cpu.ctx)}`;
  }
  console.log(`frame ${f}: GPU ${gs} | CPU ${cs}`);
}
gpu?.destroy();
cpu?.dispose();
if (nodeGpu) releaseNodeGpu();
