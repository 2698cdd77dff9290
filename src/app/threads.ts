/**
 * The browser's SpawnThread (src/api.ts SimulationOptions.spawnThread): a module Web Worker
 * running thread.worker.ts, nested in the simulation worker. Shared memory needs a cross-origin
 * isolated page (COOP/COEP headers, vite.config.ts); without it the engine runs on one thread and
 * `threadOptions` says why, once, on the console.
 */
import type { SimulationOptions } from '../api.ts';
import type { Scene } from '../scene/scene.ts';
import { sharedMemoryAvailable, type SpawnThread } from '../parallel/team.ts';

export const spawnBrowserThread: SpawnThread = () => {
  const w = new Worker(new URL('./thread.worker.ts', import.meta.url), { type: 'module' });
  return {
    postMessage: (m) => w.postMessage(m),
    onMessage: (f) => w.addEventListener('message', (ev: MessageEvent) => f(ev.data)),
    onError: (f) => w.addEventListener('error', (ev: ErrorEvent) => f(new Error(ev.message || 'worker thread failed to load'))),
    terminate: () => w.terminate(),
  };
};

let warned = false;

/** The options that give a scene its `particle.workers` threads where this page can share memory. */
export function threadOptions(scene: Scene): SimulationOptions {
  const avail = sharedMemoryAvailable();
  if (avail.ok) return { spawnThread: spawnBrowserThread };
  if (scene.particle.workers > 1 && !warned) {
    warned = true;
    console.warn(`viscid: particle.workers = ${scene.particle.workers}, but ${avail.reason}.`);
  }
  return {};
}
