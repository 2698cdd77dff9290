/**
 * Whole frames of a particle scene at several thread counts, one simulation after another, with
 * each count's stage split:
 *   npx tsx bench/threads-scale.ts [scene] [firstFrame] [lastFrame] [threads...]
 * (defaults: the honey drop, frames 3–22, 1 2 4 8 threads). Meant for machines with many cores;
 * on a shared machine prefer bench/threads-frames.ts, which alternates two simulations.
 *
 * A machine without the npm packages (no tsx) can run it as one bundled script, its threads
 * started from a bundled thread-entry (VISCID_THREAD_ENTRY):
 *   npx esbuild bench/threads-scale.ts --bundle --platform=node --format=esm --outfile=out/scale/scale.mjs
 *   npx esbuild src/cli/thread-entry.ts --bundle --platform=node --format=esm --outfile=out/scale/worker.mjs
 *   VISCID_THREAD_ENTRY=./out/scale/worker.mjs node out/scale/scale.mjs scenes/honey-drop.json 3 22 1 2 4 8
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { parseScene, createSimulation } from '../src/index.ts';
import { nodeThreadHandle, spawnNodeThread } from '../src/cli/threads.ts';
import type { SpawnThread } from '../src/parallel/team.ts';

const [file = 'scenes/honey-drop.json', first = '3', last = '22', ...counts] = process.argv.slice(2);
const entry = process.env.VISCID_THREAD_ENTRY;
const spawn: SpawnThread = entry
  ? () => {
      const w = new Worker(entry);
      w.unref();
      return nodeThreadHandle(w);
    }
  : spawnNodeThread;

let one = 0;
for (const T of (counts.length > 0 ? counts : ['1', '2', '4', '8']).map(Number)) {
  const sim = createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', T > 1 ? { workers: T, spawnThread: spawn } : {});
  await sim.ready?.();
  const times: number[] = [];
  const stages: Record<string, number> = {};
  for (let f = 1; f <= Number(last); f++) {
    const s = sim.stepFrame();
    if (f < Number(first)) continue;
    times.push(s.wallMs);
    for (const [k, v] of Object.entries(s.stages)) stages[k] = (stages[k] ?? 0) + v;
  }
  sim.dispose();
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  if (T === 1) one = mean;
  const split = Object.entries(stages).filter(([, v]) => v / times.length >= 1).map(([k, v]) => `${k} ${(v / times.length).toFixed(1)}`);
  console.log(`${file} frames ${first}–${last}, ${T} thread${T > 1 ? 's' : ''}: ${mean.toFixed(1)} ms/frame${one > 0 ? ` (${(one / mean).toFixed(2)}×)` : ''}; ${split.join(', ')}`);
}
