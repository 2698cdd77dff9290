/**
 * Bytes a point of the particle engine (Metrics.memoryBytes: the typed arrays a simulation holds,
 * src/engines.ts heldBytes) after some frames of a scene, over liquid and object particles, in
 * another checkout and this one (the same scene and frames; one thread, or a team of [workers]
 * threads, whose runner's mirrors and per-thread lists count too):
 *   npx tsx bench/particle-memory.ts <other checkout> [scene] [frames] [workers]
 * Also prints the largest bytes a point after any frame up to [frames], the stage buffer's share,
 * the solve's neighbour-list entries a liquid particle, and
 * the owners of the bytes (fields of the step context, two levels down, each buffer counted once,
 * in the order listed, the job runner's last) that hold at least 2 bytes a point (MEM_MIN in the environment: another
 * floor) in either checkout.
 */
import { resolve } from 'node:path';
import { treeParticleSim } from './tree-particle-sim.ts';

const other = process.argv[2];
if (!other) throw new Error('usage: npx tsx bench/particle-memory.ts <other checkout> [scene] [frames]');
const file = process.argv[3] ?? 'scenes/honey-drop.json', frames = Number(process.argv[4] ?? 4), workers = Number(process.argv[5] ?? 1);

interface Sim {
  stepFrame(): unknown;
  metrics(): { memoryBytes?: number };
  scene: object;
  ctx: { liquid: { count: number }; objects: { count: number }; solve?: { pairs: { length: number } }; stageBuffer?: ArrayBufferLike };
}

/**
 * The buffers reachable from `v` that `counted` does not hold yet, walking as heldBytes
 * (src/engines.ts) does (own properties, arrays, Maps; `skip` objects not entered): added to `counted`.
 */
function newBuffers(v: unknown, skip: Set<unknown>, counted: Set<ArrayBufferLike>): number {
  const visited = new Set<unknown>(skip), stack = [v];
  let bytes = 0;
  const add = (b: ArrayBufferLike) => {
    if (counted.has(b)) return;
    counted.add(b);
    bytes += b.byteLength;
  };
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x !== 'object' || x === null || visited.has(x)) continue;
    visited.add(x);
    if (ArrayBuffer.isView(x)) add(x.buffer);
    else if (x instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && x instanceof SharedArrayBuffer)) add(x);
    else if (Array.isArray(x)) stack.push(...x);
    else if (x instanceof Map) stack.push(...x.values());
    else stack.push(...Object.values(x));
  }
  return bytes;
}

/** Bytes held under each field of `root` (two levels down), each buffer counted once, first owner first. */
function owners(root: object, skip: object[]): Map<string, number> {
  const out = new Map<string, number>(), skipped = new Set<unknown>(skip), counted = new Set<ArrayBufferLike>();
  const walk = (obj: object, prefix: string, depth: number): void => {
    // The job runner last: on a team its slots view the stages' shared arrays, which count under
    // their stages; the runner's rows are then what it alone holds (mirrors, the threads' sums and lists).
    const entries = Object.entries(obj);
    if (prefix === '') entries.sort(([a], [b]) => +(a === 'runner') - +(b === 'runner'));
    for (const [k, v] of entries) {
      // (A list store is counted through the lists that take their entries from it.)
      if (typeof v !== 'object' || v === null || k === 'store' || k === 'listStore') continue;
      const leaf = ArrayBuffer.isView(v) || v instanceof ArrayBuffer || Array.isArray(v) || (typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer);
      if (!leaf && depth > 0) {
        walk(v as object, `${prefix}${k}.`, depth - 1);
        continue;
      }
      // (Buffers an earlier owner holds count nothing here: lists that share one store, slots that view a stage's arrays.)
      out.set(prefix + k, newBuffers(v, skipped, counted));
    }
  };
  walk(root, '', 2);
  return out;
}

const rows: Map<string, number>[] = [];
for (const [name, root] of [['A', other], ['B', resolve(import.meta.dirname, '..')]]) {
  const sim = (await treeParticleSim(root, file, workers)) as Sim;
  // The largest bytes a point after any frame up to `frames` (held arrays grow and seldom shrink; a run's peak is what it needs).
  let most = 0, mostAt = 0;
  for (let f = 1; f <= frames; f++) {
    sim.stepFrame();
    const per = (sim.metrics().memoryBytes ?? 0) / (sim.ctx.liquid.count + sim.ctx.objects.count);
    if (per > most) { most = per; mostAt = f; }
  }
  const c = sim.ctx, points = c.liquid.count + c.objects.count, bytes = sim.metrics().memoryBytes ?? 0;
  const stage = c.stageBuffer?.byteLength ?? 0;
  console.log(
    `${name} ${root}: ${file} frame ${frames}, ${workers} thread(s): ${(bytes / points).toFixed(0)} bytes a point (${c.liquid.count} liquid + ${c.objects.count} object particles);`
    + ` stage buffer ${(stage / points).toFixed(0)}; solve rows ${((c.solve?.pairs.length ?? 0) / c.liquid.count).toFixed(1)} entries a liquid particle;`
    + ` the largest after any frame ${most.toFixed(0)} (frame ${mostAt})`,
  );
  const held = owners(c, [sim.scene]);
  for (const [k, b] of held) held.set(k, b / points);
  rows.push(held);
}
const keys = [...new Set([...rows[0].keys(), ...rows[1].keys()])]
  .filter((k) => Math.max(rows[0].get(k) ?? 0, rows[1].get(k) ?? 0) >= Number(process.env.MEM_MIN ?? 2))
  .sort((p, q) => (rows[1].get(q) ?? 0) - (rows[1].get(p) ?? 0));
console.log(`${'bytes a point by owner'.padEnd(36)}      A      B`);
for (const k of keys) console.log(`${k.padEnd(36)} ${(rows[0].get(k) ?? 0).toFixed(1).padStart(6)} ${(rows[1].get(k) ?? 0).toFixed(1).padStart(6)}`);
process.exit(0);
