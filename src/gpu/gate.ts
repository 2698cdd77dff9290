/// <reference types="@webgpu/types" />
/**
 * A judged solve's passes that launch nothing once its judge has stopped it: the gate kernel,
 * dispatched after a judge, writes the workgroup counts the next pass's kernels are dispatched with
 * (dispatchWorkgroupsIndirect), ⌈n / WORKGROUP⌉ for the particles' kernels and 1 for the judge while
 * the stop flag (stats[2]) is clear, 0 for both once it is set. Each of those kernels returns at once
 * where the flag is set (step-wgsl.ts, guard-wgsl.ts), so a gated pass does the same work as an
 * ungated one, bit for bit; what it saves is the launch of a pass that would do nothing.
 */
import { dispatch, INDIRECT, Kernels, STORAGE, WORKGROUP } from './device.ts';

/** The gate's kernel for a stop flag at 32-bit word `word` of its buffer (set: any bits but zero's). */
const gateWgsl = (word: number): string => /* wgsl */ `
struct Count { n: u32 }
@group(0) @binding(0) var<uniform> P: Count;
@group(0) @binding(1) var<storage, read_write> flag: array<u32>;
@group(0) @binding(2) var<storage, read_write> args: array<u32, 6>;
@compute @workgroup_size(1) fn gate() {
  let on = select(1u, 0u, flag[${word}u] != 0u);
  args[0] = on * max(1u, (P.n + ${WORKGROUP - 1}u) / ${WORKGROUP}u);
  args[1] = 1u;
  args[2] = 1u;
  args[3] = on;
  args[4] = 1u;
  args[5] = 1u;
}
`;

/**
 * Whether simulations made from now on gate their passes (true) or dispatch each over every slot as before
 * (false): for benches that set the two beside each other (bench/gpu-dispatches.ts --ab); read when a
 * simulation is made and at its viscosity's first solve.
 */
export const GATES = { on: true };

/** Byte offsets in Gate.args of the particles' kernels' workgroup counts and of the judge's. */
export const GATE_PARTICLES = 0, GATE_ONE = 12;

/** The gate of one simulation's stop flag: its kernel's pipeline and bind group, and the counts it writes. */
export interface Gate {
  pipeline: GPUComputePipeline;
  group: GPUBindGroup;
  args: GPUBuffer;
}

/**
 * The gate of the stop flag at 32-bit word `word` of `flags` (density correction's and the pressure's: the
 * step's stats, word 2; the implicit viscosity's: its red buffer's done, viscosity-wgsl.ts RED_STATE), for the
 * count in `params` (the step's parameters: n its first word).
 */
export function makeGate(device: GPUDevice, params: GPUBuffer, flags: GPUBuffer, word: number): Gate {
  const k = new Kernels(device, 'gate', gateWgsl(word), ['gate'] as const, 3, 0);
  const args = device.createBuffer({ label: 'gated workgroups', size: 32, usage: STORAGE | INDIRECT });
  return { pipeline: k.pipelines.gate, group: k.bind(device, [params, flags, args]), args };
}

/** The word of the step's stats that stops density correction and the pressure's passes (step-wgsl.ts judge). */
export const STATS_STOP_WORD = 2;

/** Into `pass`: the gate's counts from the stop flag as it stands. */
export function encodeGate(pass: GPUComputePassEncoder, g: Gate): void {
  dispatch(pass, g.pipeline, g.group, 1, 1);
}

/** Dispatches `pipeline` with the gate's count at `offset` (GATE_PARTICLES or GATE_ONE). */
export function gated(pass: GPUComputePassEncoder, pipeline: GPUComputePipeline, group: GPUBindGroup, g: Gate, offset: number): void {
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  pass.dispatchWorkgroupsIndirect(g.args, offset);
}
