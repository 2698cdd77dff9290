/**
 * Bytes a point of the particle engine frame by frame (Metrics.memoryBytes over liquid and object
 * particles), with the stage buffer's share and the largest stage-buffer request of the frame by the
 * stage that asked it (StepContext.stageScratch, the caller's file and line), in one checkout (this
 * one, or the one named), on one thread or a team of [workers]:
 *   npx tsx bench/particle-memory-frames.ts [scene] [frames] [workers] [checkout]
 * With MEM_OWNERS=<frame> also the owners of that frame's bytes that hold 2 bytes a point or more
 * (the top-level fields of the step context and one level down, as bench/particle-memory.ts).
 */
import { resolve } from 'node:path';
import { treeParticleSim } from './tree-particle-sim.ts';

const file = process.argv[2] ?? 'scenes/honey-drop.json', frames = Number(process.argv[3] ?? 22), workers = Number(process.argv[4] ?? 2);
const root = resolve(process.argv[5] ?? resolve(import.meta.dirname, '..'));
const ownersAt = Number(process.env.MEM_OWNERS ?? 0);

interface Ctx {
  liquid: { count: number };
  objects: { count: number };
  stageScratch(bytes: number, shared: boolean, exact?: boolean): unknown;
  [k: string]: unknown;
}
const sim = (await treeParticleSim(root, file, workers)) as { stepFrame(): unknown; metrics(): { memoryBytes?: number }; ctx: Ctx; scene: object };
const c = sim.ctx;
const asked = new Map<string, number>();
const inner = c.stageScratch.bind(c);
c.stageScratch = (bytes: number, shared: boolean, exact = false) => {
  const line = (new Error().stack ?? '').split('\n')[2] ?? '';
  const at = /([\w-]+\.ts):(\d+)/.exec(line);
  const key = at ? `${at[1]}:${at[2]}` : line.trim();
  asked.set(key, Math.max(asked.get(key) ?? 0, bytes));
  return inner(bytes, shared, exact);
};
const stageBytes = (): number => ((c as unknown as { stageBuffer?: ArrayBufferLike }).stageBuffer?.byteLength ?? 0);

let most = 0, mostAt = 0;
console.log(`${root}: ${file}, ${workers} thread(s)`);
for (let f = 1; f <= frames; f++) {
  asked.clear();
  sim.stepFrame();
  const points = c.liquid.count + c.objects.count, per = (sim.metrics().memoryBytes ?? 0) / points;
  if (per > most) { most = per; mostAt = f; }
  const top = [...asked].sort((p, q) => q[1] - p[1]).slice(0, 3).map(([k, b]) => `${k} ${(b / points).toFixed(1)}`).join(', ');
  console.log(`frame ${String(f).padStart(2)}: ${per.toFixed(1).padStart(6)} bytes a point; stage buffer ${(stageBytes() / points).toFixed(1)} (largest asks: ${top})`);
  if (f === ownersAt) printOwners(points);
}
console.log(`the largest ${most.toFixed(1)} (frame ${mostAt})`);
process.exit(0);

function printOwners(points: number): void {
  const counted = new Set<ArrayBufferLike>(), out: [string, number][] = [];
  const buffers = (v: unknown): number => {
    const visited = new Set<unknown>([sim.scene]), stack = [v];
    let bytes = 0;
    while (stack.length > 0) {
      const x = stack.pop();
      if (typeof x !== 'object' || x === null || visited.has(x)) continue;
      visited.add(x);
      const b = ArrayBuffer.isView(x) ? x.buffer : x instanceof ArrayBuffer || x instanceof SharedArrayBuffer ? x : null;
      if (b) { if (!counted.has(b)) { counted.add(b); bytes += b.byteLength; } }
      else if (Array.isArray(x)) stack.push(...x);
      else if (x instanceof Map) stack.push(...x.values());
      else stack.push(...Object.values(x));
    }
    return bytes;
  };
  const entries = Object.entries(c).sort(([a], [b]) => +(a === 'runner') - +(b === 'runner'));
  for (const [k, v] of entries) {
    if (typeof v !== 'object' || v === null || k === 'listStore') continue;
    const leaf = ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof SharedArrayBuffer || Array.isArray(v);
    if (leaf) { out.push([k, buffers(v)]); continue; }
    for (const [k2, v2] of Object.entries(v)) if (typeof v2 === 'object' && v2 !== null && k2 !== 'store') out.push([`${k}.${k2}`, buffers(v2)]);
  }
  for (const [k, b] of out.sort((p, q) => q[1] - p[1])) if (b / points >= 2) console.log(`  ${k.padEnd(34)} ${(b / points).toFixed(1).padStart(6)}`);
}
