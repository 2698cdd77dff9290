/**
 * A shipped scene, unchanged but for particle.radius, on the WebGPU backend (src/gpu/) and on the
 * CPU particle engine, frame by frame: the liquid's front (largest x), its centre of mass and
 * kinetic energy per particle, GPU / CPU. For the dam break at a radius SwiftShader can run
 * (the scene's 6 mm makes about 137 000 particles).
 *
 *   npx tsx bench/gpu-agree.ts [scenes/dam-break.json] [--radius 0.04] [--frames 10] [--cohesion S]
 * (--cohesion writes the liquid's own adhesion as lennard-jones of strength S, m/s²: 0 for none.)
 */
import { readFileSync } from 'node:fs';
import { parseScene } from '../src/scene/parse.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { ParticleSimulation } from '../src/particle/simulation.ts';
import { releaseNodeGpu, requestNodeGpu } from '../src/cli/webgpu.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const frames = Number(opt('frames', '10')), radius = Number(opt('radius', '0.04'));
const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'scenes/dam-break.json';
const input = JSON.parse(readFileSync(file, 'utf8')) as SceneInput;
delete (input as { $schema?: string }).$schema;
if (args.includes('--cohesion')) {
  const S = Number(opt('cohesion', '1'));
  const liquids = Object.keys(input.materials).filter((m) => input.materials[m].kind === 'liquid');
  input.adhesion = [...(input.adhesion ?? []), ...liquids.map((l) => ({ between: [l, l] as [string, string], type: 'lennard-jones' as const, strength: S }))];
}
const scene = parseScene({ ...input, particle: { ...input.particle, radius } });

function measure(pos: ArrayLike<number>, vel: ArrayLike<number>, n: number): { front: number; cy: number; ke: number } {
  let front = -Infinity, cy = 0, ke = 0;
  for (let i = 0; i < n; i++) {
    front = Math.max(front, pos[3 * i]);
    cy += pos[3 * i + 1] / n;
    ke += 0.5 * (vel[3 * i] ** 2 + vel[3 * i + 1] ** 2 + vel[3 * i + 2] ** 2) / n;
  }
  return { front, cy, ke };
}

const { device, adapter } = await requestNodeGpu();
console.log(`adapter: ${adapter}; load ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const gpu = new GpuParticleSimulation(device, scene);
const cpu = new ParticleSimulation(scene);
const L = cpu.ctx.liquid;
console.log(`${file} at r = ${radius} m: ${gpu.count} particles; frame: front mm, centre of mass height mm, kinetic energy per particle mJ/kg (GPU / CPU)`);
for (let f = 1; f <= frames; f++) {
  await gpu.stepFrame();
  cpu.stepFrame();
  const { pos, vel } = await gpu.read();
  const g = measure(pos, vel, gpu.count), c = measure(L.pos, L.vel, L.count);
  const mm = (v: number) => (v * 1000).toFixed(1);
  console.log(`  ${f}: front ${mm(g.front)} / ${mm(c.front)}, centre ${mm(g.cy)} / ${mm(c.cy)}, energy ${(g.ke * 1000).toFixed(2)} / ${(c.ke * 1000).toFixed(2)}`);
}
gpu.destroy();
cpu.dispose();
releaseNodeGpu();
