/**
 * The surface test (surface.ts markSurface: the centroid sums over the pair list, the normals and
 * the normal-side counts) of two checkouts on the same states, calls interleaved, each timed in CPU
 * time (process.cpuUsage; one thread), the flags and normals compared bit for bit:
 *   npx tsx bench/surface-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]
 * (B is this checkout; defaults: the honey drop, frames 4–12, 20 calls a frame). This checkout's
 * simulation steps to each frame; there its adhesion stage lists the pairs at the positions the
 * frame ends with (untimed), and both test the particles over that list.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';

const args = process.argv.slice(2);
const other = args[0];
if (!other) throw new Error('usage: npx tsx bench/surface-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]');
const file = args[1] ?? 'scenes/honey-drop.json', first = Number(args[2] ?? 4), last = Number(args[3] ?? 12), reps = Number(args[4] ?? 20);
const load = async (root: string) => (await import(pathToFileURL(resolve(root, 'src/particle/surface.ts')).href)) as { markSurface(ctx: unknown): number };
const A = await load(other), B = await load(resolve(import.meta.dirname, '..'));
const idx = await import(pathToFileURL(resolve(import.meta.dirname, '../src/index.ts')).href);
const { computeAdhesion } = await import(pathToFileURL(resolve(import.meta.dirname, '../src/particle/adhesion.ts')).href);
const sim = idx.createSimulation(idx.parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', { workers: 1 });
const ctx = sim.ctx;
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1], mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
const t: Record<'A' | 'B', number[]> = { A: [], B: [] };
const load0 = loadavg()[0];
let same = true, flagged = 0, calls = 0;
for (let f = 1; f <= last; f++) {
  sim.stepFrame();
  if (f < first) continue;
  const L = ctx.liquid, n = L.count;
  const keep = [L.surface.slice(0, n), L.normal.slice(0, 3 * n)], acc = L.acc.slice(0, 3 * n), sumK = L.scalar.slice(0, n);
  // The pair list at the frame's end positions (its memory is the object contact lists' since the last listing).
  computeAdhesion(ctx);
  const got: Record<string, string> = {};
  for (let r = 0; r < reps; r++) {
    for (const [k, m] of (r % 2 === 0 ? [['A', A], ['B', B]] : [['B', B], ['A', A]]) as ['A' | 'B', typeof A][]) {
      const c0 = process.cpuUsage();
      const fl = m.markSurface(ctx);
      const c = process.cpuUsage(c0);
      t[k].push((c.user + c.system) / 1000);
      if (r < 2) {
        got[k] = Buffer.concat([Buffer.from(L.surface.buffer, L.surface.byteOffset, n), Buffer.from(L.normal.buffer, L.normal.byteOffset, 3 * L.normal.BYTES_PER_ELEMENT * n)]).toString('base64');
        flagged += fl; calls++;
      }
    }
    if (r < 2 && got.A !== got.B) same = false;
  }
  // The simulation goes on from its own flags and normals.
  L.surface.set(keep[0]); L.normal.set(keep[1]); L.acc.set(acc); L.scalar.set(sumK);
}
console.log(`${file}, frames ${first}–${last}, ${reps} calls each a frame, ${(flagged / calls).toFixed(0)} flagged a call, load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
console.log(`  surface test: A median ${med(t.A).toFixed(3)} mean ${mean(t.A).toFixed(3)} ms, B median ${med(t.B).toFixed(3)} mean ${mean(t.B).toFixed(3)} ms; B/A median ${(med(t.B) / med(t.A)).toFixed(3)}, mean ${(mean(t.B) / mean(t.A)).toFixed(3)}`);
console.log(`  flags and normals ${same ? 'the same bit for bit' : 'DIFFER'}`);
