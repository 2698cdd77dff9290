/**
 * What the liquid's cohesion costs the WebGPU backend (src/gpu/adhesion-wgsl.ts): the honey drop's
 * honey alone (gpu-frames.ts's proxy: no ball, no sink, a closed box on the floor's height) with its
 * own adhesion at lennard-jones strength 1 and at 0, two simulations stepped frame about in one
 * process, the first frame of each untimed. On SwiftShader a functional check only.
 *
 *   npx tsx bench/gpu-cohesion-ab.ts [--radius 0.004] [--frames 4]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene } from '../src/scene/parse.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { releaseNodeGpu, requestNodeGpu } from '../src/cli/webgpu.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const radius = Number(opt('radius', '0.004')), frames = Number(opt('frames', '4'));
const input = JSON.parse(readFileSync(new URL('../scenes/honey-drop.json', import.meta.url), 'utf8')) as SceneInput;
delete (input as { $schema?: string }).$schema;
const honey = (S: number) => parseScene({
  ...input, bodies: (input.bodies ?? []).filter((b) => b.material === 'honey'), sinks: [],
  adhesion: [{ between: ['honey', 'honey'], type: 'lennard-jones', strength: S }],
  domain: { min: [-0.1115, -0.12, -0.1115], max: [0.1115, 0.3, 0.1115], boundary: 'noslip' },
  particle: { ...input.particle, radius },
});

const { device, adapter } = await requestNodeGpu();
console.log(`adapter: ${adapter}; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const sims = [new GpuParticleSimulation(device, honey(1)), new GpuParticleSimulation(device, honey(0))];
const ms = [0, 0], passes = [0, 0];
for (let f = 0; f <= frames; f++) {
  for (let k = 0; k < 2; k++) {
    const t0 = performance.now();
    const st = await sims[k].stepFrame();
    await device.queue.onSubmittedWorkDone();
    if (f === 0) continue;
    ms[k] += performance.now() - t0;
    passes[k] += st.counters.densityPassesLastSubstep;
  }
}
for (const [k, S] of [[0, 1], [1, 0]]) {
  console.log(`cohesion ${S} m/s²: ${sims[k].count} particles, ${(ms[k] / frames).toFixed(0)} ms a frame, ${(passes[k] / frames).toFixed(1)} density passes in a frame's last sub-timestep`);
}
console.log(`cohesion costs ${((ms[0] / ms[1] - 1) * 100).toFixed(0)} % a frame; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const s of sims) s.destroy();
releaseNodeGpu();
