/**
 * A solve's listing over the density cells (solve-setup.ts prepareSolve at the positions after the
 * moves, as PBF lists its rows: the cells, the liquid rows' upper parts, the boundary rows) of two
 * checkouts on the same state, calls interleaved, each timed in CPU time (process.cpuUsage; one
 * thread), the rows compared entry for entry:
 *   npx tsx bench/rows-list-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]
 * (B is this checkout; defaults: the honey drop, frames 6–12, 20 calls a frame). This checkout's
 * simulation steps to each frame; there each checkout's prepareSolve lists from that state.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';

const args = process.argv.slice(2);
const other = args[0];
if (!other) throw new Error('usage: npx tsx bench/rows-list-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]');
const file = args[1] ?? 'scenes/honey-drop.json', first = Number(args[2] ?? 6), last = Number(args[3] ?? 12), reps = Number(args[4] ?? 20);
const load = async (root: string) => (await import(pathToFileURL(resolve(root, 'src/particle/solve-setup.ts')).href)) as { prepareSolve(ctx: unknown): { v: { ls: Int32Array; lj: Int32Array | Uint16Array; bs: Int32Array; bj: Int32Array }; n: number } };
const A = await load(other), B = await load(resolve(import.meta.dirname, '..'));
const idx = await import(pathToFileURL(resolve(import.meta.dirname, '../src/index.ts')).href);
const sim = idx.createSimulation(idx.parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', { workers: 1 });
const ctx = sim.ctx;
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
      ctx.adhesionPairsCurrent = false;
      const c0 = process.cpuUsage();
      const pr = m.prepareSolve(ctx);
      const c = process.cpuUsage(c0);
      t[k].push((c.user + c.system) / 1000);
      if (r < 2) {
        const v = pr.v, n = pr.n;
        const h = [Buffer.from(v.ls.buffer, v.ls.byteOffset, 4 * (n + 1)), Buffer.from(v.lj.buffer, v.lj.byteOffset, v.lj.BYTES_PER_ELEMENT * v.ls[n]),
          Buffer.from(v.bs.buffer, v.bs.byteOffset, 4 * (n + 1)), Buffer.from(v.bj.buffer, v.bj.byteOffset, 4 * v.bs[n])];
        got[k] = Buffer.concat(h).toString('base64');
        entries += v.ls[n]; calls++;
      }
    }
    if (r < 2 && got.A !== got.B) same = false;
  }
}
console.log(`${file}, frames ${first}–${last}, ${reps} calls each a frame, ${(entries / calls).toFixed(0)} row entries a call, load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
console.log(`  PBF's listing (prepareSolve): A median ${med(t.A).toFixed(3)} mean ${mean(t.A).toFixed(3)} ms, B median ${med(t.B).toFixed(3)} mean ${mean(t.B).toFixed(3)} ms; B/A median ${(med(t.B) / med(t.A)).toFixed(3)}, mean ${(mean(t.B) / mean(t.A)).toFixed(3)}`);
console.log(`  rows ${same ? 'the same entry for entry' : 'DIFFER'}`);
