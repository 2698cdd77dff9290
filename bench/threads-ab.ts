/**
 * Two versions of the particle engine on T threads in one process (this checkout, B, and another,
 * A: `git archive main src | tar -x -C /tmp/base`, or a worktree), stepped alternately frame by
 * frame with the order turned each frame, and each thread's CPU read from its own clock
 * (bench/thread-clock.ts: /proc/self/task/TID/schedstat), so that the figures hold on a loaded
 * machine where wall times do not. Per version, over the window: the calling thread's CPU a frame
 * (the serial work and the calling thread's halves of the team's jobs: on two threads the bound
 * of the frame's critical path), the spawned threads' CPU, and with `--one` a one-thread simulation
 * of each version stepped in the same turns, for its CPU: then one thread's CPU ÷ the calling
 * thread's, the speed-up two threads could reach were every wait free (the calling thread's CPU
 * is the larger half: bench/team-profile.ts adds the spawned halves' lead, a few ms), and the
 * team's CPU ÷ one thread's. B/A per frame as the median of the frames' ratios. Whether the two
 * T-thread states stayed the same bits, frame by frame (fluidPoints).
 *
 *   npx tsx bench/threads-ab.ts <other checkout> [scene] [firstFrame] [lastFrame] [threads] [--one]
 * (defaults: the honey drop, frames 5–16, 2 threads). Linux only (the thread clocks).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { closeThreadClocks, readAll, threadIds } from './thread-clock.ts';

interface Sim {
  stepFrame(): { wallMs: number };
  fluidPoints(): { positions: Float32Array; velocities: Float32Array };
  ready?(): Promise<void>;
  dispose?(): void;
}
interface Engine {
  parseScene(json: unknown): unknown;
  createSimulation(scene: unknown, engine: string, options: object): Sim;
}

const argv = process.argv.slice(2);
const withOne = argv.includes('--one');
const pos = argv.filter((a) => !a.startsWith('--'));
const other = pos[0];
if (!other) throw new Error('usage: npx tsx bench/threads-ab.ts <other checkout> [scene] [firstFrame] [lastFrame] [threads] [--one]');
const file = pos[1] ?? 'scenes/honey-drop.json';
const first = Number(pos[2] ?? 5), last = Number(pos[3] ?? 16), T = Number(pos[4] ?? 2);

async function load(root: string): Promise<{ engine: Engine; spawn: unknown }> {
  const from = (path: string) => pathToFileURL(resolve(root, `src/${path}.ts`)).href;
  const engine = (await import(from('index'))) as Engine;
  const threads = (await import(from('cli/threads'))) as { spawnNodeThread: unknown };
  return { engine, spawn: threads.spawnNodeThread };
}

const json = JSON.parse(readFileSync(file, 'utf8'));
const A = await load(other), B = await load(resolve(import.meta.dirname, '..'));
/** A simulation and the thread ids that came with it (its team's spawned threads). */
async function make(e: { engine: Engine; spawn: unknown }, workers: number): Promise<{ sim: Sim; own: Set<number> }> {
  const before = new Set(threadIds());
  const sim = e.engine.createSimulation(e.engine.parseScene(json), 'particle', workers > 1 ? { workers, spawnThread: e.spawn } : { workers: 1 });
  await sim.ready?.();
  return { sim, own: new Set(threadIds().filter((t) => !before.has(t))) };
}
const oneA = withOne ? await make(A, 1) : null, oneB = withOne ? await make(B, 1) : null;
const teamA = await make(A, T), teamB = await make(B, T);

interface Row { wall: number; calling: number; spawned: number }
function step(s: { sim: Sim; own: Set<number> }): Row {
  const tids = threadIds(), a = readAll(tids);
  const wall = s.sim.stepFrame().wallMs;
  const b = readAll(tids);
  const r: Row = { wall, calling: 0, spawned: 0 };
  tids.forEach((t, k) => {
    const c = b[2 * k] - a[2 * k];
    if (t === process.pid) r.calling = c;
    else if (s.own.has(t)) r.spawned += c;
  });
  return r;
}

const rows = { a: [] as Row[], b: [] as Row[], oa: [] as Row[], ob: [] as Row[] };
let differs = -1;
console.log(`${file}, ${T} threads${withOne ? ' (and one)' : ''}, frames ${first}–${last}; A = ${other}, B = this checkout; load ${loadavg()[0].toFixed(1)}`);
for (let f = 1; f <= last; f++) {
  const turn: [keyof typeof rows, { sim: Sim; own: Set<number> } | null][] = [['a', teamA], ['b', teamB], ['oa', oneA], ['ob', oneB]];
  if (f % 2 === 0) turn.reverse();
  for (const [k, s] of turn) {
    if (s === null) continue;
    const r = step(s);
    if (f >= first) rows[k].push(r);
  }
  if (differs < 0) {
    const pa = teamA.sim.fluidPoints(), pb = teamB.sim.fluidPoints();
    const same = pa.positions.length === pb.positions.length && pa.positions.every((v, k) => Object.is(v, pb.positions[k])) && pa.velocities.every((v, k) => Object.is(v, pb.velocities[k]));
    if (!same) differs = f;
  }
}
const mean = (rs: Row[], k: keyof Row) => rs.reduce((s, r) => s + r[k], 0) / Math.max(1, rs.length);
const median = (v: number[]) => {
  const s = [...v].sort((x, y) => x - y), m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
};
const f1 = (v: number) => v.toFixed(1);
for (const [name, k, o] of [['A', 'a', 'oa'], ['B', 'b', 'ob']] as const) {
  const rs = rows[k], c = mean(rs, 'calling'), sp = mean(rs, 'spawned');
  let line = `${name}: ${T} threads: wall ${f1(mean(rs, 'wall'))}, calling thread cpu ${f1(c)}, spawned cpu ${f1(sp)} ms a frame`;
  if (withOne) {
    const one = mean(rows[o], 'calling');
    line += `; one thread cpu ${f1(one)}: one ÷ calling ${(one / c).toFixed(3)}, team ÷ one ${((c + sp) / one).toFixed(3)}`;
  }
  console.log(line);
}
const ratio = (k: keyof Row) => median(rows.b.map((r, i) => r[k] / rows.a[i][k])).toFixed(3);
console.log(`B/A (median of the frames' ratios): calling thread cpu ${ratio('calling')}, spawned cpu ${ratio('spawned')}, wall ${ratio('wall')}; load ${loadavg()[0].toFixed(1)}`);
console.log(differs < 0 ? `the ${T}-thread states the same bits every frame (fluidPoints)` : `the ${T}-thread states differ from frame ${differs}`);
closeThreadClocks();
for (const s of [teamA, teamB, oneA, oneB]) s?.sim.dispose?.();
process.exit(0);
