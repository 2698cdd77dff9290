/**
 * Where the CPU of a one-thread and a T-thread simulation of one scene goes, frame by frame, read
 * from each thread's CPU clock (bench/thread-clock.ts: Linux's /proc/self/task/TID/schedstat), so
 * that it holds on a loaded machine where wall times do not. The two simulations are stepped
 * alternately in one process, as bench/threads-frames.ts does. Per frame and simulation: the wall
 * time; the calling thread's CPU and run-queue time (runnable but off its core); the spawned team
 * threads' CPU and run-queue time; and the CPU of the process's other threads (V8's compiler and
 * garbage-collector threads, tsx's loader), which on a 2-core machine a one-thread frame runs on
 * the idle core and a two-thread frame takes from a team thread. Prints each frame and the means
 * over the window.
 *   npx tsx bench/threads-cpu.ts [scene] [firstFrame] [lastFrame] [threads] [--only-team]
 * (defaults: the honey drop, frames 3–12, 2 threads; `--only-team`: no one-thread simulation).
 * `--marks FILE`: writes each frame's simulation (1 or T) and its start and end on CLOCK_MONOTONIC
 * (ns), so that a `perf record -k CLOCK_MONOTONIC -e cpu-clock` of this run can be split by
 * simulation and thread: bench/perf-split.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene, createSimulation, type Simulation } from '../src/index.ts';
import { spawnNodeThread } from '../src/cli/threads.ts';
import { closeThreadClocks, readAll, threadIds } from './thread-clock.ts';

const argv = process.argv.slice(2), marksAt = argv.indexOf('--marks');
const marksFile = marksAt >= 0 ? argv.splice(marksAt, 2)[1] : null;
const marks: string[] = [];
const onlyAt = argv.indexOf('--only-team');
const onlyTeam = onlyAt >= 0;
if (onlyTeam) argv.splice(onlyAt, 1);
const [file = 'scenes/honey-drop.json', firstS = '3', lastS = '12', TS = '2'] = argv;
const first = Number(firstS), last = Number(lastS), T = Number(TS);

async function make(workers: number): Promise<Simulation> {
  const sim = createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', workers > 1 ? { workers, spawnThread: spawnNodeThread } : {});
  await sim.ready?.();
  return sim;
}

const before = new Set(threadIds());
const one = onlyTeam ? null : await make(1);
const many = await make(T);
/** Thread ids that came with the team (its spawned threads and what their loading started). */
const teamSide = new Set(threadIds().filter((t) => !before.has(t)));

interface Row { wall: number; mainCpu: number; mainQ: number; teamCpu: number; teamQ: number; other: number }
function step(sim: Simulation, f: number): Row {
  const tids = threadIds(), a = readAll(tids);
  const m0 = process.hrtime.bigint();
  const wall = sim.stepFrame().wallMs;
  if (f >= first) marks.push(`${sim === many ? T : 1} ${f} ${m0} ${process.hrtime.bigint()}`);
  const b = readAll(tids);
  const r: Row = { wall, mainCpu: 0, mainQ: 0, teamCpu: 0, teamQ: 0, other: 0 };
  tids.forEach((t, k) => {
    const c = b[2 * k] - a[2 * k], q = b[2 * k + 1] - a[2 * k + 1];
    if (t === process.pid) [r.mainCpu, r.mainQ] = [c, q];
    else if (teamSide.has(t) && c > 0.2 * wall / 10) { r.teamCpu += c; r.teamQ += q; } // a team thread (not an idle loader thread)
    else r.other += c;
  });
  return r;
}

const rows1: Row[] = [], rowsT: Row[] = [];
const f1 = (v: number) => v.toFixed(1).padStart(7);
console.log(`${file}, ${T} threads${onlyTeam ? '' : ' against 1'}, load ${loadavg()[0].toFixed(1)}; ms: wall, calling thread cpu / runq, team threads cpu / runq, the process's other threads cpu`);
console.log(`frame ${onlyTeam ? '' : '|  1: wall   cpu0  runq0  other '}| ${T}: wall   cpu0  runq0  cpuT   runqT  other`);
const line = (r: Row, team: boolean) => `${f1(r.wall)}${f1(r.mainCpu)}${f1(r.mainQ)}${team ? f1(r.teamCpu) + f1(r.teamQ) : ''}${f1(r.other)}`;
for (let f = 1; f <= last; f++) {
  const a = one !== null ? step(one, f) : null, b = step(many, f);
  if (f >= first) {
    if (a) rows1.push(a);
    rowsT.push(b);
  }
  console.log(`${String(f).padStart(5)} ${a ? '|' + line(a, false) + ' ' : ''}|${line(b, true)}`);
}
const mean = (rs: Row[], k: keyof Row) => rs.reduce((s, r) => s + r[k], 0) / Math.max(1, rs.length);
const sum = (rs: Row[]) => `wall ${mean(rs, 'wall').toFixed(1)}, calling thread cpu ${mean(rs, 'mainCpu').toFixed(1)} runq ${mean(rs, 'mainQ').toFixed(1)}, team threads cpu ${mean(rs, 'teamCpu').toFixed(1)} runq ${mean(rs, 'teamQ').toFixed(1)}, other threads cpu ${mean(rs, 'other').toFixed(1)}`;
console.log(`means over frames ${first}–${last} (ms a frame), load ${loadavg()[0].toFixed(1)}:`);
if (rows1.length > 0) console.log(`  1 thread:  ${sum(rows1)}`);
console.log(`  ${T} threads: ${sum(rowsT)}`);
if (rows1.length > 0) {
  const c1 = mean(rows1, 'mainCpu'), cT = mean(rowsT, 'mainCpu') + mean(rowsT, 'teamCpu');
  console.log(`  team CPU ÷ one thread's: ${(cT / c1).toFixed(3)}; wall 1 ÷ ${T}: ${(mean(rows1, 'wall') / mean(rowsT, 'wall')).toFixed(2)}`);
}
if (marksFile !== null) writeFileSync(marksFile, marks.join('\n') + '\n');
closeThreadClocks();
one?.dispose();
many.dispose();
process.exit(0);
