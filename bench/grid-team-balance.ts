/**
 * How evenly the grid engine's jobs (src/grid/jobs.ts) split between two threads, and what stays
 * serial, measured on one thread (so that a loaded machine, which makes two-thread wall times
 * meaningless, disturbs it little): each pass of a phased job (src/grid/phases.ts) runs as its
 * two halves one after the other (the cells thread 0 and thread 1 would take), each half timed in
 * CPU time; the halves of a pass are independent, so the run is the engine's. Whatever runs
 * outside a job is serial.
 *
 *   npx tsx bench/grid-team-balance.ts [scene] [firstFrame] [lastFrame]
 * (defaults: the dam break, frames 2–4.) Prints, per job: passes and CPU ms a frame, the slower
 * halves' share (the multigrid PCG, whose passes meet at barriers within one kernel, counts as
 * halving but for its coarse correction, which the calling thread does alone); the frame's serial ms by stage; and the two-thread ceiling: frame / (serial +
 * Σ slower halves), which ignores the team's wake-ups and barriers (one a pass). A stage that keeps
 * a cheaper serial loop for one thread (gridWork.teamPathOnOneThread) takes the team's path here.
 */
import { loadavg } from 'node:os';
import { createSimulation } from '../src/index.ts';
import { loadScene } from '../src/cli/load-scene.ts';
import { GRID_JOBS } from '../src/grid/jobs.ts';
import { gridWork, phasesOf, type Phase } from '../src/grid/phases.ts';
import { MultigridPreconditioner } from '../src/grid/multigrid.ts';
import type { AnyJob } from '../src/parallel/job.ts';

const [file = 'scenes/dam-break.json', firstS = '2', lastS = '4'] = process.argv.slice(2);
const first = Number(firstS), last = Number(lastS);

interface Row { calls: number; passes: number; whole: number; slower: number }
const rows = new Map<string, Row>();
/** Job CPU ms per stage (to subtract from the stage's time). */
let inJobs = 0;
let measuring = false;
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

type Args = Parameters<AnyJob['kernel']>[0];

// The multigrid PCG's coarse correction, which its calling thread does alone (CPU ms).
let coarseMs = 0;
const coarse = MultigridPreconditioner.prototype.coarse;
MultigridPreconditioner.prototype.coarse = function (this: MultigridPreconditioner, t: Float64Array) {
  const t0 = cpuMs();
  const x = coarse.call(this, t);
  coarseMs += cpuMs() - t0;
  return x;
};

for (const job of GRID_JOBS.layouts.map((l) => l.job as AnyJob)) {
  const kernel = job.kernel, parts = phasesOf(job.name);
  (job as { kernel: (x: Args) => void }).kernel = (x: Args) => {
    if (!measuring || x.size !== 1) return kernel(x);
    const row = rows.get(job.name) ?? { calls: 0, passes: 0, whole: 0, slower: 0 };
    rows.set(job.name, row);
    row.calls++;
    const t0 = cpuMs();
    if (!parts) {
      // The multigrid PCG (pcg-job.ts): its passes meet at barriers inside the kernel, each split
      // evenly over the rows; the coarse correction runs on the calling thread alone.
      coarseMs = 0;
      kernel(x);
      const t = cpuMs() - t0, solo = coarseMs;
      row.whole += t;
      row.slower += solo + (t - solo) / 2;
      inJobs += t;
      return;
    }
    parts.prepare?.(x as never);
    const halves = (p: Phase<never>, round = 0) => {
      const n = p.items(x as never), mid = Math.floor(n / 2);
      const a0 = cpuMs();
      p.run(x as never, 0, mid, round);
      const a1 = cpuMs();
      p.run(x as never, mid, n, round);
      const a2 = cpuMs();
      row.slower += Math.max(a1 - a0, a2 - a1);
      row.passes++;
    };
    for (const p of parts.first) halves(p);
    for (let k = 0, K = parts.rounds(x as never); k < K; k++) for (const p of parts.phases) halves(p, k);
    for (const p of parts.last) halves(p);
    const t = cpuMs() - t0;
    row.whole += t;
    inJobs += t;
  };
}

gridWork.teamPathOnOneThread = true;
const scene = loadScene(file).scene;
const sim = createSimulation(scene, 'grid', { workers: 1 });
const load0 = loadavg()[0];
let frameMs = 0, frameWall = 0;
const stages: Record<string, number> = {};
for (let f = 1; f <= last; f++) {
  measuring = f >= first;
  const t0 = cpuMs();
  const st = sim.stepFrame();
  const ms = cpuMs() - t0;
  if (!measuring) continue;
  frameMs += ms;
  frameWall += st.wallMs;
  // The stages' wall times scaled to the frame's CPU time.
  for (const [k, t] of Object.entries(st.stages)) stages[k] = (stages[k] ?? 0) + (t * ms) / st.wallMs;
}
const frames = last - first + 1;
console.log(`${file}, frames ${first}-${last}, one thread, CPU ms a frame; load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
console.log('job                        calls/frame passes/frame  ms/frame  slower half');
let twoThread = 0;
for (const [name, r] of [...rows].sort((p, q) => q[1].whole - p[1].whole)) {
  twoThread += r.slower;
  console.log(`${name.padEnd(27)}${(r.calls / frames).toFixed(1).padStart(11)}${(r.passes / frames).toFixed(0).padStart(13)}${(r.whole / frames).toFixed(1).padStart(10)}${(r.whole > 0 ? r.slower / r.whole : 0).toFixed(2).padStart(13)}`);
}
const serial = frameMs - inJobs;
console.log(`frame ${(frameMs / frames).toFixed(1)} ms: in jobs ${(inJobs / frames).toFixed(1)}, serial ${(serial / frames).toFixed(1)} (${((100 * serial) / frameMs).toFixed(1)} %)`);
console.log(`stages (CPU ms a frame, jobs included): ${Object.entries(stages).sort((a, b) => b[1] - a[1]).map(([k, t]) => `${k} ${(t / frames).toFixed(0)}`).join(', ')}`);
console.log(`two-thread ceiling (no team overhead): ${(frameMs / (serial + twoThread)).toFixed(2)}×`);
sim.dispose();
