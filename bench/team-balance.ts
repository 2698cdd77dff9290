/**
 * How evenly the particle engine's jobs split between two threads, and what stays serial, measured
 * on one thread (so that a loaded machine, which makes two-thread wall times meaningless, disturbs
 * it little): every job split by items or by cells is run as its two halves one after the other
 * (the ranges thread 0 and thread 1 would take: items [0, n/2) and [n/2, n), or where the job's
 * cost cuts them, itemCut; cells cut as the runner cuts them, cutCellRuns), each half timed in CPU
 * time. The pressure solve runs whole and counts as halving (its halves in turn would read each
 * other's values of the phase before, and its loops need every phase on the same ranges). A job split by ranks (the slab
 * Gauss–Seidel of viscosity and the liquid contacts: its threads meet at barriers) runs whole and
 * is counted as halving. Whatever runs outside a job is serial.
 *
 *   npx tsx bench/team-balance.ts [scene] [firstFrame] [lastFrame] [--team-rows]
 * (defaults: the honey drop, frames 4–9.) --team-rows: the implicit viscosity takes a team's path on
 * the one thread (full rows listed by its row jobs, teamWork.teamRowsOnOneThread) in place of its
 * one-thread half rows, and its solve job is counted as halving (its CG's threads meet at barriers;
 * full rows halve, docs/decisions.md): without it the viscosity's set-up measured is the one-thread one. Prints, per job: CPU ms a frame, the two halves' share,
 * and the slower half's share (1 = all on one thread, 0.5 = even); then the frame's serial ms and
 * the two-thread ceiling: frame / (serial + Σ slower halves + Σ ranks jobs / 2), which ignores the
 * team's start, barriers and copies (their cost is what a two-thread run on a quiet machine adds).
 * Running a job as two halves on one thread gives the same results as one call (the halves visit
 * the items in the same order; sums and lists fill in the same order), so the run is the engine's.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene, createSimulation } from '../src/index.ts';
import { PARTICLE_JOBS } from '../src/particle/jobs.ts';
import { cutCellRuns } from '../src/parallel/memory.ts';
import { teamWork } from '../src/particle/work.ts';
import { itemCut, type AnyJob } from '../src/parallel/job.ts';

const argv = process.argv.slice(2), teamRows = argv.includes('--team-rows');
const [file = 'scenes/honey-drop.json', firstS = '4', lastS = '9'] = argv.filter((a) => !a.startsWith('--'));
// The implicit viscosity's team path on one thread: full rows, listed by its two row jobs; its
// solve (a CG whose threads meet at barriers) runs whole and is counted as halving, as the slabs are.
if (teamRows) teamWork.teamRowsOnOneThread = true;
// The pressure solve runs whole and counts as halving: as two halves one after the other, a phase
// that meets at a barrier would read the other half's values of the phase before, and the loops
// over each pair once (pressure-half.ts) read the slopes of the lower entries below a thread's
// range only where every phase took the same ranges (it blew up either way).
// Jobs split by items whose kernels meet at barriers of their own (the sort's gathers, the surface test's
// normals before its counts, the implicit viscosity's CG) run whole too: as halves in turn, a phase would read the other half's phase before.
const PHASED = new Set(['pressure-solve', 'solve-rows-count', 'liquid-sort', 'surface-sides', 'viscosity-weiler', ...(process.env.WHOLE ?? '').split(',')]);
const whole = (job: AnyJob): boolean => job.split === 'ranks' || (teamRows && job.name === 'viscosity-weiler') || PHASED.has(job.name);
const first = Number(firstS), last = Number(lastS);

interface Row { calls: number; whole: number; a: number; b: number; ranks: boolean }
const rows = new Map<string, Row>();
let measuring = false;
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

type Args = Parameters<AnyJob['kernel']>[0];

const bounds = new Int32Array(3);
for (const job of PARTICLE_JOBS.layouts.map((l) => l.job as AnyJob)) {
  const kernel = job.kernel;
  // The job specs are plain objects: the kernel is swapped here, in this process only.
  (job as { kernel: (x: Args) => void }).kernel = (x: Args) => {
    if (!measuring) return kernel(x);
    const row = rows.get(job.name) ?? { calls: 0, whole: 0, a: 0, b: 0, ranks: whole(job) };
    rows.set(job.name, row);
    row.calls++;
    if (whole(job) || x.size !== 1) {
      const t0 = cpuMs();
      kernel(x);
      const t = cpuMs() - t0;
      row.whole += t; row.a += t / 2; row.b += t / 2;
      return;
    }
    const from = x.from, to = x.to;
    let mid: number;
    if (job.split === 'cells') {
      cutCellRuns(bounds, 0, x.a[job.cellCounts!], to, x.n, 2);
      mid = bounds[1];
    } else mid = itemCut(job, x.a, x.n, 1, 2);
    const t0 = cpuMs();
    x.to = mid;
    kernel(x);
    // Per-thread outputs written at x.rank (move's stop, the contact listing's longest list).
    const keep = job.name === 'object-lists' ? x.a.longest[0] : job.name === 'move' ? x.a.stops[0] : 0;
    const t1 = cpuMs();
    x.from = mid; x.to = to;
    kernel(x);
    const t2 = cpuMs();
    x.from = from;
    if (job.name === 'object-lists') x.a.longest[0] = Math.max(keep, x.a.longest[0]);
    if (job.name === 'move' && keep >= 0) x.a.stops[0] = keep;
    row.a += t1 - t0; row.b += t2 - t1; row.whole += t2 - t0;
  };
}

const sim = createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', { workers: 1 });
const load0 = loadavg()[0];
let frameMs = 0;
for (let f = 1; f <= last; f++) {
  measuring = f >= first;
  const t0 = cpuMs();
  sim.stepFrame();
  if (measuring) frameMs += cpuMs() - t0;
}
const frames = last - first + 1;
console.log(`${file}, frames ${first}-${last}, one thread${teamRows ? ' (the viscosity on the team path: --team-rows)' : ''}, CPU ms a frame; load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
console.log('job                   calls/frame   ms/frame   half A   half B   slower half');
let inJobs = 0, twoThread = 0;
for (const [name, r] of [...rows].sort((p, q) => q[1].whole - p[1].whole)) {
  inJobs += r.whole;
  twoThread += Math.max(r.a, r.b);
  const share = (v: number) => (r.whole > 0 ? v / r.whole : 0).toFixed(2).padStart(8);
  console.log(`${name.padEnd(22)}${(r.calls / frames).toFixed(1).padStart(11)}${(r.whole / frames).toFixed(1).padStart(11)}${share(r.a)} ${share(r.b)} ${share(Math.max(r.a, r.b))}${r.ranks ? '  (whole, counted as halving)' : ''}`);
}
const serial = frameMs - inJobs;
console.log(`frame ${(frameMs / frames).toFixed(1)} ms: in jobs ${(inJobs / frames).toFixed(1)}, serial ${(serial / frames).toFixed(1)} (${((100 * serial) / frameMs).toFixed(1)} %)`);
console.log(`two-thread ceiling (no team overhead): ${(frameMs / (serial + twoThread)).toFixed(2)}×; with the serial part halved too: ${(frameMs / (serial / 2 + twoThread)).toFixed(2)}×`);
