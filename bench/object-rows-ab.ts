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
import { abLine, cpuMs, loadBoth, stepWindow, turns, windowArgs } from './solve-view.ts';

const w = windowArgs('object-rows-ab.ts', { first: 6, last: 12, reps: 20 });
// Both checkouts' modules, loaded at run time (typed as loosely as import() gives them).
type Mods = { nb: any; vb: any; sb: any };
const { A, B } = await loadBoth<Mods>(w.other, {
  nb: 'src/particle/neighbours.ts', vb: 'src/particle/viscosity-weiler-boundary.ts', sb: 'src/particle/solve-boundary-rows.ts',
});
const t: Record<string, number[]> = { visA: [], visB: [], solA: [], solB: [] };
let entries = 0, flagged = 0, same = true;
const first = stepWindow(w, (ctx) => {
  const L = ctx.liquid, n = L.count, st = ctx.viscositySolve!, nm = ctx.mass.length;
  let hmax = 0;
  for (let a = 0; a < nm; a++) hmax = Math.max(hmax, st.ph[a * (nm + 1)]);
  ctx.cells.updateBoxes(L.pos);
  const lists = { A: [new A.nb.NeighbourList(), new A.nb.NeighbourList()], B: [new B.nb.NeighbourList(), new B.nb.NeighbourList()] };
  for (let r = 0; r < w.reps; r++) {
    for (const k of turns(r)) {
      const m = k === 'A' ? A : B;
      const [lv, lsv] = lists[k as 'A' | 'B'];
      lv.reset(n);
      t['vis' + k].push(cpuMs(() => m.vb.listObjectRows(ctx, st.ph2, hmax, ctx.objectSlotPos, n, lv)));
      lv.start[n] = lv.length;
      lsv.reset(n);
      t['sol' + k].push(cpuMs(() => m.sb.listBoundaryRows(ctx, ctx.cells, L.pos, n, lsv)));
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
});
console.log(first);
console.log(abLine('viscosity object rows', t.visA, t.visB));
console.log(abLine('solve boundary rows  ', t.solA, t.solB));
console.log(`  viscosity rows: ${(entries / flagged).toFixed(1)} entries a flagged particle; lists ${same ? 'the same entry for entry' : 'DIFFER'}`);
