/**
 * The one-thread density passes (pressure-half.ts: the pressure stage's and PBF's loops over each
 * pair once) of two checkouts on one solve view, calls interleaved, each timed in CPU time
 * (process.cpuUsage), outputs compared bit for bit:
 *   npx tsx bench/density-passes-ab.ts <checkout A> [scene] [frame] [calls] [kernel]
 * (defaults: the honey drop, frame 6, 30 calls, every kernel). This checkout (B) steps the scene to the frame and
 * lists a solve at its end positions as PBF does (the density cells' rows, their upper parts
 * alone: one thread); p = α (ρ̂ − 1) where compressed (PBF's pressure: 0 where not), u the
 * velocities times the sub-timestep. Prints median ms a call of A and B, B/A, and whether the
 * outputs agree. `kernel`: one of them alone (its name as printed). `--team`: the scene on a team of
 * two threads, whose listing gives the rows a team's loops read (each row's upper part and its lower
 * entries below its thread's range, pressure-half.ts), and each kernel run over the two threads'
 * ranges one after the other on this thread, as the team's halves would run them (B's measure and
 * source: pressure-factor-advance.ts over each range); PBF's one-thread measure is left out.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseScene, createSimulation } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { prepareSolve } from '../src/particle/solve-setup.ts';
import * as HB from '../src/particle/pressure-half.ts';
import { factorAdvanceRange } from '../src/particle/pressure-factor-advance.ts';
import { spawnNodeThread } from '../src/cli/threads.ts';
import { pbfMeasureOne } from '../src/particle/pbf-measure.ts';

const argv = process.argv.slice(2), teamAt = argv.indexOf('--team'), team = teamAt >= 0;
if (team) argv.splice(teamAt, 1);
const other = argv[0];
if (!other) throw new Error('usage: npx tsx bench/density-passes-ab.ts <checkout A> [scene] [frame] [calls] [kernel]');
const file = argv[1] ?? 'scenes/honey-drop.json', frame = Number(argv[2] ?? 6), reps = Number(argv[3] ?? 30), only = argv[4];
const HA = (await import(pathToFileURL(resolve(other, 'src/particle/pressure-half.ts')).href)) as typeof HB;
const json = JSON.parse(readFileSync(file, 'utf8'));
json.engines = ['particle'];
const sim = createSimulation(parseScene(json), 'particle', team ? { workers: 2, spawnThread: spawnNodeThread } : { workers: 1 }) as ParticleSimulation;
await sim.ready?.();
for (let f = 0; f < frame; f++) sim.stepFrame();
const ctx = sim.ctx, n = ctx.liquid.count;
ctx.adhesionPairsCurrent = false;
const pr = prepareSolve(ctx, false, false);
const v = pr.v, hr = v.half!;
// The threads' ranges (one thread: [0, n)); `over` runs a kernel of [from, to) over each in turn.
const cuts = team && hr.cuts ? [...hr.cuts.subarray(1, 2 + hr.cuts[0])] : [0, n];
if (team && !hr.cuts) throw new Error('--team: the rows were not listed by range (closed walls or the filter?)');
const over = (k: (from: number, to: number) => void) => { for (let t = 0; t + 1 < cuts.length; t++) k(cuts[t], cuts[t + 1]); };
const dt = 1 / (ctx.scene.fps * ctx.scene.particle.substeps);
const u = new Float64Array(3 * n);
for (let a = 0; a < n; a++) for (let k = 0; k < 3; k++) u[3 * a + k] = ctx.liquid.vel[3 * pr.order[a] + k] * dt;
over((f, t) => HB.factorHalf(v, f, t, hr));
const p0 = new Float64Array(n);
let zero = 0;
for (let a = 0; a < n; a++) {
  p0[a] = v.dens[a] > 1 ? (v.dens[a] - 1) * v.alpha[a] : 0;
  if (p0[a] === 0) zero++;
}
const dens0 = v.dens.slice(0, n), alpha0 = v.alpha.slice(0, n);
// The second solve's first step (pressure.ts: the first pressure taken back but next to a body): p0 kept on the slots away from bodies alone.
const pFar = new Float64Array(n);
for (let a = 0; a < n; a++) pFar[a] = ctx.liquid.nearObject[pr.order[a]] ? 0 : p0[a];
const bytes = (x: ArrayLike<number> & { buffer: ArrayBufferLike; byteOffset: number }, len: number, size: number) => Buffer.from(x.buffer, x.byteOffset, len * size);
// (`counts` false: the slots' neighbour counts left out, which PBF's measure does not write.)
const snap = (counts = true) => Buffer.concat([bytes(v.dens, n, 8), bytes(v.alpha, n, 8), ...(counts ? [bytes(v.nb, n, 4)] : []), bytes(v.dx, 3 * n, 8), bytes(v.p, n, 8), bytes(v.res, n, 8), bytes(v.kg, v.ls[n], 4), bytes(v.bg, v.bs[n], 4)]);
const prep = () => { v.p.set(p0); v.dens.set(dens0); v.alpha.set(alpha0); v.dx.fill(0, 0, 3 * n); v.res.fill(0, 0, n); };
type K = [string, (H: typeof HB) => void, (() => void)?, boolean?];
const kernels: K[] = [
  ['factor', (H) => over((f, t) => H.factorHalf(v, f, t, hr))],
  // PBF's measure (pbf-measure.ts) in B against A's factorHalf: ρ̂, α and the slopes compared, not the counts.
  ...(team ? [] : [['pbf measure', (H: typeof HB) => (H === HB ? pbfMeasureOne(v, n, hr) : H.factorHalf(v, 0, n, hr)), undefined, false] as K]),
  ['density', (H) => over((f, t) => H.densityHalf(v, f, t, hr))],
  ['advance', (H) => over((f, t) => H.advanceHalf(v, f, t, hr, u, null))],
  ['displace', (H) => over((f, t) => H.displaceHalf(v, f, t, hr))],
  ['update', (H) => over((f, t) => H.updateHalf(v, f, t, hr, 0.5)), () => over((f, t) => HB.displaceHalf(v, f, t, hr))],
  // The first solve's measure and its source's change: A as two sweeps (factorHalf, ρ̂ kept, advanceHalf), B in one
  // (pressure-factor-advance.ts, over [0, n) or a team thread's range).
  ['measure and source', (H) => {
    if (H === HB && !team) { factorAdvanceRange(v, 0, n, hr, u, null, v.res); return; }
    if (H === HB) { over((f, t) => factorAdvanceRange(v, f, t, hr, u, null, v.res)); return; }
    over((f, t) => H.factorHalf(v, f, t, hr));
    for (let a = 0; a < n; a++) { v.res[a] = v.dens[a]; v.dens[a] = 0; }
    over((f, t) => H.advanceHalf(v, f, t, hr, u, null));
  }],
  ['take back', (H) => { v.p.set(pFar); over((f, t) => H.displaceHalf(v, f, t, hr)); }],
  // The pass after it (the second solve starts from 0 next to a body): the update of a displacement that is 0 on most slots.
  ['its update', (H) => over((f, t) => H.updateHalf(v, f, t, hr, 0.5)), () => { v.p.set(pFar); over((f, t) => HB.displaceHalf(v, f, t, hr)); }],
];
const cpu = (f: () => void): number => { const c0 = process.cpuUsage(); f(); const c = process.cpuUsage(c0); return (c.user + c.system) / 1000; };
const median = (x: number[]) => [...x].sort((a, b) => a - b)[x.length >> 1];
console.log(`${file}, frame ${frame}: ${n} slots${team ? ` over two threads' ranges cut at ${cuts[1]}` : ''}, ${(v.ls[n] / n).toFixed(1)} ${team ? '' : 'upper '}row entries a slot, ${(zero / n * 100).toFixed(0)} % of slots without pressure; load ${loadavg()[0].toFixed(1)}`);
for (const [name, k, pre, counts] of kernels) {
  if (only !== undefined && name !== only) continue;
  const ready = () => { prep(); pre?.(); };
  ready(); k(HA); const a = snap(counts);
  ready(); k(HB); const b = snap(counts);
  const ta: number[] = [], tb: number[] = [];
  // Which goes first alternates from call to call.
  for (let r = 0; r < reps; r++) {
    if (r % 2 === 0) { ready(); ta.push(cpu(() => k(HA))); }
    ready(); tb.push(cpu(() => k(HB)));
    if (r % 2 === 1) { ready(); ta.push(cpu(() => k(HA))); }
  }
  console.log(`  ${name.padEnd(9)} A ${median(ta).toFixed(3)} ms, B ${median(tb).toFixed(3)} ms: B/A ${(median(tb) / median(ta)).toFixed(3)}, ${a.equals(b) ? 'same bits' : 'DIFFERENT'}`);
}
sim.dispose();
process.exit(0);
