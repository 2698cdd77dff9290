/// <reference types="@webgpu/types" />
/**
 * A GPUDevice in Node, for the particle engine's WebGPU backend (src/gpu/): through the optional
 * `webgpu` package (Dawn), imported only when asked for. Where no Vulkan driver is named and
 * Debian's chromium ships SwiftShader's Vulkan ICD, that ICD is named (VK_ICD_FILENAMES), so the
 * backend runs on CPU-only machines (slowly: a functional check, not a speed).
 */
import { existsSync } from 'node:fs';
import { pollOnTimer } from './webgpu-poll.ts';

/** SwiftShader's Vulkan ICD as Debian's chromium ships it. */
export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

/**
 * The Dawn instance. It must outlive every device made from it (a collected instance takes its
 * devices' threads with it, and the process aborts at the next read-back), and while it is held
 * Node does not exit: releaseNodeGpu lets it go.
 */
let instance: GPU | null = null;

export interface NodeGpu {
  device: GPUDevice;
  /** The adapter in words (vendor, architecture, device, description, as Dawn reports them). */
  adapter: string;
}

/**
 * Names SwiftShader's Vulkan ICD where no driver is named and chromium ships it. On the main
 * thread only: a worker thread's process.env is its own copy, which the Vulkan loader never reads,
 * so `run` calls this before it starts the simulation thread.
 */
export function nameVulkanDriver(): void {
  if (process.env.VK_ICD_FILENAMES === undefined && existsSync(SWIFTSHADER_ICD)) process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
}

/** The device, or an error whose message starts "no WebGPU adapter: " and says why. */
export async function requestNodeGpu(): Promise<NodeGpu> {
  nameVulkanDriver();
  let mod: { create(options: string[]): GPU; globals: object };
  try {
    mod = (await import('webgpu')) as unknown as typeof mod;
  } catch (e) {
    throw new Error(`no WebGPU adapter: the optional package 'webgpu' (Dawn for Node) is not installed (${(e as Error).message.split('\n')[0]})`);
  }
  Object.assign(globalThis, mod.globals);
  const gpu = (instance ??= mod.create([]));
  const adapter = await gpu.requestAdapter();
  if (!adapter) {
    const icd = process.env.VK_ICD_FILENAMES;
    throw new Error(`no WebGPU adapter: Dawn found no usable GPU driver${icd ? ` (VK_ICD_FILENAMES=${icd})` : `; on a machine without a GPU, install chromium and set VK_ICD_FILENAMES=${SWIFTSHADER_ICD}`}`);
  }
  // A CPU adapter (SwiftShader) shares the cores with Dawn's wait for it: that wait polls on a timer (webgpu-poll.ts).
  if (adapter.info.isFallbackAdapter || /swiftshader|llvmpipe|lavapipe/i.test(`${adapter.info.architecture} ${adapter.info.description}`)) pollOnTimer();
  const device = await adapter.requestDevice();
  devices.push(device);
  const i = adapter.info;
  const words = [i.vendor, i.architecture, i.device, i.description].filter((s) => s && s.length > 0).join(' ');
  return { device, adapter: words || 'unnamed adapter' };
}

const devices: GPUDevice[] = [];

/** Destroys the devices requestNodeGpu made and drops the Dawn instance, so that Node can exit. */
export function releaseNodeGpu(): void {
  for (const d of devices.splice(0)) d.destroy();
  instance = null;
}
