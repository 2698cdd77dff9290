/**
 * The browser's SpawnThread (src/api.ts SimulationOptions.spawnThread): a module Web Worker
 * running thread.worker.ts, nested in the simulation worker. Shared memory needs a cross-origin
 * isolated page (COOP/COEP headers, vite.config.ts); without it the engine runs on one thread and
 * `threadOptions` says why, once, on the console.
 *
 * How many threads: the app's "threads" setting (src/app/main.ts), 'auto' by default, for either
 * CPU engine (the grid engine runs its split passes on the same thread team, src/grid/threads.ts).
 * Auto takes the scene's `particle.workers` or autoThreads() of this machine, whichever is more, so
 * that a scene written for one thread still uses a many-core machine in the app; on the grid engine,
 * whose scene has no thread count of its own (particle.workers is the particle engine's),
 * autoThreads() alone. Results are repeatable for a given count only (schema.ts, particle.workers),
 * so the count is shown in the HUD (`threads` among the counters) and a fixed count can be chosen.
 * The CLI keeps the scene's count (particle engine) or `--workers` (both).
 */
import type { EngineName, SimulationOptions } from '../api.ts';
import type { Scene } from '../scene/scene.ts';
import { sharedMemoryAvailable, type SpawnThread } from '../parallel/team.ts';
import type { Threads } from './protocol.ts';

export const spawnBrowserThread: SpawnThread = () => {
  const w = new Worker(new URL('./thread.worker.ts', import.meta.url), { type: 'module' });
  return {
    postMessage: (m) => w.postMessage(m),
    onMessage: (f) => w.addEventListener('message', (ev: MessageEvent) => f(ev.data)),
    onError: (f) => w.addEventListener('error', (ev: ErrorEvent) => f(new Error(ev.message || 'worker thread failed to load'))),
    terminate: () => w.terminate(),
  };
};

/**
 * Most threads 'auto' picks. Measured on a 16-core Xeon (BENCHMARKS.md, "Threads beyond two
 * cores"): the honey drop runs 1.8x at 4 threads, 2.3x at 8 and no faster at 12 or 16; the paint
 * drops gain nothing past 8.
 */
export const AUTO_THREADS_MAX = 8;

/**
 * The thread count 'auto' picks on a machine of `cores` logical cores: two are left, to the page
 * (drawing) and to the mesh worker (mesh.worker.ts, meshing the last frame while the engine steps
 * the next), at least one and at most AUTO_THREADS_MAX.
 */
export function autoThreads(cores: number = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency ?? 1 : 1): number {
  return Math.max(1, Math.min(AUTO_THREADS_MAX, Math.floor(cores) - 2));
}

/** An engine's thread count for a scene under the app's setting. */
export function threadCount(scene: Scene, threads: Threads, cores?: number, engine: EngineName = 'particle'): number {
  if (threads !== 'auto') return Math.max(1, Math.floor(threads));
  return engine === 'particle' ? Math.max(scene.particle.workers, autoThreads(cores)) : autoThreads(cores);
}

let warned = false;

/** The options that run a scene in `engine` on the threads `threads` asks for, where this page can share memory. */
export function threadOptions(scene: Scene, threads: Threads = 'auto', engine: EngineName = 'particle', cores?: number): SimulationOptions {
  const count = threadCount(scene, threads, cores, engine);
  const avail = sharedMemoryAvailable();
  if (avail.ok) return { workers: count, spawnThread: spawnBrowserThread };
  // Said when a count was asked for (the setting or the scene), not for auto's own choice.
  if (count > 1 && (threads !== 'auto' || (engine === 'particle' && scene.particle.workers > 1)) && !warned) {
    warned = true;
    console.warn(`viscid: ${count} threads asked for, but ${avail.reason}; running on one.`);
  }
  return { workers: 1 };
}
