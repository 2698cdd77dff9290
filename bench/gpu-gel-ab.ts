/**
 * The WebGPU backend's gel cube (tests/gpu/gel.test.ts's: 3 cm, 125 particles of 3 mm, dropped
 * 2 cm) stepped by another revision's src/gpu (`--base`) and this tree's, two simulations on one
 * device in one process, frames alternated; per frame the process's CPU time (SwiftShader runs
 * the kernels on the process's threads) and wall time, frame 1 (the pipelines' compiling) left
 * out of the sums; and this tree's gel CG iterations a solve (counters gelIterations / gelSolves).
 * On SwiftShader the times are a ratio on the CPU, not a GPU's.
 *
 *   mkdir -p .ab-base && git archive REV src | tar -x -C .ab-base
 *   npx tsx bench/gpu-gel-ab.ts --base .ab-base [--decay 0] [--frames 10]
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseScene } from '../src/scene/parse.ts';
import { GpuParticleSimulation as New } from '../src/gpu/simulation.ts';
import { releaseNodeGpu, requestNodeGpu } from '../src/cli/webgpu.ts';
const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const decay = Number(opt('decay', '0')), frames = Number(opt('frames', '10')), base = opt('base', '');
if (!base) throw new Error('--base DIR: a tree made by `git archive REV src | tar -x -C DIR`, DIR inside the repository');
const { GpuParticleSimulation: Old } = (await import(pathToFileURL(resolve(base, 'src/gpu/simulation.ts')).href)) as { GpuParticleSimulation: typeof New };
const scene = parseScene({ fps: 30, duration: 1, domain: { min: [-0.1, 0, -0.1], max: [0.1, 0.2, 0.1], boundary: 'noslip', faces: { ymax: 'open' } },
  materials: { jelly: { kind: 'liquid', density: 1100, viscosity: { value: 1, unit: 'Pa.s' }, viscoelastic: { elasticModulus: 2000, elasticLimit: 0.3, yieldRate: 50, decay } } },
  bodies: [{ material: 'jelly', shape: { type: 'box', center: [0, 0.035, 0], size: [0.03, 0.03, 0.03] } }], particle: { radius: 0.003 } } as any);
const { device, adapter } = await requestNodeGpu();
console.log(`adapter: ${adapter}; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const sims = [new Old(device, scene), new New(device, scene)];
const cpu = [0, 0], wall = [0, 0]; const ratios: number[] = []; let gelIt = 0, gelSolves = 0;
for (let f = 1; f <= frames; f++) {
  const per = [0, 0];
  for (const k of f % 2 ? [0, 1] : [1, 0]) {
    const c0 = process.cpuUsage(), t0 = performance.now();
    const st = await sims[k].stepFrame();
    await device.queue.onSubmittedWorkDone();
    const c = process.cpuUsage(c0);
    per[k] = (c.user + c.system) / 1000;
    if (f > 1) { cpu[k] += per[k]; wall[k] += performance.now() - t0; }
    if (k === 1) { gelIt += st.counters.gelIterations ?? 0; gelSolves += st.counters.gelSolves ?? 0; }
  }
  if (f > 1) ratios.push(per[1] / per[0]);
  console.log(`frame ${f}: CPU ms base ${per[0].toFixed(0)} this ${per[1].toFixed(0)}`);
}
ratios.sort((a, b) => a - b);
const m = frames - 1;
console.log(`decay ${decay}, frames 2-${frames}: CPU ms/frame base ${(cpu[0] / m).toFixed(0)}, this ${(cpu[1] / m).toFixed(0)}, ratio of sums ${(cpu[1] / cpu[0]).toFixed(2)}, median per-frame ratio ${ratios[ratios.length >> 1].toFixed(2)}; wall ms ${(wall[0] / m).toFixed(0)} / ${(wall[1] / m).toFixed(0)}; gel CG iterations per solve ${(gelIt / Math.max(1, gelSolves)).toFixed(1)} (${gelSolves} solves); load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const s of sims) s.destroy();
releaseNodeGpu();
