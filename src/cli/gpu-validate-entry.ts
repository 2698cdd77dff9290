/**
 * The GPU thread of `viscid validate --backend webgpu` (gpu-validate.ts): holds the WebGPU device
 * and the cases' GPU simulations (src/gpu/simulation.ts), steps one when asked and posts its
 * particles back, then raises the flag the asking thread waits on.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { parseScene } from '../index.ts';
import { GpuParticleSimulation } from '../gpu/simulation.ts';
import { requestNodeGpu, type NodeGpu } from './webgpu.ts';
import type { GpuReply, GpuRequest } from './gpu-validate.ts';

const parent = parentPort;
if (!parent) throw new Error('gpu-validate-entry.ts runs as a worker thread');

let gpu: Promise<NodeGpu> | null = null;
const sims = new Map<number, GpuParticleSimulation>();

async function answer(req: GpuRequest): Promise<GpuReply | null> {
  if (req.type === 'dispose') {
    sims.get(req.id)?.destroy();
    sims.delete(req.id);
    return null;
  }
  if (req.type === 'create') {
    const node = await (gpu ??= requestNodeGpu());
    const sim = new GpuParticleSimulation(node.device, parseScene(req.sceneJson));
    sims.set(req.id, sim);
    return { type: 'created', adapter: node.adapter, count: sim.count };
  }
  const sim = sims.get(req.id);
  if (!sim) throw new Error(`no GPU simulation ${req.id}`);
  const stats = await sim.stepFrame();
  const { pos, vel, density } = await sim.read();
  return { type: 'frame', frame: sim.frame, time: sim.time, stats, pos, vel, density };
}

parent.once('message', ({ port, flag }: { port: MessagePort; flag: Int32Array }) => {
  // One request at a time: the asking thread waits for each answer before it sends the next.
  port.on('message', async (req: GpuRequest) => {
    let reply: GpuReply | null;
    try {
      reply = await answer(req);
    } catch (e) {
      reply = { type: 'error', message: (e as Error)?.message ?? String(e) };
    }
    if (!reply) return;
    port.postMessage(reply, reply.type === 'frame' ? [reply.pos.buffer as ArrayBuffer, reply.vel.buffer as ArrayBuffer, reply.density.buffer as ArrayBuffer] : []);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
});
