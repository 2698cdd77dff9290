/**
 * The object-slot listings of two checkouts on the same states, calls interleaved, each timed in
 * CPU time (process.cpuUsage; one thread): the implicit viscosity's object rows
 * (viscosity-weiler-boundary.ts listObjectRows, at the viscosity's h) and the solves' boundary rows
 * over the liquid cells (solve-boundary-rows.ts listBoundaryRows, at the density kernel's h):
 *   npx tsx bench/object-rows-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]
 * (B is this checkout; defaults: the honey drop, frames 6–12, 20 calls a frame). Both simulations
 * step to each frame; there each lists from B's state (positions, flags, cells) with its own code,
 * so the lists must be the same entry for entry (checked: start and entries). Prints median and
 * mean ms a call of each listing, B/A, and the entries a flagged particle.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';

const args = process.argv.slice(2);
const other = args[0];
if (!other) throw new Error('usage: npx tsx bench/object-rows-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]');
const file = args[1] ?? 'scenes/honey-drop.json', first = Number(args[2] ?? 6), last = Number(args[3] ?? 12), reps = Number(args[4] ?? 20);
async function load(root: string) {
  const imp = (p: string) => import(pathToFileURL(resolve(root, p)).href);
  return {
    idx: await imp('src/index.ts'), nb: await imp('src/particle/neighbours.ts'),
    vb: await imp('src/particle/viscosity-weiler-boundary.ts'), sb: await imp('src/particle/solve-boundary-rows.ts'),
  };
}
const A = await load(other), B = await load(resolve(import.meta.dirname, '..'));
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
const t: Record<string, number[]> = { visA: [], visB: [], solA: [], solB: [] };
let entries = 0, flagged = 0, same = true;
const load0 = loadavg()[0];
for (let f = 1; f <= last; f++) {
  sim.stepFrame();
  if (f < first) continue;
  const L = ctx.liquid, n = L.count, st = ctx.viscositySolve, nm = ctx.mass.length;
  let hmax = 0;
  for (let a = 0; a < nm; a++) hmax = Math.max(hmax, st.ph[a * (nm + 1)]);
  ctx.cells.updateBoxes(L.pos);
  const lists = { A: [new A.nb.NeighbourList(), new A.nb.NeighbourList()], B: [new B.nb.NeighbourList(), new B.nb.NeighbourList()] };
  for (let r = 0; r < reps; r++) {
    for (const [k, m] of (r % 2 === 0 ? [['A', A], ['B', B]] : [['B', B], ['A', A]]) as [string, typeof A][]) {
      const [lv, lsv] = lists[k as 'A' | 'B'];
      lv.reset(n);
      t['vis' + k].push(cpu(() => m.vb.listObjectRows(ctx, st.ph2, hmax, ctx.objectSlotPos, n, lv)));
      lv.start[n] = lv.length;
      lsv.reset(n);
      t['sol' + k].push(cpu(() => m.sb.listBoundaryRows(ctx, ctx.cells, L.pos, n, lsv)));
      lsv.start[n] = lsv.length;
    }
  }
  for (let l = 0; l < 2; l++) {
    const a = lists.A[l], b = lists.B[l];
    if (a.length !== b.length) same = false;
    for (let i = 0; i <= n && same; i++) if (a.start[i] !== b.start[i]) same = false;
    for (let e = 0; e < a.length && same; e++) if (a.j[e] !== b.j[e]) same = false;
  }
  entries += lists.B[0].length;
  for (let i = 0; i < n; i++) flagged += L.nearObject[i];
}
console.log(`${file}, frames ${first}–${last}, ${reps} calls each a frame, load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
for (const s of ['vis', 'sol']) {
  const a = t[s + 'A'], b = t[s + 'B'];
  console.log(`  ${s === 'vis' ? 'viscosity object rows' : 'solve boundary rows  '}: A median ${med(a).toFixed(3)} mean ${mean(a).toFixed(3)} ms, B median ${med(b).toFixed(3)} mean ${mean(b).toFixed(3)} ms; B/A median ${(med(b) / med(a)).toFixed(3)}, mean ${(mean(b) / mean(a)).toFixed(3)}`);
}
console.log(`  viscosity rows: ${(entries / flagged).toFixed(1)} entries a flagged particle; lists ${same ? 'the same entry for entry' : 'DIFFER'}`);
