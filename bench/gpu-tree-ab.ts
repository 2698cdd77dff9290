/**
 * The WebGPU step of another source tree (A) against this one (B) in one process, on one device: a
 * simulation of each of the scene, stepped frame by frame alternately (A B, then B A), each frame's CPU
 * (every thread: SwiftShader's marl threads do the kernels) summed by side, the first frame (compiles, the
 * cold solve) apart, and the two states compared word by word at the end. The two trees' kernels differ in
 * their WGSL, so each compiles its own pipelines (device.ts Kernels keys them by code).
 *   npx tsx bench/gpu-tree-ab.ts TREE [scene] [frames]
 * TREE: a directory holding another commit's src/ (git archive gpu65 src tests/particle | tar -x -C TREE);
 * scene: bench/gpu-scenes.ts.
 */
import { resolve } from 'node:path';
import { requestNodeGpu, releaseNodeGpu } from '../src/cli/webgpu.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { parseScene } from '../src/scene/parse.ts';
import { gpuBenchScenes } from './gpu-scenes.ts';

const tree = resolve(process.argv[2]), name = process.argv[3] ?? 'feed', frames = Number(process.argv[4] ?? 7);
const Old = (await import(`${tree}/src/gpu/simulation.ts`)).GpuParticleSimulation as typeof GpuParticleSimulation;
const oldParse = (await import(`${tree}/src/scene/parse.ts`)).parseScene as typeof parseScene;
const cpu = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const { device } = await requestNodeGpu();
const a = new Old(device, oldParse(gpuBenchScenes[name])), b = new GpuParticleSimulation(device, parseScene(gpuBenchScenes[name]));
const first = [0, 0], sum = [0, 0];
for (let f = 1; f <= frames; f++) {
  for (const k of f % 2 ? [0, 1] : [1, 0]) {
    const c0 = cpu();
    await [a, b][k].stepFrame();
    await device.queue.onSubmittedWorkDone();
    if (f > 1) sum[k] += cpu() - c0; else first[k] = cpu() - c0;
  }
}
const ra = await a.read(), rb = await b.read();
let same = 0, most = 0;
for (let i = 0; i < ra.pos.length; i++) {
  if (Object.is(ra.pos[i], rb.pos[i]) && Object.is(ra.vel[i], rb.vel[i])) same++;
  most = Math.max(most, Math.abs(ra.pos[i] - rb.pos[i]));
}
console.log(`${name}, frame 1: A ${first[0].toFixed(2)} s, B ${first[1].toFixed(2)} s CPU (B/A ${(first[1] / first[0]).toFixed(3)})`);
console.log(`${name}, frames 2–${frames}: A ${sum[0].toFixed(2)} s, B ${sum[1].toFixed(2)} s CPU, B/A ${(sum[1] / sum[0]).toFixed(3)}; positions and velocities the same bits ${same} / ${ra.pos.length}, largest position difference ${most.toExponential(2)} m`);
a.destroy(); b.destroy(); releaseNodeGpu(); process.exit(0);
