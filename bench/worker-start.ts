/**
 * The CPU of a worker thread's start, loaded on dist/'s team entry, started directly (`new
 * Worker(url)`) and through startModuleWorker's bootstrap (src/cli/threads.ts: an `eval` that
 * imports the entry and reports a load failure in shared memory), alternated in one process.
 * Needs a current dist/ (`npm run build`). `npx tsx bench/worker-start.ts [ROUNDS]`
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const rounds = Number(process.argv[2] ?? 8);
const dist = new URL('../dist/cli/', import.meta.url);
const { startModuleWorker } = (await import(new URL('threads.js', dist).href)) as typeof import('../src/cli/threads.ts');
const dir = mkdtempSync(join(tmpdir(), 'viscid-worker-start-'));
// An entry that loads the team's modules and exits.
const file = join(dir, 'entry.mjs');
writeFileSync(file, `import ${JSON.stringify(new URL('thread-entry.js', dist).href)};\nimport { parentPort } from 'node:worker_threads';\nparentPort.close();\nprocess.exit(0);\n`);
const entry = pathToFileURL(file);

async function once(boot: boolean): Promise<number> {
  const c0 = process.cpuUsage();
  const w = boot ? startModuleWorker(entry) : new Worker(entry);
  w.ref();
  await new Promise((r) => w.once('exit', r));
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

const direct: number[] = [], booted: number[] = [];
for (let i = 0; i < rounds; i++) {
  direct.push(await once(false));
  booted.push(await once(true));
}
rmSync(dir, { recursive: true, force: true });
const median = (x: number[]) => x.slice().sort((a, b) => a - b)[x.length >> 1];
console.log(`direct     ms of CPU: ${direct.map((x) => x.toFixed(0)).join(' ')}; median ${median(direct).toFixed(0)}`);
console.log(`bootstrap  ms of CPU: ${booted.map((x) => x.toFixed(0)).join(' ')}; median ${median(booted).toFixed(0)}`);
console.log(`bootstrap / direct (medians): ${(median(booted) / median(direct)).toFixed(3)}`);
