/**
 * Where the threads of the particle engine's team spend a frame, from the team's own timers
 * (src/parallel/profile.ts): per job, its runs a frame (a job with lists runs twice: the kernel,
 * then the copy into place), each rank's share (ms a frame, its barriers included), the time each
 * rank waited at the job's barriers, the spawned threads' start lag (notify to the start of their
 * share), the calling thread's wait for the others' DONE, and the serial work before the job (the
 * calling thread's wall time since the team's previous job ended), and the kB of inputs copied to
 * shared mirrors before its runs (run-job.ts: inputs not on shared memory), and where a job's two
 * threads' cut follows their measured times (job.ts balance), the calling thread's share at the end. Only the team's simulation is
 * stepped. Wall times: on a loaded machine every wait includes the time a thread's core was given
 * away, so compare runs made in the same minutes.
 *
 *   npx tsx bench/team-profile.ts [scene] [firstFrame] [lastFrame] [threads] [--top N]
 * (defaults: the honey drop, frames 3–8, 2 threads, the 25 jobs with the most run time).
 * On Linux with 2 threads it also reads each thread's CPU clock (bench/thread-clock.ts) around every
 * run: per job, each rank's CPU time and its time runnable but off its core (run queue), which hold
 * under load where the wall times do not, and over the window the CPU of the process's other
 * threads (V8's compiler and GC, tsx's loader), how long each rank polled in its waits (polls burn
 * CPU whether or not the wait then sleeps) and how many of its waits slept (a futex sleep and
 * wake-up each), and the ceiling of two threads: one thread's CPU ÷ (the calling thread's serial CPU
 * + Σ over jobs of the slower half's CPU), the particle team's form of bench/grid-team-balance.ts's
 * figure, which ignores the wake-ups' wall time but not their CPU. `--one`: a one-thread simulation
 * of the scene is stepped alternately in the same process, frame by frame, for that one-thread CPU.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene, createSimulation } from '../src/index.ts';
import { spawnNodeThread } from '../src/cli/threads.ts';
import { PARTICLE_JOBS } from '../src/particle/jobs.ts';
import {
  P_BARRIER_WAIT, P_BARRIERS, P_BUSY, P_DONE_WAIT, P_GAP, P_MIRRORED, P_RUN, P_RUNS, P_START_LAG, PROF_JOBS, profileAt, teamProfile,
} from '../src/parallel/profile.ts';
import type { ThreadTeam } from '../src/parallel/team.ts';
import { P_CPU, P_GAP_CPU, P_GAP_RUNQ, P_POLL, P_RUNQ, P_SLEPT } from '../src/parallel/profile.ts';
import { closeThreadClocks, readAll, readThread, threadClock, threadIds } from './thread-clock.ts';
// The teams made from here on hold the timers' words (profile.ts teamProfile.kept).
teamProfile.kept = true;

const argv = process.argv.slice(2), topAt = argv.indexOf('--top');
const top = topAt >= 0 ? Number(argv.splice(topAt, 2)[1]) : 25;
const oneAt = argv.indexOf('--one'), withOne = oneAt >= 0;
if (withOne) argv.splice(oneAt, 1);
const [file = 'scenes/honey-drop.json', firstS = '3', lastS = '8', TS = '2'] = argv;
const first = Number(firstS), last = Number(lastS), T = Number(TS);

// (Made first, so that the team's calling thread runs code the one-thread simulation compiled.)
const one = withOne ? createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', {}) : null;
let oneCpu = 0, oneInGaps = 0, teamCrit = [0, 0];
const oneClock = new Float64Array(4);
const tidsBefore = new Set(threadIds());
const sim = createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', { workers: T, spawnThread: spawnNodeThread });
await sim.ready?.();
const team = (sim as unknown as { team: ThreadTeam | null }).team;
if (team === null) throw new Error('no thread team (a scene too small, or no shared memory)');
const load0 = loadavg()[0];
let wall = 0;
const stages: Record<string, number> = {};
// The spawned thread (2 threads): the thread that appeared with the team and ran the most in frame 1.
let posts0 = 0;
let tids: number[] = [], cpuAt: Float64Array | null = null, teamTid = -1;
for (let f = 1; f <= last; f++) {
  teamProfile.on = f >= first;
  if (f === 1) {
    tids = threadIds();
    cpuAt = readAll(tids);
  }
  if (f === first) posts0 = team.posts;
  if (f === first && T === 2 && teamTid > 0) {
    teamProfile.cpuClock = threadClock([process.pid, teamTid]);
    tids = threadIds();
    cpuAt = readAll(tids);
  }
  if (one !== null) {
    readThread(process.pid, oneClock, 0);
    one.stepFrame();
    readThread(process.pid, oneClock, 2);
    if (f >= first) oneCpu += oneClock[2] - oneClock[0];
    if (f > first) oneInGaps += oneClock[2] - oneClock[0];
  }
  const st = sim.stepFrame();
  if (f === 1 && cpuAt !== null) {
    const now = readAll(tids);
    let best = 0;
    tids.forEach((t, k) => {
      if (!tidsBefore.has(t) && now[2 * k] - cpuAt![2 * k] > best) [best, teamTid] = [now[2 * k] - cpuAt![2 * k], t];
    });
  }
  if (f >= first) {
    wall += st.wallMs;
    for (const [k, v] of Object.entries(st.stages)) stages[k] = (stages[k] ?? 0) + v;
  }
}
teamProfile.on = false;
const hasClock = teamProfile.cpuClock !== null;
teamProfile.cpuClock = null;
const cpuEnd = readAll(tids);
const frames = last - first + 1, P = team.profile;
const get = (rank: number, id: number, field: number) => P[profileAt(rank, id, field)] / frames;
const names = PARTICLE_JOBS.layouts.map((l) => l.job.name);
const ids = [...Array(Math.min(PROF_JOBS, names.length)).keys()].filter((id) => get(0, id, P_RUNS) > 0);
ids.sort((a, b) => get(0, b, P_RUN) - get(0, a, P_RUN));
const f1 = (v: number) => v.toFixed(1).padStart(7);
console.log(`${file}, frames ${first}–${last}, ${T} threads, wall ms a frame ${(wall / frames).toFixed(1)}; load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
console.log(`job                    runs  barriers     run  busy0  busy1  bwait0 bwait1    lag1  done0   gap  mirrored kB`);
let runs = 0, bars = 0, run = 0, gap = 0, lag = 0, done = 0, bw0 = 0, bw1 = 0, b0 = 0, b1 = 0;
ids.forEach((id, k) => {
  const r = get(0, id, P_RUNS), b = get(0, id, P_BARRIERS) / Math.max(1, r);
  runs += r; bars += get(0, id, P_BARRIERS); run += get(0, id, P_RUN); gap += get(0, id, P_GAP);
  lag += T > 1 ? get(1, id, P_START_LAG) : 0; done += get(0, id, P_DONE_WAIT);
  bw0 += get(0, id, P_BARRIER_WAIT); bw1 += T > 1 ? get(1, id, P_BARRIER_WAIT) : 0;
  b0 += get(0, id, P_BUSY); b1 += T > 1 ? get(1, id, P_BUSY) : 0;
  if (k >= top) return;
  console.log(
    `${names[id].padEnd(22)}${r.toFixed(1).padStart(6)}${b.toFixed(1).padStart(9)} ${f1(get(0, id, P_RUN))}${f1(get(0, id, P_BUSY))}${f1(T > 1 ? get(1, id, P_BUSY) : 0)}` +
    `${f1(get(0, id, P_BARRIER_WAIT))}${f1(T > 1 ? get(1, id, P_BARRIER_WAIT) : 0)}${f1(T > 1 ? get(1, id, P_START_LAG) : 0)}${f1(get(0, id, P_DONE_WAIT))}${f1(get(0, id, P_GAP))}${(get(0, id, P_MIRRORED) / 1024).toFixed(0).padStart(9)}`,
  );
});
console.log(`${'all jobs'.padEnd(22)}${runs.toFixed(1).padStart(6)}${bars.toFixed(1).padStart(9)} ${f1(run)}${f1(b0)}${f1(b1)}${f1(bw0)}${f1(bw1)}${f1(lag)}${f1(done)}${f1(gap)}`);
const serial = wall / frames - run;
console.log(`frame ${(wall / frames).toFixed(1)} ms: team runs ${run.toFixed(1)}, serial (outside runs) ${serial.toFixed(1)} (${((100 * serial) / (wall / frames)).toFixed(1)} %)`);
console.log(`buffers posted to the spawned threads (team.ts postSlots): ${((team.posts - posts0) / frames).toFixed(1)} messages a frame`);
{
  let p0 = 0, p1 = 0, s0 = 0, s1 = 0;
  for (const id of ids) { p0 += get(0, id, P_POLL); s0 += get(0, id, P_SLEPT); p1 += T > 1 ? get(1, id, P_POLL) : 0; s1 += T > 1 ? get(1, id, P_SLEPT) : 0; }
  const worst = [...ids].sort((a, b) => get(0, b, P_POLL) + get(1, b, P_POLL) - get(0, a, P_POLL) - get(1, a, P_POLL)).slice(0, 4);
  console.log(`polls a frame (ms; barriers, and rank 0's for DONE): rank 0 ${p0.toFixed(2)}, rank 1 ${p1.toFixed(2)}; waits that slept: rank 0 ${s0.toFixed(1)}, rank 1 ${s1.toFixed(1)} (each thread meets ${bars.toFixed(1)} barriers, the last to come not waiting; rank 0 waits for DONE ${runs.toFixed(1)} times, rank 1 for each job, its wait counted in its figures: by default it does not poll for the next job and sleeps before each); most polled: ` +
    worst.map((id) => `${names[id]} ${get(0, id, P_POLL).toFixed(2)} / ${get(1, id, P_POLL).toFixed(2)}`).join(', '));
}
console.log(`waits a frame: rank 1 start lag ${lag.toFixed(1)}, rank 0 DONE wait ${done.toFixed(1)}, barrier waits rank 0 ${bw0.toFixed(1)}, rank 1 ${bw1.toFixed(1)}`);
const runner = (sim as unknown as { ctx: { runner: { bind(job: unknown): { cut: { share: number } } } } }).ctx.runner;
const balanced = PARTICLE_JOBS.layouts.filter((l) => l.job.balance).map((l) => `${l.job.name} ${runner.bind(l.job).cut.share.toFixed(3)}`);
if (balanced.length > 0) console.log(`the calling thread's share of jobs cut by measured times (src/parallel/share.ts): ${balanced.join(', ')}`);
console.log('stages (wall ms a frame): ' + Object.entries(stages).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / frames).toFixed(1)}`).join(', '));
if (hasClock && cpuAt !== null) {
  console.log(`\nCPU clocks (ms a frame; /proc/self/task/TID/schedstat, bench/thread-clock.ts): cpu = time on a core (polls included), runq = runnable but off its core`);
  console.log(`job                       cpu0    cpu1  cpu0/all   runq0   runq1  wall0-cpu0-runq0  wall1-cpu1-runq1`);
  let c0 = 0, c1 = 0, q0 = 0, q1 = 0;
  ids.forEach((id, k) => {
    const a = get(0, id, P_CPU), b = get(1, id, P_CPU), qa = get(0, id, P_RUNQ), qb = get(1, id, P_RUNQ);
    c0 += a; c1 += b; q0 += qa; q1 += qb;
    if (k >= top) return;
    const sleep0 = get(0, id, P_RUN) - a - qa, sleep1 = get(1, id, P_BUSY) + get(1, id, P_START_LAG) - b - qb;
    console.log(`${names[id].padEnd(22)}${f1(a)} ${f1(b)}   ${(a / Math.max(1e-9, a + b)).toFixed(3)}  ${f1(qa)} ${f1(qb)}         ${f1(sleep0)}           ${f1(sleep1)}`);
  });
  console.log(`${'all jobs'.padEnd(22)}${f1(c0)} ${f1(c1)}   ${(c0 / Math.max(1e-9, c0 + c1)).toFixed(3)}  ${f1(q0)} ${f1(q1)}`);
  let gc = 0, gq = 0;
  ids.forEach((id) => { gc += get(0, id, P_GAP_CPU); gq += get(0, id, P_GAP_RUNQ); });
  // (With --one the one-thread simulation's frames after the first fall in a gap of the calling thread: not the team's serial work.)
  gc -= oneInGaps / frames;
  console.log(`calling thread's serial work between runs: cpu ${gc.toFixed(1)}, runq ${gq.toFixed(1)} ms a frame`);
  // The critical CPU: the calling thread's whole frame (its serial work and its halves) and, per job, what
  // the spawned half took beyond the calling thread's. (A thread's clock read while it runs lags by up to a
  // tick, so the serial gaps, read at a run's start, read short and the jobs' cpu0 long: their sum holds.)
  let behind = 0;
  for (const id of ids) behind += Math.max(0, get(1, id, P_CPU) - get(0, id, P_CPU));
  teamCrit = [behind, (c0 + c1) / 2];
  let main = 0, spawned = 0, rest = 0, mainQ = 0, spawnedQ = 0;
  tids.forEach((t, k) => {
    const d = (cpuEnd[2 * k] - cpuAt![2 * k]) / frames, q = (cpuEnd[2 * k + 1] - cpuAt![2 * k + 1]) / frames;
    if (t === process.pid) [main, mainQ] = [d - oneCpu / frames, q];
    else if (t === teamTid) [spawned, spawnedQ] = [d, q];
    else rest += d;
  });
  const crit = main + teamCrit[0], teamCpu = main + spawned;
  console.log(`serial + Σ jobs' slower half: the calling thread's ${main.toFixed(1)} + the spawned halves' lead ${teamCrit[0].toFixed(1)} = ${crit.toFixed(1)} ms a frame; the team's CPU ${teamCpu.toFixed(1)}` +
    (one !== null ? `; one thread's CPU ${(oneCpu / frames).toFixed(1)} (the team ${(teamCpu / (oneCpu / frames)).toFixed(3)} of it): ceiling one ÷ (serial + slower halves) ${(oneCpu / frames / crit).toFixed(2)}×` : ''));
  console.log(`whole frames (ms a frame${one !== null ? ', the one-thread simulation\'s left out' : ''}): calling thread cpu ${main.toFixed(1)} runq ${mainQ.toFixed(1)}; spawned thread cpu ${spawned.toFixed(1)} runq ${spawnedQ.toFixed(1)}; the process's other threads cpu ${rest.toFixed(1)}`);
}
closeThreadClocks();
sim.dispose();
one?.dispose();
process.exit(0);
