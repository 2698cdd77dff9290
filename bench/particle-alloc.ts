/**
 * Where a particle scene allocates: an inspector allocation-sampling profile (objects that minor
 * and major GCs collected included) over some frames after a warm-up, one thread, summed by
 * function (self):
 *   npx tsx bench/particle-alloc.ts [scene] [warm-up frames] [frames] [rows] [checkout]
 * Prints MB a profiled frame by function (self), largest first; `checkout`: another checkout's
 * engine (default this one). The sampling interval is 4 kB: a row under ~0.05 MB is noise.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const file = process.argv[2] ?? 'scenes/honey-drop.json';
const warm = Number(process.argv[3] ?? 3), frames = Number(process.argv[4] ?? 2), rows = Number(process.argv[5] ?? 25);
const root = resolve(process.argv[6] ?? resolve(import.meta.dirname, '..'));
const { parseScene, createSimulation } = (await import(pathToFileURL(resolve(root, 'src/index.ts')).href)) as {
  parseScene(json: unknown): unknown;
  createSimulation(scene: unknown, engine: string, options: object): { stepFrame(): unknown };
};
const sim = createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', { workers: 1 });
for (let f = 0; f < warm; f++) sim.stepFrame();

interface Node { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: Node[] }
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 4096,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
} as never);
for (let f = 0; f < frames; f++) sim.stepFrame();
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: Node } };
const by = new Map<string, number>();
let total = 0;
const walk = (n: Node): void => {
  const cf = n.callFrame, key = `${cf.functionName || '(anonymous)'} ${cf.url.split('/').slice(-2).join('/')}:${cf.lineNumber + 1}`;
  by.set(key, (by.get(key) ?? 0) + n.selfSize);
  total += n.selfSize;
  for (const c of n.children) walk(c);
};
walk(profile.head);
console.log(`${root}: ${file}: frames ${warm + 1}–${warm + frames}: ${(total / frames / 1e6).toFixed(2)} MB a frame sampled`);
for (const [k, v] of [...by].sort((p, q) => q[1] - p[1]).slice(0, rows)) console.log(`${(v / frames / 1e6).toFixed(3).padStart(8)}  ${k}`);
session.disconnect();
