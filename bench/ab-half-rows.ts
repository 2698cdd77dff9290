/**
 * The implicit viscosity's half rows (viscosity-weiler-rows.ts halfRows) of two checkouts at once:
 * each runs the scene a few frames on one thread, then halfRows is called on each one's own state,
 * alternately, and the CPU time of each call summed (a loaded machine's share falls on both alike).
 * Also says whether the two made the same codes and blocks, bit for bit.
 *   npx tsx bench/ab-half-rows.ts <other checkout> [scene] [frames=4] [calls=200]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [other, sceneFile = 'scenes/honey-drop.json', framesArg = '4', callsArg = '200'] = process.argv.slice(2);
if (!other) throw new Error('usage: npx tsx bench/ab-half-rows.ts <other checkout> [scene] [frames] [calls]');
const frames = Number(framesArg), calls = Number(callsArg);
const json = JSON.parse(readFileSync(sceneFile, 'utf8'));

interface Side { name: string; half: (...a: unknown[]) => unknown; ctx: any; st: any; coef: Uint16Array; pinv: Float32Array; rootVol: Float32Array; cpu: number }
async function side(name: string, root: string): Promise<Side> {
  const api = await import(pathToFileURL(resolve(root, 'src/index.ts')).href);
  const rows = await import(pathToFileURL(resolve(root, 'src/particle/viscosity-weiler-rows.ts')).href);
  const sim = api.createSimulation(api.parseScene(json), 'particle', { workers: 1 });
  for (let f = 0; f < frames; f++) sim.stepFrame();
  const ctx = sim.ctx, n = ctx.liquid.count;
  return { name, half: rows.halfRows, ctx, st: ctx.viscositySolve, coef: new Uint16Array(ctx.cells.pairs.length), pinv: new Float32Array(6 * n), rootVol: new Float32Array(n), cpu: 0 };
}
const A = await side('A', other), B = await side('B', '.');
const call = (s: Side): unknown => {
  const t0 = process.cpuUsage();
  const r = s.half(s.ctx, s.st, s.ctx.liquid.count, s.coef, s.pinv, s.rootVol);
  const t = process.cpuUsage(t0);
  s.cpu += (t.user + t.system) / 1000;
  return r;
};
// Warm-up (both optimized), then the timed calls, alternating which goes first.
for (let k = 0; k < 20; k++) { call(A); call(B); }
A.cpu = 0; B.cpu = 0;
const per: number[] = [];
for (let k = 0; k < calls; k++) {
  const a0 = A.cpu, b0 = B.cpu;
  if (k & 1) { call(B); call(A); } else { call(A); call(B); }
  per.push((B.cpu - b0) / Math.max(1e-9, A.cpu - a0));
}
per.sort((x, y) => x - y);
const same = A.coef.every((c, i) => c === B.coef[i]) && A.pinv.every((c, i) => Object.is(c, B.pinv[i]));
console.log(`${sceneFile}: ${A.ctx.liquid.count} particles, ${A.ctx.cells.pairs.length} pairs; halfRows CPU ms a call A ${(A.cpu / calls).toFixed(3)}, B ${(B.cpu / calls).toFixed(3)}; B/A ${(B.cpu / A.cpu).toFixed(3)} (median of the calls' ratios ${per[calls >> 1].toFixed(3)}); codes and blocks ${same ? 'the same bits' : 'DIFFER'}; load ${loadavg()[0].toFixed(1)}`);
process.exit(0);
