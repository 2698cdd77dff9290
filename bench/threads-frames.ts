/**
 * Whole frames of a scene on 1 and on T threads (in the engine its `engines` names first: the
 * particle engine, or the grid's thread team, src/grid/threads.ts), the simulations stepped alternately
 * (one frame each in turn), so that the load of a shared machine falls on both alike; mean and
 * median wall time over a window of frames:
 *   npx tsx bench/threads-frames.ts [scene] [firstFrame] [lastFrame] [threads] [minParticles] [--poll US] [--separate-moves] [--no-balance] [--fixed-spin] [--poll-adapt]
 * (defaults: the paint drops, frames 23–34, 2 threads). `minParticles` overrides teamWork's
 * threshold (src/particle/work.ts) for both simulations. `--poll US`: the team's threads poll this
 * many µs between jobs before they sleep (src/parallel/team.ts teamPoll; 0, the default, none). `--separate-moves`: every move a job of its own on the team
 * (teamWork.movesWithContacts false; by default a move runs in the contacts' run where it can). `--no-balance`: two threads keep
 * the cost cut in the jobs that balance (src/parallel/share.ts teamBalance; by default their cut follows their measured times). `--fixed-spin`: every wait
 * polls its full length before it sleeps (src/parallel/wait.ts teamSpin; by default a job's polls shorten after waits that outlast them). `--poll-adapt`
 * (with `--poll US`): the poll for the next job adapts in the same way (teamPoll.adaptive). Two simulations in one process share
 * caches, so the figures run higher than `viscid bench`'s; compare them with each other.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene, createSimulation, type Simulation } from '../src/index.ts';
import { spawnNodeThread } from '../src/cli/threads.ts';
import { teamWork } from '../src/particle/work.ts';
import { teamPoll, teamSpin } from '../src/parallel/team.ts';
import { teamBalance } from '../src/parallel/share.ts';

const argv = process.argv.slice(2), pollAt = argv.indexOf('--poll');
if (pollAt >= 0) {
  teamPoll.us = Number(argv[pollAt + 1]);
  argv.splice(pollAt, 2);
}
const adaptAt = argv.indexOf('--poll-adapt');
if (adaptAt >= 0) {
  teamPoll.adaptive = true;
  argv.splice(adaptAt, 1);
}
const fixedSpinAt = argv.indexOf('--fixed-spin');
if (fixedSpinAt >= 0) {
  teamSpin.adaptive = false;
  argv.splice(fixedSpinAt, 1);
}
const separateAt = argv.indexOf('--separate-moves');
if (separateAt >= 0) {
  teamWork.movesWithContacts = false;
  argv.splice(separateAt, 1);
}
const noBalanceAt = argv.indexOf('--no-balance');
if (noBalanceAt >= 0) {
  teamBalance.on = false;
  argv.splice(noBalanceAt, 1);
}
const file = argv[0] ?? 'scenes/paint-drops.json';
const first = Number(argv[1] ?? 23), last = Number(argv[2] ?? 34), T = Number(argv[3] ?? 2);
if (argv[4]) teamWork.minParticles = Number(argv[4]);

async function make(workers: number): Promise<Simulation> {
  const scene = parseScene(JSON.parse(readFileSync(file, 'utf8')));
  const engine = scene.engines?.[0] === 'grid' ? 'grid' : 'particle';
  const sim = createSimulation(scene, engine, workers > 1 ? { workers, spawnThread: spawnNodeThread } : {});
  await sim.ready?.();
  return sim;
}

const one = await make(1), many = await make(T);
const t1: number[] = [], tT: number[] = [];
for (let f = 1; f <= last; f++) {
  const a = one.stepFrame().wallMs, b = many.stepFrame().wallMs;
  if (f >= first) {
    t1.push(a);
    tT.push(b);
  }
}
const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
const median = (x: number[]) => [...x].sort((p, q) => p - q)[x.length >> 1];
const fmt = (x: number[]) => `mean ${mean(x).toFixed(1)}, median ${median(x).toFixed(1)} ms/frame`;
console.log(`${file}, frames ${first}–${last}, threads from ${teamWork.minParticles} liquid particles, poll ${teamPoll.us} µs between jobs${teamPoll.adaptive ? ' (adapting)' : ''}, moves ${teamWork.movesWithContacts ? 'in the contacts\' run' : 'separate'}, cuts ${teamBalance.on ? 'by measured times' : 'by cost'}, polls ${teamSpin.adaptive ? 'adapting' : 'fixed'}, load ${loadavg()[0].toFixed(1)}`);
console.log(`  1 thread:  ${fmt(t1)}`);
console.log(`  ${T} threads: ${fmt(tT)} (${(mean(t1) / mean(tT)).toFixed(2)}×)`);
one.dispose();
many.dispose();
process.exit(0);
