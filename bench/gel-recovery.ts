/**
 * A gel block dropped on a floor, in both engines from one scene: its height and width (extent of
 * the particles, or of the grid's marker particles) frame by frame, the deepest squash after
 * landing, and the fraction of that squash recovered 1 s later (mean height over ±0.1 s around
 * that time), with the engine's CPU time per frame.
 *
 *   npx tsx bench/gel-recovery.ts [scene.json] [frames] [engine,engine] [--set path=value …]
 *
 * Default: scenes/jello-drop.json, 45 frames, particle and grid. `--set` overrides a scene value,
 * e.g. --set materials.jello.viscoelastic.elasticModulus=0.
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { Simulation } from '../src/api.ts';

const args = process.argv.slice(2);
const sets: [string, string][] = [];
const plain: string[] = [];
for (let a = 0; a < args.length; a++) {
  if (args[a] === '--set') {
    const [k, v] = args[++a].split('=');
    sets.push([k, v]);
  } else plain.push(args[a]);
}
const [file = 'scenes/jello-drop.json', framesArg = '45', enginesArg = 'particle,grid'] = plain;
const json = JSON.parse(readFileSync(file, 'utf8'));
for (const [path, value] of sets) {
  const keys = path.split('.');
  let o = json;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  o[keys[keys.length - 1]] = JSON.parse(value);
}
const scene = parseScene(json);
const frames = Number(framesArg);

export interface GelTrace { heights: number[]; widths: number[]; msPerFrame: number; memoryBytes: number }

function extent(sim: Simulation): { height: number; width: number } {
  const p = sim.fluidPoints();
  let y0 = Infinity, y1 = -Infinity, x0 = Infinity, x1 = -Infinity;
  for (let i = 0; i < p.count; i++) {
    const x = p.positions[3 * i], y = p.positions[3 * i + 1];
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
  }
  return { height: y1 - y0, width: x1 - x0 };
}

export function summarize(t: GelTrace, fps: number): { h0: number; squash: number; squashTime: number; recovered: number; atSecond: number } {
  const h0 = t.heights[0];
  // The deepest squash: the lowest height before the first rebound peak after it (the first 0.5 s after landing).
  let k = 1;
  while (k < t.heights.length - 1 && t.heights[k + 1] >= t.heights[k] - 1e-9) k++;
  let kMin = k;
  for (let q = k; q < Math.min(t.heights.length, k + Math.round(0.5 * fps)); q++) if (t.heights[q] < t.heights[kMin]) kMin = q;
  const squash = t.heights[kMin];
  const at = kMin + fps, w = Math.round(0.1 * fps);
  const win = t.heights.slice(Math.max(0, at - w), Math.min(t.heights.length, at + w + 1));
  const atSecond = win.length ? win.reduce((a, b) => a + b, 0) / win.length : NaN;
  return { h0, squash, squashTime: kMin / fps, recovered: (atSecond - squash) / (h0 - squash), atSecond };
}

for (const engine of enginesArg.split(',')) {
  const sim = createSimulation(scene, engine as 'particle' | 'grid');
  const t: GelTrace = { heights: [], widths: [], msPerFrame: 0, memoryBytes: 0 };
  const e0 = extent(sim);
  t.heights.push(e0.height);
  t.widths.push(e0.width);
  const cpu0 = process.cpuUsage();
  for (let f = 0; f < frames; f++) {
    sim.stepFrame();
    const e = extent(sim);
    t.heights.push(e.height);
    t.widths.push(e.width);
  }
  const cpu = process.cpuUsage(cpu0);
  t.msPerFrame = (cpu.user + cpu.system) / 1000 / frames;
  const m = sim.metrics();
  t.memoryBytes = m.memoryBytes ?? 0;
  const s = summarize(t, scene.fps);
  console.log(`${engine}: ${m.pointCount} points, ${t.msPerFrame.toFixed(0)} ms CPU a frame, ${((m.memoryBytes ?? 0) / (m.pointCount || 1)).toFixed(0)} bytes a point`);
  console.log(`  height (mm) by frame: ${t.heights.map((h) => (1000 * h).toFixed(1)).join(' ')}`);
  console.log(`  width  (mm) by frame: ${t.widths.map((h) => (1000 * h).toFixed(1)).join(' ')}`);
  console.log(`  rest ${(1000 * s.h0).toFixed(1)} mm, squash ${(1000 * s.squash).toFixed(1)} mm (${((1 - s.squash / s.h0) * 100).toFixed(0)} %) at ${s.squashTime.toFixed(2)} s, 1 s later ${(1000 * s.atSecond).toFixed(1)} mm: ${(100 * s.recovered).toFixed(0)} % of the squash recovered`);
  sim.dispose?.();
}
