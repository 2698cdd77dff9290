/**
 * One particle stage of two checkouts on the same states, calls interleaved, each timed in CPU time
 * (process.cpuUsage: steadier than wall time on a loaded machine; one thread):
 *   npx tsx bench/stage-ab.ts <checkout A> <checkout B> <scene> <firstFrame> <lastFrame> <calls> <adhesion|viscosity|density>
 * Both simulations step to each frame of the window; there, from the same saved state, each call
 * sorts the liquid and computes adhesion (which the stages need) untimed, then times the stage.
 * Prints median, min and mean ms a call of each and B/A. See docs/decisions.md for figures.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
const [oldRoot, newRoot, file, firstS, lastS, repsS, stage] = process.argv.slice(2);
const first = Number(firstS), last = Number(lastS), reps = Number(repsS);
async function load(root: string) {
  const imp = (p: string) => import(pathToFileURL(resolve(root, p)).href);
  return { idx: await imp('src/index.ts'), adh: await imp('src/particle/adhesion.ts'), visc: await imp('src/particle/viscosity.ts'), dens: await imp('src/particle/density.ts') };
}
const A = await load(oldRoot), B = await load(newRoot);
const json = JSON.parse(readFileSync(file, 'utf8'));
// eslint-free loose typing: both checkouts' modules are loaded at run time.
const mk = (m: Awaited<ReturnType<typeof load>>) => m.idx.createSimulation(m.idx.parseScene(json), 'particle', { workers: 1 });
const sa = mk(A), sb = mk(B);
const tA: number[] = [], tB: number[] = [];
const dt = 1 / (json.fps ?? 30) / (sa.scene.particle.substeps);
for (let f = 1; f <= last; f++) {
  sa.stepFrame(); sb.stepFrame();
  if (f < first) continue;
  const saved = [sa, sb].map((s) => ({ pos: s.ctx.liquid.pos.slice(0, 3 * s.ctx.liquid.count), vel: s.ctx.liquid.vel.slice(0, 3 * s.ctx.liquid.count) }));
  for (let r = 0; r < reps; r++) {
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) {
      const m = k === 0 ? A : B, s = k === 0 ? sa : sb, t = k === 0 ? tA : tB;
      const ctx = s.ctx, L = ctx.liquid;
      L.pos.set(saved[k].pos); L.vel.set(saved[k].vel);
      ctx.cells.buildSorted(L);
      m.adh.computeAdhesion(ctx);
      const c0 = process.cpuUsage();
      if (stage === 'viscosity') m.visc.applyViscosity(ctx, dt);
      else if (stage === 'adhesion') m.adh.computeAdhesion(ctx);
      else if (stage === 'density') { m.dens.listDensityPairs(ctx); m.dens.correctDensity(ctx, dt); }
      const c = process.cpuUsage(c0);
      t.push((c.user + c.system) / 1000);
    }
  }
  for (const k of [0, 1]) { const L = (k === 0 ? sa : sb).ctx.liquid; L.pos.set(saved[k].pos); L.vel.set(saved[k].vel); }
}
const med = (x: number[]) => [...x].sort((a, b) => a - b)[x.length >> 1];
const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
console.log(`${file} ${stage}, frames ${first}-${last}, ${reps} reps; load ${loadavg()[0].toFixed(1)}`);
console.log(`  A median ${med(tA).toFixed(2)} min ${Math.min(...tA).toFixed(2)} mean ${mean(tA).toFixed(2)}`);
console.log(`  B median ${med(tB).toFixed(2)} min ${Math.min(...tB).toFixed(2)} mean ${mean(tB).toFixed(2)}  B/A median ${(med(tB) / med(tA)).toFixed(3)} min ${(Math.min(...tB) / Math.min(...tA)).toFixed(3)}`);
process.exit(0);
