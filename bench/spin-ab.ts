/**
 * The thread team's waits under different polls, compared in one process: one simulation of the
 * scene per policy, all on T threads, stepped alternately (one frame each in turn, the order turned
 * each frame), so that a shared machine's load falls on each alike; per policy the wall time and the
 * process's CPU time a frame (process.cpuUsage: every thread, the team's polls included) over a window,
 * and against the first policy the median of the frame-by-frame ratios.
 *   npx tsx bench/spin-ab.ts [scene] [firstFrame] [lastFrame] [threads] policy...
 * A policy: `a:US` the waits poll up to US µs before they sleep and adapt (src/parallel/wait.ts
 * SpinBudget; `a:50` is the default), `f:US` every wait polls US µs; then optionally `/p:US` the
 * spawned threads poll up to US µs for the next job, adapting (teamPoll.adaptive), or `/P:US` fixed.
 * With `--one` a one-thread simulation is stepped in the same turns, for the speed-up.
 * (defaults: the honey drop, frames 5–16, 2 threads, policies a:50 a:200.)
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene, createSimulation, type Simulation } from '../src/index.ts';
import { spawnNodeThread } from '../src/cli/threads.ts';
import { teamPoll, teamSpin, type ThreadTeam } from '../src/parallel/team.ts';
import { P_POLL, P_RUNS, P_SLEPT, P_START_LAG, PROF_JOBS, profileAt, teamProfile } from '../src/parallel/profile.ts';
// The teams made from here on hold the timers' words (profile.ts teamProfile.kept).
teamProfile.kept = true;

const argv = process.argv.slice(2), oneAt = argv.indexOf('--one'), withOne = oneAt >= 0;
if (withOne) argv.splice(oneAt, 1);
const [file = 'scenes/honey-drop.json', firstS = '5', lastS = '16', TS = '2', ...pols] = argv;
const first = Number(firstS), last = Number(lastS), T = Number(TS);
const names = pols.length > 0 ? pols : ['a:50', 'a:200'];

interface Policy { adaptive: boolean; us: number; poll: number; pollAdaptive: boolean }
function parse(s: string): Policy {
  const [w, p] = s.split('/');
  const m = /^([af]):(\d+(?:\.\d+)?)$/.exec(w), q = p === undefined ? null : /^([pP]):(\d+(?:\.\d+)?)$/.exec(p);
  if (m === null || (p !== undefined && q === null)) throw new Error(`policy ${s}: a:US or f:US, then /p:US or /P:US`);
  return { adaptive: m[1] === 'a', us: Number(m[2]), poll: q ? Number(q[2]) : 0, pollAdaptive: q ? q[1] === 'p' : false };
}
const policies = names.map(parse);
function apply(p: Policy): void {
  teamSpin.adaptive = p.adaptive;
  teamSpin.us = p.us;
  teamPoll.us = p.poll;
  teamPoll.adaptive = p.pollAdaptive;
}

async function make(workers: number): Promise<Simulation> {
  const sim = createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', workers > 1 ? { workers, spawnThread: spawnNodeThread } : {});
  await sim.ready?.();
  return sim;
}
const sims: Simulation[] = [];
for (const p of policies) {
  apply(p);
  sims.push(await make(T));
}
const one = withOne ? await make(1) : null;
const K = sims.length + (one ? 1 : 0);
const wall: number[][] = Array.from({ length: K }, () => []), cpu: number[][] = Array.from({ length: K }, () => []);
const load0 = loadavg()[0];
for (let f = 1; f <= last; f++) {
  teamProfile.on = f >= first;
  for (let j = 0; j < K; j++) {
    const k = (j + f) % K; // the order turns each frame
    const sim = k < sims.length ? sims[k] : one!;
    if (k < sims.length) apply(policies[k]);
    const c0 = process.cpuUsage(), t0 = performance.now();
    sim.stepFrame();
    const t = performance.now() - t0, c = process.cpuUsage(c0);
    if (f >= first) {
      wall[k].push(t);
      cpu[k].push((c.user + c.system) / 1000);
    }
  }
}
const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
const median = (x: number[]) => [...x].sort((p, q) => p - q)[x.length >> 1];
console.log(`${file}, frames ${first}–${last}, ${T} threads; load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
console.log('policy          wall mean  median   cpu mean  median   wall B/A (median of frames)  cpu B/A' + (one ? '   speed-up (wall means)' : ''));
for (let k = 0; k < K; k++) {
  const r = (x: number[][]) => median(x[k].map((v, i) => v / x[0][i]));
  const name = k < sims.length ? names[k] : '1 thread';
  console.log(
    `${name.padEnd(14)} ${mean(wall[k]).toFixed(1).padStart(9)} ${median(wall[k]).toFixed(1).padStart(7)} ${mean(cpu[k]).toFixed(1).padStart(10)} ${median(cpu[k]).toFixed(1).padStart(7)}` +
      `   ${r(wall).toFixed(3).padStart(10)}                   ${r(cpu).toFixed(3)}` + (one ? `   ${(mean(wall[K - 1]) / mean(wall[k])).toFixed(2)}×` : ''),
  );
}
const frames = last - first + 1;
console.log('policy          runs  slept0 slept1 (waits that slept a frame: rank 0 barriers and DONE, rank 1 barriers and the next job)  polled ms0 ms1  start lag ms');
sims.forEach((s, k) => {
  const P = (s as unknown as { team: ThreadTeam }).team.profile;
  const sum = (rank: number, field: number) => {
    let v = 0;
    for (let id = 0; id < PROF_JOBS; id++) v += P[profileAt(rank, id, field)];
    return v / frames;
  };
  console.log(`${names[k].padEnd(14)} ${sum(0, P_RUNS).toFixed(0).padStart(5)} ${sum(0, P_SLEPT).toFixed(0).padStart(7)} ${sum(1, P_SLEPT).toFixed(0).padStart(6)}` +
    `   ${sum(0, P_POLL).toFixed(2).padStart(6)} ${sum(1, P_POLL).toFixed(2).padStart(5)}  ${sum(1, P_START_LAG).toFixed(1).padStart(6)}`);
});
for (const s of sims) s.dispose();
one?.dispose();
process.exit(0);
