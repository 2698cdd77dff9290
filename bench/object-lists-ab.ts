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
import { abLine, cpuMs, loadBoth, stepWindow, turns, windowArgs } from './solve-view.ts';

const w = windowArgs('object-lists-ab.ts', { first: 4, last: 12, reps: 20 });
type Lists = { start: Int32Array; j: Uint16Array | Int32Array; length: number; clear: Float32Array };
const { A, B } = await loadBoth<{ ol: { listObjectContacts(ctx: unknown, dt: number): void } }>(w.other, { ol: 'src/particle/object-lists.ts' });
const t: Record<'A' | 'B', number[]> = { A: [], B: [] };
let same = true, entries = 0, calls = 0;
const first = stepWindow(w, (ctx) => {
  const dt = 1 / (ctx.scene.fps * ctx.scene.particle.substeps);
  const got: Record<string, string> = {};
  for (let r = 0; r < w.reps; r++) {
    for (const k of turns(r)) {
      // Each checkout's own lists (its module's class), made afresh on the context.
      ctx.objectLists = undefined;
      t[k].push(cpuMs(() => (k === 'A' ? A : B).ol.listObjectContacts(ctx, dt)));
      if (r < 2) {
        const l = ctx.objectLists as unknown as Lists, n = ctx.liquid.count;
        got[k] = Buffer.concat([Buffer.from(l.start.buffer, l.start.byteOffset, 4 * (n + 1)), Buffer.from(l.j.buffer, l.j.byteOffset, l.j.BYTES_PER_ELEMENT * l.length),
          Buffer.from(l.clear.buffer, l.clear.byteOffset, 16 * n)]).toString('base64');
        entries += l.length; calls++;
      }
    }
    if (r < 2 && got.A !== got.B) same = false;
  }
}, () => `${(entries / calls).toFixed(0)} entries a call`);
console.log(first);
console.log(abLine('object contact lists', t.A, t.B));
console.log(`  lists ${same ? 'the same entry for entry' : 'DIFFER'}`);
