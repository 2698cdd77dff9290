/**
 * What the stable counting sort costs the WebGPU step (src/gpu/neighbours.ts SETTLE_WGSL: each
 * bucket's run put back in its slots' order after the scatter, so that a run repeats itself bit for
 * bit and resumes from a checkpoint bit for bit): a scene with the settle and without
 * (GpuParticleSimulation's options.stableSort), two simulations stepped frame about in one process,
 * the first `--skip` frames of each untimed (the pipelines compile in the first). A frame's time:
 * wall time to its last result, and the process's CPU time over it (SwiftShader runs the kernels
 * on the process's threads; on a loaded machine the steadier measure). On SwiftShader the times
 * are a ratio on the CPU, not a GPU's.
 *
 *   npx tsx bench/gpu-sort-ab.ts [scenes/gpu-dam-break.json] [--radius 0.004] [--skip 1] [--frames 4]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene } from '../src/scene/parse.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { releaseNodeGpu, requestNodeGpu } from '../src/cli/webgpu.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'scenes/gpu-dam-break.json';
const radius = Number(opt('radius', '0.004')), skip = Number(opt('skip', '1')), frames = Number(opt('frames', '4'));
const json = JSON.parse(readFileSync(file, 'utf8'));
json.particle = { ...json.particle, radius };
const scene = parseScene(json);

const { device, adapter } = await requestNodeGpu();
console.log(`adapter: ${adapter}; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const sims = [new GpuParticleSimulation(device, scene), new GpuParticleSimulation(device, scene, undefined, { stableSort: false })];
const ms = [0, 0], cpu = [0, 0], ratios: number[] = [];
for (let f = 1; f <= skip + frames; f++) {
  const t = [0, 0], c = [0, 0];
  // Alternate which goes first, so that neither always follows the other's work.
  for (const k of f % 2 === 0 ? [0, 1] : [1, 0]) {
    const t0 = performance.now(), c0 = process.cpuUsage();
    await sims[k].stepFrame();
    await device.queue.onSubmittedWorkDone();
    t[k] = performance.now() - t0;
    const dc = process.cpuUsage(c0);
    c[k] = (dc.user + dc.system) / 1000;
  }
  if (f <= skip) continue;
  ms[0] += t[0]; ms[1] += t[1];
  cpu[0] += c[0]; cpu[1] += c[1];
  ratios.push(c[0] / c[1]);
}
ratios.sort((a, b) => a - b);
console.log(`${file} at ${radius * 1000} mm, ${sims[0].count} particles, frames ${skip + 1}–${skip + frames}: stable ${(ms[0] / frames).toFixed(0)} ms a frame (wall), unstable ${(ms[1] / frames).toFixed(0)}: ${(ms[0] / ms[1]).toFixed(3)}; CPU time ${(cpu[0] / frames).toFixed(0)} against ${(cpu[1] / frames).toFixed(0)} ms a frame: ${(cpu[0] / cpu[1]).toFixed(3)} (median of the frames' ratios ${ratios[ratios.length >> 1].toFixed(3)}); load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const s of sims) s.destroy();
releaseNodeGpu();
