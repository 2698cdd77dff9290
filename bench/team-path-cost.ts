/**
 * What the team's path costs against the one-thread path, on one thread (CPU time, so that a
 * loaded machine disturbs it little): two simulations of a scene stepped alternately (which one
 * steps first alternates by frame), one on the one-thread path (half rows), one on the team's
 * (teamWork.teamRowsOnOneThread: the implicit viscosity's full rows listed by its row jobs, the
 * pressure solve's rows from the pairs by the team's jobs), each a frame in turn:
 *   npx tsx bench/team-path-cost.ts [scene] [firstFrame] [lastFrame] [--swap] [--same]
 * (defaults: the honey drop, frames 3–12). The bench is biased: with both on the one-thread path
 * (`--same`) the simulation labelled "team" took 1.16–1.20× the CPU of the other (load 13–26),
 * whichever was made first (`--swap`: the team's path's simulation made first), cause not found:
 * read a ratio against a `--same` run of the same sitting, not against 1. Prints CPU ms a frame of each and their ratio, the stage
 * laps (wall ms a frame) and the passes and CG iterations a frame (the same in both when the two
 * paths solve alike). On one thread the team's kernels run over every row as one range, so a
 * two-thread run adds only the pairs that cross the threads' ranges. Then each job's CPU ms a
 * frame on both paths (the kernels wrapped in this process only), the largest differences first;
 * what runs outside a job is "serial".
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene, createSimulation } from '../src/index.ts';
import { teamWork } from '../src/particle/work.ts';
import { PARTICLE_JOBS } from '../src/particle/jobs.ts';
import type { AnyJob } from '../src/parallel/job.ts';

const argv = process.argv.slice(2), swap = argv.includes('--swap'), same = argv.includes('--same');
const [file = 'scenes/honey-drop.json', firstS = '3', lastS = '12'] = argv.filter((a) => !a.startsWith('--'));
const first = Number(firstS), last = Number(lastS);
const make = () => createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', { workers: 1 });
let one = make(), team = make();
if (swap) [one, team] = [team, one];
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
type Acc = { cpu: number[]; stages: Record<string, number>; counts: Record<string, number>; jobs: Record<string, number> };
const acc: Record<'one' | 'team', Acc> = {
  one: { cpu: [], stages: {}, counts: {}, jobs: {} }, team: { cpu: [], stages: {}, counts: {}, jobs: {} },
};
let now: Acc | null = null;
type Args = Parameters<AnyJob['kernel']>[0];
for (const job of PARTICLE_JOBS.layouts.map((l) => l.job as AnyJob)) {
  const kernel = job.kernel;
  // The job specs are plain objects: the kernel is swapped here, in this process only.
  (job as { kernel: (x: Args) => void }).kernel = (x: Args) => {
    if (now === null) return kernel(x);
    const t0 = cpu();
    kernel(x);
    now.jobs[job.name] = (now.jobs[job.name] ?? 0) + cpu() - t0;
  };
}
const COUNTS = ['densityPasses', 'pressurePasses', 'viscosityIterations', 'viscositySolves', 'substeps'];
const l0 = loadavg()[0];
for (let f = 1; f <= last; f++) {
  for (const which of f % 2 === 0 ? (['one', 'team'] as const) : (['team', 'one'] as const)) {
    teamWork.teamRowsOnOneThread = which === 'team' && !same;
    const a = acc[which];
    now = f >= first ? a : null;
    const t0 = cpu();
    const r = (which === 'team' ? team : one).stepFrame();
    const dt = cpu() - t0;
    now = null;
    if (f < first) continue;
    a.cpu.push(dt);
    for (const [k, v] of Object.entries(r.stages)) a.stages[k] = (a.stages[k] ?? 0) + v;
    for (const k of COUNTS) a.counts[k] = (a.counts[k] ?? 0) + (r.counters[k] ?? 0);
  }
}
teamWork.teamRowsOnOneThread = false;
const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
const c1 = mean(acc.one.cpu), cT = mean(acc.team.cpu), F = acc.one.cpu.length;
console.log(`${file}, frames ${first}–${last}${swap ? ', the team\'s path made first' : ''}${same ? ', both on the one-thread path' : ''}, load ${l0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
console.log(`  CPU ms a frame: one-thread path ${c1.toFixed(1)}, team's path ${cT.toFixed(1)}, team / one ${(cT / c1).toFixed(3)}`);
console.log('  stage laps, wall ms a frame (one-thread path, team\'s path):');
for (const k of Object.keys(acc.one.stages)) {
  console.log(`    ${k.padEnd(14)} ${(acc.one.stages[k] / F).toFixed(1).padStart(8)} ${((acc.team.stages[k] ?? 0) / F).toFixed(1).padStart(8)}`);
}
console.log(`  a frame (one-thread path / team's path): ${COUNTS.map((k) => `${k} ${(acc.one.counts[k] / F).toFixed(2)} / ${(acc.team.counts[k] / F).toFixed(2)}`).join('; ')}`);
console.log('  CPU ms a frame by job (one-thread path, team\'s path, difference):');
const sum = (o: Record<string, number>) => Object.values(o).reduce((s, v) => s + v, 0);
acc.one.jobs.serial = acc.one.cpu.reduce((s, v) => s + v, 0) - sum(acc.one.jobs);
acc.team.jobs.serial = acc.team.cpu.reduce((s, v) => s + v, 0) - sum(acc.team.jobs);
const names = [...new Set([...Object.keys(acc.one.jobs), ...Object.keys(acc.team.jobs)])];
const d = (k: string) => (acc.team.jobs[k] ?? 0) - (acc.one.jobs[k] ?? 0);
names.sort((p, q) => Math.abs(d(q)) - Math.abs(d(p)));
for (const k of names) {
  console.log(`    ${k.padEnd(24)} ${((acc.one.jobs[k] ?? 0) / F).toFixed(1).padStart(8)} ${((acc.team.jobs[k] ?? 0) / F).toFixed(1).padStart(8)} ${(d(k) / F).toFixed(1).padStart(8)}`);
}
one.dispose?.();
team.dispose?.();
