/**
 * Node's SpawnThread (src/api.ts SimulationOptions.spawnThread): a worker_thread running
 * thread-entry. From the built package (dist/*.js) the worker starts on thread-entry.js itself;
 * from the sources (tsx, vitest) it runs TypeScript, so it registers tsx first (an `eval`
 * bootstrap: Node 20 does not apply `--import` from a worker's execArgv, and loader hooks
 * registered in the parent thread do not reach it). Threads are unref'd: a process that forgets
 * `dispose()` still exits.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SpawnThread, ThreadHandle } from '../parallel/team.ts';

/**
 * The module `name` beside `from` (an import.meta.url), with `from`'s extension: `.ts` in the
 * sources, `.js` in dist/ (tsc rewrites import specifiers, not URLs).
 */
export function siblingModule(name: string, from: string): URL {
  return new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from);
}

const ENTRY = siblingModule('thread-entry', import.meta.url);

/** Code that registers tsx in a new worker and then imports `entry` (a TypeScript module). */
function bootstrapCode(entry: URL): string {
  // The ESM build of tsx's API (the CommonJS one cannot register from an ESM worker); resolved
  // from this file, so it works whatever the current directory.
  const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
  const tsx = pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href;
  return `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry.href)});`;
}

/** A worker_thread running the module `entry`, JavaScript or TypeScript (unref'd). */
export function startModuleWorker(entry: URL): Worker {
  const w = entry.pathname.endsWith('.ts') ? new Worker(bootstrapCode(entry), { eval: true }) : new Worker(entry);
  w.unref();
  return w;
}

/** A worker_thread serving a team (unref'd). */
export function startNodeWorker(): Worker {
  return startModuleWorker(ENTRY);
}

/** ThreadHandle over a worker_thread. */
export function nodeThreadHandle(w: Worker): ThreadHandle {
  return {
    postMessage: (m) => w.postMessage(m),
    onMessage: (f) => {
      w.on('message', f);
      w.unref(); // a 'message' listener refs the worker again
    },
    onError: (f) => {
      w.on('error', f);
      w.on('exit', (code) => {
        if (code !== 0) f(new Error(`worker thread exited with code ${code}`));
      });
    },
    terminate: () => void w.terminate(),
  };
}

export const spawnNodeThread: SpawnThread = () => nodeThreadHandle(startNodeWorker());
