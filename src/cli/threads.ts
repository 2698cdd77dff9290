/**
 * Node's SpawnThread (src/api.ts SimulationOptions.spawnThread): a worker_thread running
 * thread-entry. The worker starts on an `eval` bootstrap that imports the entry: from the built
 * package (dist/*.js) thread-entry.js itself; from the sources (tsx, vitest) TypeScript, so the
 * bootstrap registers tsx first (Node 20 does not apply `--import` from a worker's execArgv, and
 * loader hooks registered in the parent thread do not reach it). If the import fails, the
 * bootstrap writes why to shared memory before the error ends the thread, so that a parent
 * blocked on the team's start reads it (ThreadHandle.loadFailure) without its event loop, and
 * needs no clock to give up by. Threads are unref'd: a process that forgets `dispose()` still exits.
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

/** Bytes of a worker's load failure: an Int32 length, then the message's first bytes (UTF-8). */
const FAILURE_BYTES = 4096;

/**
 * Code that imports `entry` in a new worker (registering tsx first for a TypeScript module) and,
 * if that fails, writes the error to `workerData` (FAILURE_BYTES of shared memory) and throws it on.
 */
function bootstrapCode(entry: URL): string {
  let register = '';
  if (entry.pathname.endsWith('.ts')) {
    // The ESM build of tsx's API (the CommonJS one cannot register from an ESM worker); resolved
    // from this file, so it works whatever the current directory.
    const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
    const tsx = pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href;
    register = `const { register } = await import(${JSON.stringify(tsx)}); register(); `;
  }
  return (
    `const { workerData } = await import('node:worker_threads'); ` +
    `try { ${register}await import(${JSON.stringify(entry.href)}); } catch (e) { ` +
    `const text = new TextEncoder().encode(String((e && e.stack) || e || 'no message')).subarray(0, ${FAILURE_BYTES - 4}); ` +
    `new Uint8Array(workerData, 4).set(text); Atomics.store(new Int32Array(workerData, 0, 1), 0, text.length); throw e; }`
  );
}

/** Each bootstrapped worker's failure bytes (bootstrapCode), for its ThreadHandle. */
const failures = new WeakMap<Worker, Uint8Array>();

/** A worker_thread running the module `entry`, JavaScript or TypeScript (unref'd). */
export function startModuleWorker(entry: URL): Worker {
  const shared = new SharedArrayBuffer(FAILURE_BYTES);
  const w = new Worker(bootstrapCode(entry), { eval: true, workerData: shared });
  failures.set(w, new Uint8Array(shared));
  w.unref();
  return w;
}

/** Why `w`'s module failed to load, written by its bootstrap; null while it has not (or for a worker started otherwise). */
export function loadFailure(w: Worker): string | null {
  const bytes = failures.get(w);
  if (!bytes) return null;
  const n = Atomics.load(new Int32Array(bytes.buffer, 0, 1), 0);
  // TextDecoder refuses views of shared memory: decode a copy.
  return n > 0 ? new TextDecoder().decode(bytes.slice(4, 4 + n)) : null;
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
    loadFailure: () => loadFailure(w),
    terminate: () => void w.terminate(),
  };
}

export const spawnNodeThread: SpawnThread = () => nodeThreadHandle(startNodeWorker());
