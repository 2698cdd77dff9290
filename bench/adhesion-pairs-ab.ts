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
import { abLine, cpuMs, loadBoth, stepWindow, turns, windowArgs } from './solve-view.ts';
import { adhesionTables as tables } from '../src/particle/adhesion-tables.ts';

const w = windowArgs('adhesion-pairs-ab.ts', { first: 6, last: 12, reps: 20 });
// Both checkouts' modules, loaded at run time (typed as loosely as import() gives them).
type Mods = { nb: any; adh: any; rows: any };
const { A, B } = await loadBoth<Mods>(w.other, { nb: 'src/particle/neighbours.ts', adh: 'src/particle/adhesion.ts', rows: 'src/particle/slot-rows.ts' });
const t: Record<'A' | 'B', number[]> = { A: [], B: [] };
let same = true;
type Out = { acc: Float64Array; sumK: Float64Array; pairs: { start: Int32Array; j: Int32Array; length: number }; contacts: { start: Int32Array; j: Int32Array; length: number }; rows: { start: Int32Array; j: Int32Array | Uint16Array; length: number } };
const first = stepWindow(w, (ctx) => {
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
  for (let r = 0; r < w.reps; r++) {
    for (const k of turns(r)) {
      const m = k === 'A' ? A : B;
      const acc = new Float64Array(3 * n), sumK = new Float64Array(n), pairs = new m.nb.NeighbourList(), contacts = new m.nb.NeighbourList();
      const sc = scratch[k] as { rows: Out['rows'] & { reset(n: number): void } };
      pairs.reset(n);
      contacts.reset(n);
      sc.rows.reset(n);
      const a = { acc, sumK, pos: L.pos, mat: L.material, dens: L.density, start: g.start, count: g.count, first: c.first, cells: c.cells, box: c.box, tf: T.f64, ti: T.i32 };
      t[k].push(cpuMs(() => m.adh.liquidPairRange(a, s, 0, g.cellCount, pairs, contacts, sc)));
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
});
console.log(first);
console.log(abLine('liquid pair loop', t.A, t.B));
console.log(`  outputs ${same ? 'the same bit for bit' : 'DIFFER'}`);
