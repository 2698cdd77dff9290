/**
 * The surface test (surface.ts markSurface: the centroid sums over the pair list, the normals and
 * the normal-side counts) of two checkouts on the same states, calls interleaved, each timed in CPU
 * time (process.cpuUsage; one thread), the flags and normals compared bit for bit:
 *   npx tsx bench/surface-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]
 * (B is this checkout; defaults: the honey drop, frames 4–12, 20 calls a frame). This checkout's
 * simulation steps to each frame; there its adhesion stage lists the pairs at the positions the
 * frame ends with (untimed), and both test the particles over that list.
 */
import { abLine, cpuMs, loadBoth, stepWindow, turns, windowArgs } from './solve-view.ts';
import { computeAdhesion } from '../src/particle/adhesion.ts';

const w = windowArgs('surface-ab.ts', { first: 4, last: 12, reps: 20 });
const { A, B } = await loadBoth<{ sf: { markSurface(ctx: unknown): number } }>(w.other, { sf: 'src/particle/surface.ts' });
const t: Record<'A' | 'B', number[]> = { A: [], B: [] };
let same = true, flagged = 0, calls = 0;
const first = stepWindow(w, (ctx) => {
  const L = ctx.liquid, n = L.count;
  const keep = [L.surface.slice(0, n), L.normal.slice(0, 3 * n)], acc = L.acc.slice(0, 3 * n), sumK = L.scalar.slice(0, n);
  // The pair list at the frame's end positions (its memory is the object contact lists' since the last listing).
  computeAdhesion(ctx);
  const got: Record<string, string> = {};
  for (let r = 0; r < w.reps; r++) {
    for (const k of turns(r)) {
      let fl = 0;
      t[k].push(cpuMs(() => (fl = (k === 'A' ? A : B).sf.markSurface(ctx))));
      if (r < 2) {
        got[k] = Buffer.concat([Buffer.from(L.surface.buffer, L.surface.byteOffset, n), Buffer.from(L.normal.buffer, L.normal.byteOffset, 3 * L.normal.BYTES_PER_ELEMENT * n)]).toString('base64');
        flagged += fl; calls++;
      }
    }
    if (r < 2 && got.A !== got.B) same = false;
  }
  // The simulation goes on from its own flags and normals.
  L.surface.set(keep[0]); L.normal.set(keep[1]); L.acc.set(acc); L.scalar.set(sumK);
}, () => `${(flagged / calls).toFixed(0)} flagged a call`);
console.log(first);
console.log(abLine('surface test', t.A, t.B));
console.log(`  flags and normals ${same ? 'the same bit for bit' : 'DIFFER'}`);
