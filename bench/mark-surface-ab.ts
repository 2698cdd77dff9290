/**
 * The surface test (src/particle/surface.ts markSurface) in two versions of the particle engine, in
 * one process: this checkout (B) and another (A: `git archive main src | tar -x -C /tmp/base`),
 * each stepped to the same frame of the honey drop on T threads, its pair list then listed again by
 * adhesion (what markSurface reads), and the test called 10 times a round, A and B in turn (the
 * order turned each round), for 20 rounds. Prints the calling thread's CPU a call (its clock,
 * bench/thread-clock.ts: what a serial stretch costs the two-thread frame's critical path), the
 * median and the least over the rounds. Linux only.
 *
 *   npx tsx bench/mark-surface-ab.ts <other checkout> [threads] [frame]   (defaults: 1, 6)
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { closeThreadClocks, readAll, threadIds } from './thread-clock.ts';
const roots = { A: process.argv[2], B: resolve(import.meta.dirname, '..') };
if (!roots.A) throw new Error('usage: npx tsx bench/mark-surface-ab.ts <other checkout> [threads] [frame]');
const json = JSON.parse(readFileSync('scenes/honey-drop.json', 'utf8'));
const T = Number(process.argv[3] ?? 1), frame = Number(process.argv[4] ?? 6);
const out: Record<string, { f: (c: unknown) => number; ctx: unknown; sim: { dispose?(): void } }> = {};
for (const [k, root] of Object.entries(roots)) {
  const e = await import(pathToFileURL(resolve(root, 'src/index.ts')).href);
  const th = await import(pathToFileURL(resolve(root, 'src/cli/threads.ts')).href);
  const s = await import(pathToFileURL(resolve(root, 'src/particle/surface.ts')).href);
  const sim = e.createSimulation(e.parseScene(json), 'particle', T > 1 ? { workers: T, spawnThread: th.spawnNodeThread } : {});
  await sim.ready?.();
  for (let f = 0; f < frame; f++) sim.stepFrame();
  // Adhesion again: the pair list as markSurface reads it (the stages after adhesion compact it).
  const ad = await import(pathToFileURL(resolve(root, 'src/particle/adhesion.ts')).href);
  ad.computeAdhesion(sim.ctx);
  out[k] = { f: s.markSurface, ctx: sim.ctx, sim };
}
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const res: Record<string, number[]> = { A: [], B: [] };
for (let r = 0; r < 20; r++) {
  for (const k of (r % 2 ? ['A', 'B'] : ['B', 'A'])) {
    const tids = threadIds(), a = readAll(tids);
    for (let q = 0; q < 10; q++) out[k].f(out[k].ctx);
    const b = readAll(tids), i = tids.indexOf(process.pid);
    res[k].push((b[2 * i] - a[2 * i]) / 10);
  }
}
const med = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];
console.log(`${T} thread(s), frame ${frame}: markSurface: the calling thread's CPU ms a call, median of 20 rounds: A ${med(res.A).toFixed(3)} B ${med(res.B).toFixed(3)}; min A ${Math.min(...res.A).toFixed(3)} B ${Math.min(...res.B).toFixed(3)}`);
closeThreadClocks();
for (const k of ['A', 'B']) out[k].sim.dispose?.();
process.exit(0);
