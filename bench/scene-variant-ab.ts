/**
 * A scene against a variant of itself on this checkout's particle engine, one thread, the two
 * simulations stepped alternately in one process (one frame each in turn, the order swapped every
 * frame), so that a shared machine's load falls on both alike:
 *   npx tsx bench/scene-variant-ab.ts <scene> <firstFrame> <lastFrame> '<JS that changes the scene s>' [--every N]
 * e.g. `'s.materials.honey.particle = { kernelSupport: 4 }'` (a material setting, which
 * bench/ab-frames.ts --particle cannot reach) or `'s.particle.moves = 4'`. Prints the CPU time of
 * each frame in the window (process.cpuUsage, mean and median, B/A), the correction passes and
 * conjugate-gradient iterations of each, each stage's share of the wall time, and, every N frames
 * (default: the last), the liquid's centre of mass, lowest point, kinetic energy and the guard's
 * pushes so far, to see whether the variant runs the same course.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createSimulation, parseScene } from '../src/index.ts';

const argv = process.argv.slice(2);
const every = argv.includes('--every') ? Number(argv[argv.indexOf('--every') + 1]) : 0;
const [file, firstArg, lastArg, patch] = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
if (!file || !patch) throw new Error("usage: npx tsx bench/scene-variant-ab.ts <scene> <firstFrame> <lastFrame> '<JS changing s>' [--every N]");
const first = Number(firstArg), last = Number(lastArg);
const jsonA = JSON.parse(readFileSync(file, 'utf8')), jsonB = JSON.parse(readFileSync(file, 'utf8'));
new Function('s', patch)(jsonB);
const sims = [jsonA, jsonB].map((j) => createSimulation(parseScene(j), 'particle', { workers: 1 }));
const cpu: number[][] = [[], []];
const counters: Record<string, number>[] = [{}, {}], stages: Record<string, number>[] = [{}, {}], total: Record<string, number>[] = [{}, {}];
const load0 = loadavg()[0];
const looks: string[] = [];
for (let f = 1; f <= last; f++) {
  for (const k of f % 2 ? [0, 1] : [1, 0]) {
    const c0 = process.cpuUsage();
    const st = sims[k].stepFrame();
    const c = process.cpuUsage(c0);
    for (const [n, v] of Object.entries(st.counters)) total[k][n] = (total[k][n] ?? 0) + v;
    if (f < first) continue;
    cpu[k].push((c.user + c.system) / 1000);
    for (const [n, v] of Object.entries(st.stages)) stages[k][n] = (stages[k][n] ?? 0) + v;
    for (const [n, v] of Object.entries(st.counters)) counters[k][n] = (counters[k][n] ?? 0) + v;
  }
  if ((every > 0 && f % every === 0) || f === last) {
    for (const k of [0, 1]) {
      const m = sims[k].metrics();
      looks.push(`  frame ${f} ${k ? 'B' : 'A'}: centre ${m.centerOfMass.map((x) => x.toFixed(4)).join(', ')} m, lowest ${m.bounds.min[1].toFixed(4)} m, kinetic energy ${m.kineticEnergy.toExponential(2)} J, guard pushes ${total[k].guardPushes ?? 0}, sub-timesteps split ${total[k].subdivisions ?? 0}`);
    }
  }
}
const mean = (a: number[]): number => a.reduce((x, y) => x + y, 0) / a.length;
const median = (a: number[]): number => {
  const s = [...a].sort((x, y) => x - y), h = s.length >> 1;
  return s.length % 2 ? s[h] : 0.5 * (s[h - 1] + s[h]);
};
console.log(`${file}, frames ${first}–${last}, one thread; B: ${patch}; load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
console.log(`  CPU ms a frame: A mean ${mean(cpu[0]).toFixed(1)}, median ${median(cpu[0]).toFixed(1)}; B mean ${mean(cpu[1]).toFixed(1)}, median ${median(cpu[1]).toFixed(1)}`);
console.log(`  CPU B/A: mean ${(mean(cpu[1]) / mean(cpu[0])).toFixed(3)}, median ${(median(cpu[1]) / median(cpu[0])).toFixed(3)}`);
for (const k of [0, 1]) {
  const c = counters[k], subs = c.substeps ?? 1;
  console.log(`  ${k ? 'B' : 'A'}: ${(subs / cpu[k].length).toFixed(2)} sub-timesteps a frame; passes a sub-timestep: pressure ${((c.pressurePasses ?? 0) / subs).toFixed(2)}, density ${((c.densityPasses ?? 0) / subs).toFixed(2)}; CG ${((c.viscosityIterations ?? 0) / (c.viscositySolves || 1)).toFixed(2)} iterations a solve`);
}
const wall = [0, 1].map((k) => Object.values(stages[k]).reduce((x, y) => x + y, 0));
console.log('  share of the wall time, A and B (B/A of the stage\'s wall ms):');
for (const n of Object.keys(stages[0])) {
  console.log(`    ${n.padEnd(11)} ${((100 * stages[0][n]) / wall[0]).toFixed(1).padStart(5)} % ${((100 * (stages[1][n] ?? 0)) / wall[1]).toFixed(1).padStart(5)} %  (${((stages[1][n] ?? 0) / stages[0][n]).toFixed(2)})`);
}
console.log(looks.join('\n'));
