/**
 * The variational viscosity's wet share (viscosity-variational.ts wetShare) on a scene, frame by frame:
 * how many object wall pairs it weighs and how many below 1 (those whose live cell is liquid, their mean
 * share, their distance from the y axis in cells about cell 25: honey-coil's spout), with a hash of the
 * grid's state each frame to find the first frame at which two versions of the code part (the hash is
 * printed where the code has no wetShare too); at the end the pairs below 1 by φ carried on to the wall
 * (eighths of a cell), live sample in the liquid or in air. --detail prints each pair below ½.
 * (docs/decisions.md, "The grid rope after weights60: the plate held by half at the rim".)
 *
 *   npx tsx bench/wet-share-probe.ts scenes/honey-coil.json [--frames 12] [--detail]
 */
import { loadScene } from '../src/cli/load-scene.ts';
import { createSimulation } from '../src/index.ts';
import type { GridEngineSimulation } from '../src/grid/simulation.ts';
import { VariationalViscosity } from '../src/grid/viscosity-variational.ts';

const args = process.argv.slice(2);
const frames = args.includes('--frames') ? Number(args[args.indexOf('--frames') + 1]) : 12;
const detail = args.includes('--detail');
const path = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--frames' && a !== '--detail')!;

function fnv(arrays: ArrayBufferView[]): string {
  let h = 0x811c9dc5;
  for (const a of arrays) {
    const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i], 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

// Counts per frame: pairs weighed, pairs below 1, those whose live sample is liquid (φ < 0), and the
// largest distance from the axis of a pair below 1.
const hist = new Int32Array(20);
let calls = 0, below = 0, belowWet = 0, rMax = 0, rMin = Infinity, sumShare = 0;
const proto = VariationalViscosity.prototype as unknown as Record<string, (...a: unknown[]) => number>;
const orig = proto.wetShare as ((...a: unknown[]) => number) | undefined;
if (orig) {
  proto.wetShare = function (this: { phi: Float64Array }, ...a: unknown[]): number {
    const w = orig!.apply(this, a);
    calls++;
    if (w < 1) {
      below++;
      sumShare += w;
      const s = a[0] as { ci: Int32Array; cj: Int32Array; ck: Int32Array }, live = a[2] as number;
      const r = Math.hypot(s.ci[live] + 0.5 - 25, s.ck[live] + 0.5 - 25);
      rMax = Math.max(rMax, r); rMin = Math.min(rMin, r);
      const phi = this.phi;
      if (phi[live] < 0) belowWet++;
      {
        const nb = (a[0] as { nb: Int32Array }).nb, h = a[1] as number, held = a[3] as number, comp = a[4] as number, along = a[5] as number;
        const back = nb[6 * live + 2 * along] === held ? nb[6 * live + 2 * along + 1] : nb[6 * live + 2 * along];
        const sp = (c: number) => { const m = nb[6 * c + 2 * comp]; return m >= 0 ? 0.5 * (phi[c] + phi[m]) : phi[c]; };
        const pl = sp(live), pb = back >= 0 ? sp(back) : pl, pw = pl + (a[6] as number) * (pl - pb);
        const bin = Math.max(-1, Math.min(8, Math.floor((pw / h) * 8)));
        hist[(pl <= 0 ? 0 : 10) + bin + 1]++;
      }
      if (detail && w < 0.5) {
        const nb = (a[0] as { nb: Int32Array }).nb, held = a[3] as number, comp = a[4] as number, along = a[5] as number;
        const back = nb[6 * live + 2 * along] === held ? nb[6 * live + 2 * along + 1] : nb[6 * live + 2 * along];
        const sp = (c: number) => { const m = nb[6 * c + 2 * comp]; return m >= 0 ? 0.5 * (phi[c] + phi[m]) : phi[c]; };
        console.log(`  a${comp} along${along} live (${s.ci[live]},${s.cj[live]},${s.ck[live]}) phi live ${(1e3 * sp(live)).toFixed(2)} back ${(1e3 * sp(back)).toFixed(2)} mm  theta ${(a[6] as number).toFixed(2)} wet ${w.toFixed(2)}`);
      }
    }
    return w;
  };
}
const scene = loadScene(path).scene;
const sim = createSimulation(scene, 'grid', {}) as GridEngineSimulation;
for (let f = 1; f <= frames; f++) {
  calls = below = belowWet = 0; rMax = 0; rMin = Infinity; sumShare = 0;
  sim.stepFrame();
  const s = sim.sim.store, n = s.count;
  const hash = fnv([s.ci.subarray(0, n), s.cj.subarray(0, n), s.ck.subarray(0, n), s.u[0].subarray(0, n), s.u[1].subarray(0, n), s.u[2].subarray(0, n), s.phi.subarray(0, n)]);
  console.log(`frame ${f} hash ${hash} cells ${n}` + (orig ? ` pairs ${calls} below1 ${below} (live cell liquid ${belowWet}) mean ${(below ? sumShare / below : 1).toFixed(3)} r ${below ? `${rMin.toFixed(1)}-${rMax.toFixed(1)}` : '-'} cells` : ''));
}
sim.dispose();
console.log('pairs below 1 by φ carried to the wall (eighths of a cell, [-1: below 0 … 8: ≥ 1 cell]); live sample liquid:', Array.from(hist.subarray(0, 10)).join(' '), '; live sample air:', Array.from(hist.subarray(10)).join(' '));
