/**
 * What keeps the WebGPU tests cheap on SwiftShader, kept true:
 *   - src/cli/webgpu-poll.ts: on a CPU adapter Dawn's wait for the GPU polls on a 1 ms timer, not
 *     from setImmediate at every turn of the event loop (a busy loop that took a core from
 *     SwiftShader's threads); every other setImmediate runs as before;
 *   - src/gpu/device.ts Kernels: a second simulation on the same device takes the first one's
 *     compiled pipelines (SwiftShader compiled the step's set again, 4–7 s of CPU, once the first
 *     one's were collected).
 */
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pollOnTimer } from '../../src/cli/webgpu-poll.ts';
import { GpuParticleSimulation } from '../../src/gpu/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { GPU_SKIP, gpuDevice, releaseGpuAfterAll } from './device.ts';
import { skipTitle } from '../skips.ts';

releaseGpuAfterAll();

describe('Dawn\'s poll on a timer (src/cli/webgpu-poll.ts)', () => {
  it('passes an unnamed native callback (Dawn\'s poll) to a timer, and every other one to setImmediate as before', async () => {
    pollOnTimer(); // as requestNodeGpu does on a CPU adapter; once a thread (a second call changes nothing)
    pollOnTimer();
    // Function.prototype is a native function without a name, as Dawn's Napi::Function is.
    const dawnLike = setImmediate(Function.prototype as () => void);
    expect(typeof (dawnLike as unknown as { refresh?: unknown }).refresh).toBe('function'); // a Timeout
    clearTimeout(dawnLike as unknown as NodeJS.Timeout);
    const order: string[] = [];
    const plain = setImmediate((a: string) => order.push(a), 'immediate');
    expect((plain as unknown as { refresh?: unknown }).refresh).toBeUndefined(); // an Immediate
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual(['immediate']);
    // util.promisify's custom form (setImmediate's own property) is kept.
    await expect(promisify(setImmediate)('value')).resolves.toBe('value');
  });
});

describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'WebGPU kernels compiled once a device'), () => {
  it('gives a second simulation on the same device the first one\'s pipelines, whichever scene', async () => {
    const device = await gpuDevice();
    const scene = (r: number): SceneInput => ({
      fps: 30, duration: 1,
      materials: { w: { kind: 'liquid', viscosity: { value: 1e-4, unit: 'm2/s' } } },
      particle: { radius: r },
      bodies: [{ material: 'w', shape: { type: 'box', center: [0, 0.01, 0], size: [0.012, 0.012, 0.012] } }],
    });
    const a = new GpuParticleSimulation(device, parseScene(scene(0.002)));
    a.destroy();
    const b = new GpuParticleSimulation(device, parseScene(scene(0.003)));
    b.destroy();
    expect(b.kernels.pipelines).toBe(a.kernels.pipelines);
    expect(b.kernels.layout).toBe(a.kernels.layout);
    expect(b.pressure.pipelines).toBe(a.pressure.pipelines);
  });
});
