/**
 * The liquid pair loop (adhesion.ts liquidPairRange: the pair list, the contact lists, Σk, the
 * adhesion accelerations and, on one thread with PBF, the pressure stage's rows) of two checkouts
 * on the same states, calls interleaved, each timed in CPU time (process.cpuUsage; one thread):
 *   npx tsx bench/adhesion-pairs-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]
 * (B is this checkout; defaults: the honey drop, frames 6–12, 20 calls a frame). This checkout's
 * simulation steps to each frame; there both loops run over its cells and positions at the frame's
 * end with their own code, and their outputs must be the same bit for bit (checked: the lists'
 * starts and entries, the accelerations and Σk). Prints median and mean ms a call, B/A.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';

const args = process.argv.slice(2);
const other = args[0];
if (!other) throw new Error('usage: npx tsx bench/adhesion-pairs-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]');
const file = args[1] ?? 'scenes/honey-drop.json', first = Number(args[2] ?? 6), last = Number(args[3] ?? 12), reps = Number(args[4] ?? 20);
async function load(root: string) {
  const imp = (p: string) => import(pathToFileURL(resolve(root, p)).href);
  return {
    idx: await imp('src/index.ts'), nb: await imp('src/particle/neighbours.ts'), adh: await imp('src/particle/adhesion.ts'),
    rows: await imp('src/particle/slot-rows.ts'),
  };
}
const A = await load(other), B = await load(resolve(import.meta.dirname, '..'));
const tables = (await import(pathToFileURL(resolve(import.meta.dirname, '../src/particle/adhesion-tables.ts')).href)).adhesionTables;
const json = JSON.parse(readFileSync(file, 'utf8'));
const sim = B.idx.createSimulation(B.idx.parseScene(json), 'particle', { workers: 1 });
const ctx = sim.ctx;
const cpu = (fn: () => void): number => {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1], mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
const t: Record<'A' | 'B', number[]> = { A: [], B: [] };
const load0 = loadavg()[0];
let same = true;
type Out = { acc: Float64Array; sumK: Float64Array; pairs: { start: Int32Array; j: Int32Array; length: number }; contacts: { start: Int32Array; j: Int32Array; length: number }; rows: { start: Int32Array; j: Int32Array | Uint16Array; length: number } };
for (let f = 1; f <= last; f++) {
  sim.stepFrame();
  if (f < first) continue;
  const L = ctx.liquid, n = L.count, c = ctx.cells, g = c.grid, T = tables(ctx);
  c.box = new Float64Array(6 * g.cellCount);
  c.updateBoxes(L.pos);
  const h2 = ctx.densityH * ctx.densityH;
  const s = { cohesion: T.cohesion, cohesionOffset: T.cohesionOffset, size: T.size, invR: T.invR, reach2: T.reach2, pairReach2: T.pairReach2, contactReach2: T.contactReach2, uniform: T.uniform };
  const outs: Record<'A' | 'B', Out> = {} as Record<'A' | 'B', Out>;
  const scratch: Record<'A' | 'B', object> = {
    A: { within: new Int32Array(512), rows: new A.rows.SlotRows(), rowsH2: h2 },
    B: { within: new Int32Array(512), rows: new B.rows.SlotRows(), rowsH2: h2 },
  };
  for (let r = 0; r < reps; r++) {
    for (const [k, m] of (r % 2 === 0 ? [['A', A], ['B', B]] : [['B', B], ['A', A]]) as ['A' | 'B', typeof A][]) {
      const acc = new Float64Array(3 * n), sumK = new Float64Array(n), pairs = new m.nb.NeighbourList(), contacts = new m.nb.NeighbourList();
      const sc = scratch[k] as { rows: Out['rows'] & { reset(n: number): void } };
      pairs.reset(n);
      contacts.reset(n);
      sc.rows.reset(n);
      const a = { acc, sumK, pos: L.pos, mat: L.material, dens: L.density, start: g.start, count: g.count, first: c.first, cells: c.cells, box: c.box, tf: T.f64, ti: T.i32 };
      t[k].push(cpu(() => m.adh.liquidPairRange(a, s, 0, g.cellCount, pairs, contacts, sc)));
      outs[k] = { acc, sumK, pairs, contacts, rows: sc.rows };
    }
    const a = outs.A, b = outs.B;
    const eq = (x: ArrayLike<number>, y: ArrayLike<number>, len: number) => {
      for (let e = 0; e < len; e++) if (!Object.is(x[e], y[e])) return false;
      return true;
    };
    for (const l of ['pairs', 'contacts', 'rows'] as const) {
      if (a[l].length !== b[l].length || !eq(a[l].start, b[l].start, n) || !eq(a[l].j, b[l].j, a[l].length)) same = false;
    }
    if (!eq(a.acc, b.acc, 3 * n) || !eq(a.sumK, b.sumK, n)) same = false;
  }
}
console.log(`${file}, frames ${first}–${last}, ${reps} calls each a frame, load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
console.log(`  liquid pair loop: A median ${med(t.A).toFixed(3)} mean ${mean(t.A).toFixed(3)} ms, B median ${med(t.B).toFixed(3)} mean ${mean(t.B).toFixed(3)} ms; B/A median ${(med(t.B) / med(t.A)).toFixed(3)}, mean ${(mean(t.B) / mean(t.A)).toFixed(3)}`);
console.log(`  outputs ${same ? 'the same bit for bit' : 'DIFFER'}`);
