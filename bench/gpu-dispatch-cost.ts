/**
 * What one dispatch costs on SwiftShader, by kind: a kernel of `wg` workgroups of 64 threads that works, the
 * same with its stop flag set (each thread returns after reading it), one workgroup, a one-thread judge, an
 * indirect dispatch of 0 workgroups (Dawn validates an indirect dispatch's counts with a dispatch of its own
 * before it), a direct one of 0, and an indirect one of `wg` workgroups with the flag set: 2 000 each, in passes
 * of 200, the process's CPU (every thread) and wall a dispatch.
 *   npx tsx bench/gpu-dispatch-cost.ts [wg]
 */
import { requestNodeGpu, releaseNodeGpu } from '../src/cli/webgpu.ts';
const { device: d } = await requestNodeGpu();
const code = `
@group(0) @binding(0) var<storage, read_write> stats: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> v: array<vec4<f32>>;
@compute @workgroup_size(64) fn noop(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x >= 300u || atomicLoad(&stats[2]) != 0u) { return; }
  v[g.x] = v[g.x] * 1.0001 + vec4<f32>(1.0);
}
@compute @workgroup_size(1) fn one() { if (atomicLoad(&stats[2]) != 0u) { return; } atomicAdd(&stats[3], 1u); }
`;
const mod = d.createShaderModule({ code });
const pNoop = d.createComputePipeline({ layout: 'auto', compute: { module: mod, entryPoint: 'noop' } });
const pOne = d.createComputePipeline({ layout: 'auto', compute: { module: mod, entryPoint: 'one' } });
const stats = d.createBuffer({ size: 64, usage: 0x80 | 0x08 });
const v = d.createBuffer({ size: 16 * 4096, usage: 0x80 });
const ind = d.createBuffer({ size: 16, usage: 0x100 | 0x08 });
d.queue.writeBuffer(ind, 0, new Uint32Array([0, 1, 1, 0]));
const g0 = d.createBindGroup({ layout: pNoop.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: stats } }, { binding: 1, resource: { buffer: v } }] });
const g1 = d.createBindGroup({ layout: pOne.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: stats } }] });
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
async function run(label: string, flag: number, f: (p: GPUComputePassEncoder) => void) {
  d.queue.writeBuffer(stats, 0, new Uint32Array([0, 0, flag, 0]));
  const N = 2000;
  // warm
  for (let r = 0; r < 2; r++) {
    const c0 = cpu(), w0 = performance.now();
    for (let b = 0; b < N / 200; b++) {
      const enc = d.createCommandEncoder(); const p = enc.beginComputePass();
      for (let k = 0; k < 200; k++) f(p);
      p.end(); d.queue.submit([enc.finish()]);
    }
    await d.queue.onSubmittedWorkDone();
    if (r === 1) console.log(`${label}: ${((cpu() - c0) / N * 1e3).toFixed(3)} ms CPU/dispatch, ${((performance.now() - w0) / N).toFixed(3)} ms wall`);
  }
}
const wg = Number(process.argv[2] ?? 5);
await run(`${wg} wg, working`, 0, (p) => { p.setPipeline(pNoop); p.setBindGroup(0, g0); p.dispatchWorkgroups(wg); });
await run(`${wg} wg, flag set (no-op)`, 1, (p) => { p.setPipeline(pNoop); p.setBindGroup(0, g0); p.dispatchWorkgroups(wg); });
await run(`1 wg no-op`, 1, (p) => { p.setPipeline(pNoop); p.setBindGroup(0, g0); p.dispatchWorkgroups(1); });
await run(`1-thread judge no-op`, 1, (p) => { p.setPipeline(pOne); p.setBindGroup(0, g1); p.dispatchWorkgroups(1); });
await run(`indirect 0 wg`, 1, (p) => { p.setPipeline(pNoop); p.setBindGroup(0, g0); p.dispatchWorkgroupsIndirect(ind, 0); });
await run(`direct 0 wg`, 1, (p) => { p.setPipeline(pNoop); p.setBindGroup(0, g0); p.dispatchWorkgroups(0); });
d.queue.writeBuffer(ind, 0, new Uint32Array([wg, 1, 1, 0]));
await run(`indirect ${wg} wg no-op`, 1, (p) => { p.setPipeline(pNoop); p.setBindGroup(0, g0); p.dispatchWorkgroupsIndirect(ind, 0); });
releaseNodeGpu();
