/**
 * What the static walls' holds cost the WebGPU step (src/gpu/hold.ts): scenes/jelly-block.json at
 * `--radius` with the holds and without (GpuParticleSimulation's options.wallHolds), two
 * simulations stepped frame about in one process, the first `--skip` frames of each untimed (the
 * fall: the holds act once the block is on its floor; the pipelines compile in the first). A
 * frame's time: wall time to its last result (onSubmittedWorkDone), and the process's CPU time
 * over it (process.cpuUsage: SwiftShader runs the kernels on the process's threads, so on a loaded
 * machine its CPU time is the steadier measure). On SwiftShader the times are a ratio on the CPU,
 * not a GPU's.
 *
 *   npx tsx bench/gpu-hold-ab.ts [--radius 0.004] [--skip 12] [--frames 6]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene } from '../src/scene/parse.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { releaseNodeGpu, requestNodeGpu } from '../src/cli/webgpu.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const radius = Number(opt('radius', '0.004')), skip = Number(opt('skip', '12')), frames = Number(opt('frames', '6'));
const json = JSON.parse(readFileSync(new URL('../scenes/jelly-block.json', import.meta.url), 'utf8'));
json.particle = { ...json.particle, radius };
const scene = parseScene(json);

const { device, adapter } = await requestNodeGpu();
console.log(`adapter: ${adapter}; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const sims = [new GpuParticleSimulation(device, scene), new GpuParticleSimulation(device, scene, undefined, { wallHolds: false })];
const ms = [0, 0], cpu = [0, 0], ratios: number[] = [];
const held = { wallHolds: 0, frictionHolds: 0 };
for (let f = 1; f <= skip + frames; f++) {
  const t = [0, 0], c = [0, 0];
  // Alternate which goes first, so that neither always follows the other's work.
  for (const k of f % 2 === 0 ? [0, 1] : [1, 0]) {
    const t0 = performance.now(), c0 = process.cpuUsage();
    const st = await sims[k].stepFrame();
    await device.queue.onSubmittedWorkDone();
    t[k] = performance.now() - t0;
    const dc = process.cpuUsage(c0);
    c[k] = (dc.user + dc.system) / 1000;
    if (k === 0 && f > skip) { held.wallHolds += st.counters.wallHolds ?? 0; held.frictionHolds += st.counters.frictionHolds ?? 0; }
  }
  if (f <= skip) continue;
  ms[0] += t[0]; ms[1] += t[1];
  cpu[0] += c[0]; cpu[1] += c[1];
  ratios.push(c[0] / c[1]);
}
ratios.sort((a, b) => a - b);
console.log(`jelly-block at ${radius * 1000} mm, ${sims[0].count} particles, frames ${skip + 1}–${skip + frames}: with the holds ${(ms[0] / frames).toFixed(0)} ms a frame (wall), without ${(ms[1] / frames).toFixed(0)}: ${(ms[0] / ms[1]).toFixed(3)}; CPU time ${(cpu[0] / frames).toFixed(0)} against ${(cpu[1] / frames).toFixed(0)} ms a frame: ${(cpu[0] / cpu[1]).toFixed(3)} (median of the frames' ratios ${ratios[ratios.length >> 1].toFixed(3)}); bodies held a frame: ${(held.wallHolds / frames).toFixed(1)} by the solve's hold, ${(held.frictionHolds / frames).toFixed(1)} by the friction's; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const s of sims) s.destroy();
releaseNodeGpu();
