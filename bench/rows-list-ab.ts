/**
 * A solve's listing over the density cells (solve-setup.ts prepareSolve at the positions after the
 * moves, as PBF lists its rows: the cells, the liquid rows' upper parts, the boundary rows) of two
 * checkouts on the same state, calls interleaved, each timed in CPU time (process.cpuUsage; one
 * thread), the rows compared entry for entry:
 *   npx tsx bench/rows-list-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]
 * (B is this checkout; defaults: the honey drop, frames 6–12, 20 calls a frame). This checkout's
 * simulation steps to each frame; there each checkout's prepareSolve lists from that state.
 */
import { abLine, cpuMs, loadBoth, stepWindow, turns, windowArgs } from './solve-view.ts';

const w = windowArgs('rows-list-ab.ts', { first: 6, last: 12, reps: 20 });
type Setup = { prepareSolve(ctx: unknown): { v: { ls: Int32Array; lj: Int32Array | Uint16Array; bs: Int32Array; bj: Int32Array }; n: number } };
const { A, B } = await loadBoth<{ ss: Setup }>(w.other, { ss: 'src/particle/solve-setup.ts' });
const t: Record<'A' | 'B', number[]> = { A: [], B: [] };
let same = true, entries = 0, calls = 0;
const first = stepWindow(w, (ctx) => {
  const got: Record<string, string> = {};
  for (let r = 0; r < w.reps; r++) {
    for (const k of turns(r)) {
      ctx.adhesionPairsCurrent = false;
      let pr!: ReturnType<Setup['prepareSolve']>;
      t[k].push(cpuMs(() => (pr = (k === 'A' ? A : B).ss.prepareSolve(ctx))));
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
}, () => `${(entries / calls).toFixed(0)} row entries a call`);
console.log(first);
console.log(abLine("PBF's listing (prepareSolve)", t.A, t.B));
console.log(`  rows ${same ? 'the same entry for entry' : 'DIFFER'}`);
