/**
 * The object contact lists (object-lists.ts listObjectContacts: each liquid particle's object
 * particles within its moves' reach, near run then far run, with its clearance) of two checkouts on
 * the same states, calls interleaved, each timed in CPU time (process.cpuUsage; one thread), the
 * lists compared entry for entry:
 *   npx tsx bench/object-lists-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]
 * (B is this checkout; defaults: the honey drop, frames 4–12, 20 calls a frame). This checkout's
 * simulation steps to each frame; there each checkout lists from its state (the last sub-timestep's
 * cells, the positions and velocities at the frame's end).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';

const args = process.argv.slice(2);
const other = args[0];
if (!other) throw new Error('usage: npx tsx bench/object-lists-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]');
const file = args[1] ?? 'scenes/honey-drop.json', first = Number(args[2] ?? 4), last = Number(args[3] ?? 12), reps = Number(args[4] ?? 20);
type Lists = { start: Int32Array; j: Uint16Array | Int32Array; length: number; clear: Float32Array };
const load = async (root: string) => (await import(pathToFileURL(resolve(root, 'src/particle/object-lists.ts')).href)) as { listObjectContacts(ctx: unknown, dt: number): void };
const A = await load(other), B = await load(resolve(import.meta.dirname, '..'));
const idx = await import(pathToFileURL(resolve(import.meta.dirname, '../src/index.ts')).href);
const sim = idx.createSimulation(idx.parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', { workers: 1 });
const ctx = sim.ctx;
const dt = 1 / (ctx.scene.fps * ctx.scene.particle.substeps);
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1], mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
const t: Record<'A' | 'B', number[]> = { A: [], B: [] };
const load0 = loadavg()[0];
let same = true, entries = 0, calls = 0;
for (let f = 1; f <= last; f++) {
  sim.stepFrame();
  if (f < first) continue;
  const got: Record<string, string> = {};
  for (let r = 0; r < reps; r++) {
    for (const [k, m] of (r % 2 === 0 ? [['A', A], ['B', B]] : [['B', B], ['A', A]]) as ['A' | 'B', typeof A][]) {
      // Each checkout's own lists (its module's class), made afresh on the context.
      ctx.objectLists = undefined;
      const c0 = process.cpuUsage();
      m.listObjectContacts(ctx, dt);
      const c = process.cpuUsage(c0);
      t[k].push((c.user + c.system) / 1000);
      if (r < 2) {
        const l = ctx.objectLists as Lists, n = ctx.liquid.count;
        got[k] = Buffer.concat([Buffer.from(l.start.buffer, l.start.byteOffset, 4 * (n + 1)), Buffer.from(l.j.buffer, l.j.byteOffset, l.j.BYTES_PER_ELEMENT * l.length),
          Buffer.from(l.clear.buffer, l.clear.byteOffset, 16 * n)]).toString('base64');
        entries += l.length; calls++;
      }
    }
    if (r < 2 && got.A !== got.B) same = false;
  }
}
console.log(`${file}, frames ${first}–${last}, ${reps} calls each a frame, ${(entries / calls).toFixed(0)} entries a call, load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
console.log(`  object contact lists: A median ${med(t.A).toFixed(3)} mean ${mean(t.A).toFixed(3)} ms, B median ${med(t.B).toFixed(3)} mean ${mean(t.B).toFixed(3)} ms; B/A median ${(med(t.B) / med(t.A)).toFixed(3)}, mean ${(mean(t.B) / mean(t.A)).toFixed(3)}`);
console.log(`  lists ${same ? 'the same entry for entry' : 'DIFFER'}`);
