/// <reference types="@webgpu/types" />
/**
 * What the WebGPU backend needs of a GPUDevice, without WebGPU globals: the core is handed a device
 * (by src/cli/webgpu.ts in Node, by the app where navigator.gpu gives one) and never looks one up.
 * The usage flags are the WebGPU spec's numeric values (stable: GPUBufferUsage, GPUMapMode).
 */
export const STORAGE = 0x80, UNIFORM = 0x40, COPY_SRC = 0x04, COPY_DST = 0x08, MAP_READ = 0x01, INDIRECT = 0x100;
const MAP_MODE_READ = 0x01;

/** A storage buffer of `bytes` (at least 16), readable back and writable from the host. */
export function storageBuffer(device: GPUDevice, bytes: number, label: string): GPUBuffer {
  return device.createBuffer({ label, size: Math.max(16, Math.ceil(bytes / 16) * 16), usage: STORAGE | COPY_SRC | COPY_DST });
}

export function uniformBuffer(device: GPUDevice, bytes: number, label: string): GPUBuffer {
  return device.createBuffer({ label, size: Math.ceil(bytes / 16) * 16, usage: UNIFORM | COPY_DST });
}

/** Copies `bytes` of `src` from byte `offset` (a multiple of 4) back to the host (one staging buffer per call: for results and checks, not per pass). */
export async function readBuffer(device: GPUDevice, src: GPUBuffer, bytes: number, offset = 0): Promise<ArrayBuffer> {
  const size = Math.ceil(bytes / 4) * 4;
  const staging = device.createBuffer({ size, usage: MAP_READ | COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(src, offset, staging, 0, size);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(MAP_MODE_READ);
  const out = staging.getMappedRange().slice(0, bytes);
  staging.unmap();
  staging.destroy();
  return out;
}

/** The kernels compiled on each device, by what they were made from (Kernels). */
const compiled = new WeakMap<GPUDevice, Map<string, { layout: GPUBindGroupLayout; pipelines: Record<string, GPUComputePipeline> }>>();

/**
 * A compute pipeline per entry point of one WGSL module, all on one explicit layout of `bindings`
 * (storage unless named uniform: `uniformAt`, one binding or several). Each pipeline is compiled
 * when it is first asked for: a scene runs a part of a module's entry points (the still pool of
 * tests/gpu/step.test.ts compiled 0.27 s at set-up and 3.8 s in its first frame on SwiftShader,
 * against 6.8 s for all of them). And once a device: a later simulation on the same device (the
 * app's next scene, the next case of `viscid validate --backend webgpu`, the next test) takes the
 * same module's layout and pipelines, where Dawn compiled them again once the last simulation's
 * were collected (BENCHMARKS.md, "The WebGPU tests on SwiftShader").
 */
export class Kernels<E extends string> {
  readonly layout: GPUBindGroupLayout;
  readonly pipelines: Record<E, GPUComputePipeline>;
  constructor(device: GPUDevice, label: string, code: string, entries: readonly E[], bindings: number, uniformAt: number | readonly number[]) {
    let byDevice = compiled.get(device);
    if (!byDevice) compiled.set(device, (byDevice = new Map()));
    const key = `${label}\n${entries.join(',')}\n${bindings} ${String(uniformAt)}\n${code}`;
    const made = byDevice.get(key);
    if (made) {
      this.layout = made.layout;
      this.pipelines = made.pipelines as Record<E, GPUComputePipeline>;
      return;
    }
    const uniform = typeof uniformAt === 'number' ? [uniformAt] : uniformAt;
    const module = device.createShaderModule({ label, code });
    const layoutEntries: GPUBindGroupLayoutEntry[] = [];
    for (let b = 0; b < bindings; b++) {
      layoutEntries.push({ binding: b, visibility: 0x4 /* GPUShaderStage.COMPUTE */, buffer: { type: uniform.includes(b) ? 'uniform' : 'storage' } });
    }
    this.layout = device.createBindGroupLayout({ label, entries: layoutEntries });
    const layout = device.createPipelineLayout({ bindGroupLayouts: [this.layout] });
    const p = {} as Record<E, GPUComputePipeline>;
    // Each entry point's pipeline is compiled at its first dispatch: a scene compiles only those it runs.
    for (const e of entries) {
      let pipeline: GPUComputePipeline | undefined;
      Object.defineProperty(p, e, { enumerable: true, get: () => (pipeline ??= device.createComputePipeline({ label: `${label}:${e}`, layout, compute: { module, entryPoint: e } })) });
    }
    this.pipelines = p;
    byDevice.set(key, { layout: this.layout, pipelines: p });
  }

  bind(device: GPUDevice, buffers: readonly GPUBuffer[]): GPUBindGroup {
    return device.createBindGroup({ layout: this.layout, entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })) });
  }
}

/** Dispatches `pipeline` over `items` threads in workgroups of `size` (WORKGROUP unless the kernel says otherwise). */
export function dispatch(pass: GPUComputePassEncoder, pipeline: GPUComputePipeline, group: GPUBindGroup, items: number, size = WORKGROUP): void {
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  pass.dispatchWorkgroups(Math.max(1, Math.ceil(items / size)));
}

/** Threads per workgroup of every kernel (the WGSL sources use the same number). */
export const WORKGROUP = 64;

