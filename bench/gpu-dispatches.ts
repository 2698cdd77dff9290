/**
 * The WebGPU step's dispatches on SwiftShader, by kernel: how many a frame, their workgroups, and the
 * frame's CPU (every thread of the process: SwiftShader's marl threads do the kernels' work), for one of
 * the agreement tests' scenes. GPUComputePassEncoder.prototype's setPipeline / dispatchWorkgroups are
 * wrapped to count (the pipeline's label names the kernel: device.ts Kernels).
 *   npx tsx bench/gpu-dispatches.ts [scene] [frames]
 * scene: one of bench/gpu-scenes.ts's (feed, sink, sink2, cube, gel, free).
 */
import { requestNodeGpu, releaseNodeGpu } from '../src/cli/webgpu.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { GATES } from '../src/gpu/gate.ts';
import { parseScene } from '../src/scene/parse.ts';
import { gpuBenchScenes, threadCpu } from './gpu-scenes.ts';

const scenes = gpuBenchScenes;
const name = process.argv[2] ?? 'feed', frames = Number(process.argv[3] ?? 3);
if (process.env.DENSITY_ITERATIONS) (scenes[name].particle as Record<string, unknown>).densityIterations = Number(process.env.DENSITY_ITERATIONS);
const threads = threadCpu;
const cpu = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

const { device } = await requestNodeGpu();
const proto = (globalThis as unknown as { GPUComputePassEncoder: { prototype: GPUComputePassEncoder } }).GPUComputePassEncoder.prototype;
const setPipeline = proto.setPipeline, dispatchWorkgroups = proto.dispatchWorkgroups;
const current = new WeakMap<GPUComputePassEncoder, GPUComputePipeline>();
const groups = new WeakMap<GPUComputePassEncoder, GPUBindGroup>();
/** Each kernel's last dispatch: its pipeline, bind group and workgroups (for --cost). */
const last = new Map<string, { p: GPUComputePipeline; g: GPUBindGroup; x: number }>();
const setBindGroup = proto.setBindGroup;
proto.setBindGroup = function (this: GPUComputePassEncoder, i: number, g: GPUBindGroup | null, ...rest: unknown[]) { if (i === 0 && g) groups.set(this, g); return (setBindGroup as (...a: unknown[]) => void).call(this, i, g, ...rest); } as typeof proto.setBindGroup;
let counts = new Map<string, { n: number; groups: number }>();
proto.setPipeline = function (this: GPUComputePassEncoder, p: GPUComputePipeline) { current.set(this, p); return setPipeline.call(this, p); };
proto.dispatchWorkgroups = function (this: GPUComputePassEncoder, x: number, y?: number, z?: number) {
  const p = current.get(this)!, k = p.label, c = counts.get(k) ?? { n: 0, groups: 0 };
  last.set(k, { p, g: groups.get(this)!, x });
  c.n++; c.groups += x * (y ?? 1) * (z ?? 1);
  counts.set(k, c);
  return dispatchWorkgroups.call(this, x, y, z);
};

if (process.argv.includes('--ab')) {
  // Two simulations of the scene, A without the gates (gate.ts GATES.on false at its construction and first solve) and B with
  // them, stepped frame by frame alternately (A B, then B A), each frame's CPU summed by side, the first frame (the
  // run's cold pressure solve) apart; a frame of each first, so that both find their pipelines compiled.
  const make = (gate: boolean): GpuParticleSimulation => {
    GATES.on = gate;
    return new GpuParticleSimulation(device, parseScene(scenes[name]));
  };
  const step = async (s: GpuParticleSimulation, gate: boolean): Promise<void> => {
    GATES.on = gate;
    await s.stepFrame();
    await device.queue.onSubmittedWorkDone();
  };
  for (const gate of [false, true]) { const w = make(gate); await step(w, gate); w.destroy(); }
  const a = make(false), b = make(true), first = [0, 0];
  const sum = [0, 0];
  for (let f = 1; f <= frames; f++) {
    const order = f % 2 ? [0, 1] : [1, 0];
    for (const k of order) {
      const c0 = cpu();
      await step([a, b][k], k === 1);
      if (f > 1) sum[k] += cpu() - c0; else first[k] = cpu() - c0;
    }
  }
  const ra = await a.read(), rb = await b.read();
  let same = 0;
  for (let i = 0; i < ra.pos.length; i++) if (Object.is(ra.pos[i], rb.pos[i]) && Object.is(ra.vel[i], rb.vel[i])) same++;
  console.log(`frame 1: A (no gate) ${first[0].toFixed(2)} s, B (gated) ${first[1].toFixed(2)} s CPU, B/A ${(first[1] / first[0]).toFixed(3)}`);
  console.log(`frames 2–${frames}: A (no gate) ${sum[0].toFixed(2)} s, B (gated) ${sum[1].toFixed(2)} s CPU, B/A ${(sum[1] / sum[0]).toFixed(3)}; positions and velocities the same bits ${same} / ${ra.pos.length}`);
  a.destroy(); b.destroy(); releaseNodeGpu(); process.exit(0);
}
const sim = new GpuParticleSimulation(device, parseScene(scenes[name]));
for (let f = 1; f <= frames; f++) {
  counts = new Map();
  const c0 = cpu(), t0 = threads();
  const st = await sim.stepFrame();
  await device.queue.onSubmittedWorkDone();
  const total = [...counts.values()].reduce((s, c) => s + c.n, 0);
  console.log(`frame ${f}: ${(cpu() - c0).toFixed(2)} s CPU, ${st.counters.particles} particles, ${st.counters.substeps} sub-timesteps, ${total} dispatches; density passes (last sub-timestep) ${st.counters.densityPassesLastSubstep}, viscosity iterations a solve ${st.counters.viscosityIterationsPerSolve?.toFixed(1)}`);
  const t1 = threads();
  console.log('  by thread: ' + [...t1].map(([k, v]) => [k, v - (t0.get(k) ?? 0)] as const).filter(([, v]) => v > 0.005).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', '));
  if (!process.argv.includes('--quiet')) for (const [k, c] of [...counts].sort((a, b) => b[1].n - a[1].n)) console.log(`  ${String(c.n).padStart(6)} ${String(c.groups).padStart(7)} wg  ${k}`);
}
// --cost: each kernel of the last frame dispatched REPEAT times alone at its last bind group and size, the step's
// stats (the density judge's stop flag among them) zeroed first so that its passes work: CPU a dispatch. The state it
// leaves is garbage (the run ends here); a kernel gated on another stop flag may read as a no-op.
if (process.argv.includes('--cost')) {
  const REPEAT = Number(process.env.REPEAT ?? 20), stats = (sim as unknown as { stats: GPUBuffer }).stats;
  const rows: [string, number, number][] = [];
  for (const [k, { p, g, x }] of last) {
    const enc = device.createCommandEncoder();
    enc.clearBuffer(stats);
    const pass = enc.beginComputePass();
    setPipeline.call(pass, p);
    (setBindGroup as (...a: unknown[]) => void).call(pass, 0, g);
    const c0 = cpu();
    for (let r = 0; r < REPEAT; r++) dispatchWorkgroups.call(pass, x);
    pass.end();
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
    rows.push([k, (cpu() - c0) / REPEAT * 1e3, counts.get(k)?.n ?? 0]);
  }
  let sum = 0;
  for (const [k, ms, n] of rows.sort((a, b) => b[1] * b[2] - a[1] * a[2])) { sum += ms * n; console.log(`  ${ms.toFixed(2).padStart(7)} ms a dispatch × ${String(n).padStart(4)} = ${(ms * n).toFixed(0).padStart(5)} ms  ${k}`); }
  console.log(`  the last frame's dispatches at these costs: ${(sum / 1000).toFixed(2)} s`);
}
sim.destroy();
releaseNodeGpu();
