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

const argv = process.argv.slice(2), topAt = argv.indexOf('--top');
const top = topAt >= 0 ? Number(argv.splice(topAt, 2)[1]) : 25;
const [file = 'scenes/honey-drop.json', firstS = '3', lastS = '8', TS = '2'] = argv;
const first = Number(firstS), last = Number(lastS), T = Number(TS);

const sim = createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', { workers: T, spawnThread: spawnNodeThread });
await sim.ready?.();
const team = (sim as unknown as { team: ThreadTeam | null }).team;
if (team === null) throw new Error('no thread team (a scene too small, or no shared memory)');
const load0 = loadavg()[0];
let wall = 0;
const stages: Record<string, number> = {};
for (let f = 1; f <= last; f++) {
  teamProfile.on = f >= first;
  const st = sim.stepFrame();
  if (f >= first) {
    wall += st.wallMs;
    for (const [k, v] of Object.entries(st.stages)) stages[k] = (stages[k] ?? 0) + v;
  }
}
teamProfile.on = false;
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
console.log(`waits a frame: rank 1 start lag ${lag.toFixed(1)}, rank 0 DONE wait ${done.toFixed(1)}, barrier waits rank 0 ${bw0.toFixed(1)}, rank 1 ${bw1.toFixed(1)}`);
const runner = (sim as unknown as { ctx: { runner: { bind(job: unknown): { cut: { share: number } } } } }).ctx.runner;
const balanced = PARTICLE_JOBS.layouts.filter((l) => l.job.balance).map((l) => `${l.job.name} ${runner.bind(l.job).cut.share.toFixed(3)}`);
if (balanced.length > 0) console.log(`the calling thread's share of jobs cut by measured times (src/parallel/share.ts): ${balanced.join(', ')}`);
console.log('stages (wall ms a frame): ' + Object.entries(stages).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / frames).toFixed(1)}`).join(', '));
sim.dispose();
process.exit(0);
