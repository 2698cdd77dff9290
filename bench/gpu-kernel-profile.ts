/**
 * The WebGPU step's time by kernel on SwiftShader: every dispatch of a frame in a compute pass of its
 * own with a timestamp at its start and end (the `timestamp-query` feature, Dawn's quantization off),
 * summed by pipeline label (device.ts Kernels: "module:entry"). GPUCommandEncoder.prototype.beginComputePass
 * is wrapped to hand out a pass that opens a real one per dispatch; the work and its order are the
 * simulation's own (a pass boundary orders nothing that a dispatch boundary does not). SwiftShader's
 * timestamps are the host clock where its command thread reaches the command, so a dispatch's span is its
 * wall time on the marl threads (both work, and the machine is shared: a share, not a CPU figure); the
 * frame's CPU by thread (/proc/self/task) is printed beside it.
 *   npx tsx bench/gpu-kernel-profile.ts [scene] [frames] [--ab]
 * scene: the scenes of bench/gpu-dispatches.ts (feed, sink, sink2, cube) and free (tests/gpu/free-bodies'
 * pine box on water). The first frame (compiles, cold solve) is profiled but printed apart.
 */
import { nameVulkanDriver } from '../src/cli/webgpu.ts';
import { pollOnTimer } from '../src/cli/webgpu-poll.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { parseScene } from '../src/scene/parse.ts';
import { gpuBenchScenes as scenes, threadCpu } from './gpu-scenes.ts';

const name = process.argv[2] ?? 'feed', frames = Number(process.argv[3] ?? 3);

const threads = threadCpu;

// The device, as src/cli/webgpu.ts makes it, with timestamps (unquantized).
nameVulkanDriver();
const mod = (await import('webgpu')) as unknown as { create(o: string[]): GPU; globals: object };
Object.assign(globalThis, mod.globals);
const gpu = mod.create(['disable-dawn-features=timestamp_quantization']);
const adapter = (await gpu.requestAdapter())!;
pollOnTimer();
const device = await adapter.requestDevice({ requiredFeatures: ['timestamp-query'] });
(globalThis as Record<string, unknown>).__keep = gpu;

const SET = 4096;
const sets: { q: GPUQuerySet; resolve: GPUBuffer }[] = [];
let used = 0;
const labels: string[] = [], groups: number[] = [];
const begun = new WeakMap<GPUCommandEncoder, number>();
const E = (globalThis as unknown as { GPUCommandEncoder: { prototype: GPUCommandEncoder } }).GPUCommandEncoder.prototype;
const begin = E.beginComputePass, finish = E.finish;
/** Two timestamp slots, aligned so that an encoder's first pair starts at a multiple of 32 (resolveQuerySet's 256-byte offset). */
function slots(enc: GPUCommandEncoder): number {
  if (!begun.has(enc)) { used = Math.ceil(used / 32) * 32; begun.set(enc, used); }
  if (Math.floor(used / SET) !== Math.floor((used + 1) / SET)) used++;
  while (sets.length <= Math.floor(used / SET)) sets.push({ q: device.createQuerySet({ type: 'timestamp', count: SET }), resolve: device.createBuffer({ size: SET * 8, usage: 0x200 | 0x04 }) });
  const at = used; used += 2; return at;
}
E.beginComputePass = function (this: GPUCommandEncoder) {
  const enc = this;
  let pipeline: GPUComputePipeline | null = null;
  const bound = new Map<number, [GPUBindGroup, unknown[]]>();
  const run = (f: (p: GPUComputePassEncoder) => void, x: number): void => {
    const at = slots(enc), set = sets[Math.floor(at / SET)];
    const p = begin.call(enc, { timestampWrites: { querySet: set.q, beginningOfPassWriteIndex: at % SET, endOfPassWriteIndex: at % SET + 1 } });
    p.setPipeline(pipeline!);
    for (const [i, [g, rest]] of bound) (p.setBindGroup as (...a: unknown[]) => void)(i, g, ...rest);
    f(p);
    p.end();
    labels[at / 2 | 0] = pipeline!.label; groups[at / 2 | 0] = x;
  };
  return {
    setPipeline(p: GPUComputePipeline) { pipeline = p; },
    setBindGroup(i: number, g: GPUBindGroup, ...rest: unknown[]) { bound.set(i, [g, rest]); },
    dispatchWorkgroups(x: number, y = 1, z = 1) { run((p) => p.dispatchWorkgroups(x, y, z), x * y * z); },
    dispatchWorkgroupsIndirect(b: GPUBuffer, o: number) { run((p) => p.dispatchWorkgroupsIndirect(b, o), -1); },
    end() { /* each dispatch's pass ended already */ },
    pushDebugGroup() {}, popDebugGroup() {}, insertDebugMarker() {},
  } as unknown as GPUComputePassEncoder;
};
E.finish = function (this: GPUCommandEncoder, d?: GPUCommandBufferDescriptor) {
  const from = begun.get(this);
  if (from !== undefined) {
    for (let s = from; s < used; s = (Math.floor(s / SET) + 1) * SET) {
      const k = Math.floor(s / SET), end = Math.min(used, (k + 1) * SET);
      this.resolveQuerySet(sets[k].q, s % SET, end - s, sets[k].resolve, (s % SET) * 8);
    }
  }
  return finish.call(this, d);
};
async function collect(): Promise<Map<string, { n: number; ms: number; wg: number }>> {
  const out = new Map<string, { n: number; ms: number; wg: number }>();
  const total = used;
  for (let k = 0; k * SET < total; k++) {
    const read = device.createBuffer({ size: SET * 8, usage: 0x01 | 0x08 });
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(sets[k].resolve, 0, read, 0, SET * 8);
    device.queue.submit([finish.call(enc)]);
    await read.mapAsync(1);
    const t = new BigInt64Array(read.getMappedRange().slice(0));
    read.unmap(); read.destroy();
    for (let i = 0; i < SET && k * SET + i < total; i += 2) {
      const label = labels[(k * SET + i) / 2];
      if (label === undefined) continue;
      const ms = Number(t[i + 1] - t[i]) / 1e6, c = out.get(label) ?? { n: 0, ms: 0, wg: 0 };
      c.n++; c.ms += ms; c.wg += Math.max(0, groups[(k * SET + i) / 2]);
      out.set(label, c);
    }
  }
  used = 0; labels.length = 0; groups.length = 0;
  return out;
}

const sim = new GpuParticleSimulation(device, parseScene(scenes[name]));
const sum = new Map<string, { n: number; ms: number; wg: number }>();
let cpuSum = 0, marlSum = 0, subs = 0;
for (let f = 1; f <= frames; f++) {
  const t0 = threads();
  const st = await sim.stepFrame();
  await device.queue.onSubmittedWorkDone();
  const t1 = threads();
  const by = await collect();
  let cpu = 0, marl = 0;
  for (const [k, v] of t1) { const d = v - (t0.get(k) ?? 0); cpu += d; if (/marl|swiftshader/i.test(k) || k.startsWith('Worker')) marl += d; }
  const ms = [...by.values()].reduce((s, c) => s + c.ms, 0), n = [...by.values()].reduce((s, c) => s + c.n, 0);
  console.log(`frame ${f}: ${st.counters.particles} particles, ${st.counters.substeps} sub-timesteps, ${n} dispatches, their spans ${(ms / 1000).toFixed(2)} s; CPU ${cpu.toFixed(2)} s (by thread: ${[...t1].map(([k, v]) => [k, v - (t0.get(k) ?? 0)] as const).filter(([, v]) => v > 0.005).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')})`);
  if (f === 1) continue;
  cpuSum += cpu; marlSum += marl; subs += st.counters.substeps;
  for (const [k, c] of by) { const s = sum.get(k) ?? { n: 0, ms: 0, wg: 0 }; s.n += c.n; s.ms += c.ms; s.wg += c.wg; sum.set(k, s); }
}
const all = [...sum.values()].reduce((s, c) => s + c.ms, 0);
console.log(`\nframes 2–${frames}: ${subs} sub-timesteps, CPU ${cpuSum.toFixed(2)} s (non-main threads ${marlSum.toFixed(2)}), dispatch spans ${(all / 1000).toFixed(2)} s`);
console.log('  share   ms/sub  disp/sub  ms/disp  wg/disp  kernel');
for (const [k, c] of [...sum].sort((a, b) => b[1].ms - a[1].ms)) {
  console.log(`  ${(100 * c.ms / all).toFixed(1).padStart(5)}%  ${(c.ms / subs).toFixed(2).padStart(6)}  ${(c.n / subs).toFixed(1).padStart(8)}  ${(c.ms / c.n).toFixed(3).padStart(7)}  ${(c.wg / c.n).toFixed(1).padStart(7)}  ${k}`);
}
sim.destroy();
process.exit(0);
