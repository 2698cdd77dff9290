/**
 * A gel block dropped on a floor, in each engine from one scene (scenes/jello-drop.json,
 * scenes/jelly-block.json): how far it squashes and how far it springs back toward its rest shape,
 * whether it holds together, and whether any particle moves faster than free fall allows.
 *
 *   npx tsx bench/gel-recovery.ts [scene.json] [frames] [engine,engine] [--set path=value …]
 *
 * Default: scenes/jello-drop.json, the scene's duration, particle and grid. `--set` overrides a
 * scene value, e.g. --set materials.jello.viscoelastic.elasticModulus=0. Per engine:
 *   - centre of mass above the floor ÷ the rest block's (size / 2): lowest after the impact,
 *     highest after that, settled (mean of the last 10 frames);
 *   - height of the points' extent ÷ the rest block's size at the same three moments, and the
 *     share of the squash recovered 1 s after the deepest point (mean over ±0.1 s);
 *   - held together: the share of points in the largest cluster (points closer than 1.5 spacings
 *     linked), at the end;
 *   - fastest point over the run ÷ free-fall speed from the block's top to the floor √(2 g Δy);
 *   - CPU ms a frame.
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { EngineName, Simulation } from '../src/api.ts';
import { setScenePath, splitSetArgs } from './scene-set.ts';

const { sets, plain } = splitSetArgs(process.argv.slice(2));
const file = plain[0] ?? 'scenes/jello-drop.json';
const json = JSON.parse(readFileSync(file, 'utf8'));
for (const s of sets) setScenePath(json, s);
const scene = parseScene(json);
const frames = Number(plain[1] ?? Math.round(scene.duration * scene.fps));
const engines = (plain[2] ?? 'particle,grid').split(',') as EngineName[];
const box = json.bodies.find((b: { shape: { type: string } }) => b.shape.type === 'box').shape;
const size = box.size[1] as number, floor = (json.domain?.min?.[1] ?? 0) as number;
const top = box.center[1] + size / 2 - floor;
const freeFall = Math.sqrt(2 * Math.hypot(...scene.gravity) * top);

function extent(sim: Simulation): number {
  const p = sim.fluidPoints();
  let y0 = Infinity, y1 = -Infinity;
  for (let i = 0; i < p.count; i++) {
    const y = p.positions[3 * i + 1];
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return y1 - y0;
}

/** Share of the points in the largest cluster, points within `link` of each other joined (union-find over a hash of cells of edge `link`). */
function largestCluster(sim: Simulation, link: number): number {
  const p = sim.fluidPoints(), n = p.count, P = p.positions;
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (a: number): number => { while (parent[a] !== a) a = parent[a] = parent[parent[a]]; return a; };
  const cells = new Map<number, number[]>();
  const key = (x: number, y: number, z: number) => ((x + 512) * 1024 + (y + 512)) * 1024 + (z + 512);
  for (let i = 0; i < n; i++) {
    const k = key(Math.floor(P[3 * i] / link), Math.floor(P[3 * i + 1] / link), Math.floor(P[3 * i + 2] / link));
    (cells.get(k) ?? cells.set(k, []).get(k)!).push(i);
  }
  for (let i = 0; i < n; i++) {
    const cx = Math.floor(P[3 * i] / link), cy = Math.floor(P[3 * i + 1] / link), cz = Math.floor(P[3 * i + 2] / link);
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) {
      for (const j of cells.get(key(cx + dx, cy + dy, cz + dz)) ?? []) {
        if (j <= i) continue;
        const d2 = (P[3 * i] - P[3 * j]) ** 2 + (P[3 * i + 1] - P[3 * j + 1]) ** 2 + (P[3 * i + 2] - P[3 * j + 2]) ** 2;
        if (d2 < link * link) parent[find(i)] = find(j);
      }
    }
  }
  const size = new Int32Array(n);
  let big = 0;
  for (let i = 0; i < n; i++) big = Math.max(big, ++size[find(i)]);
  return n ? big / n : 1;
}

for (const engine of engines) {
  const sim = createSimulation(scene, engine);
  const com: number[] = [], ext: number[] = [];
  let vmax = 0;
  const cpu0 = process.cpuUsage();
  for (let f = 0; f < frames; f++) {
    sim.stepFrame();
    const m = sim.metrics();
    com.push(m.centerOfMass[1] - floor);
    ext.push(extent(sim));
    vmax = Math.max(vmax, m.maxSpeed);
  }
  const cpu = process.cpuUsage(cpu0);
  const rest = size / 2;
  // Impact: the first frame the centre falls below 95 % of its rest height.
  const hit = com.findIndex((h) => h < 0.95 * rest);
  const after = hit < 0 ? com : com.slice(hit);
  const low = Math.min(...after), lowAt = (hit < 0 ? 0 : hit) + after.indexOf(low);
  const high = Math.max(...com.slice(lowAt));
  const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / Math.max(1, a.length);
  const settled = mean(com.slice(-10)), extSettled = mean(ext.slice(-10));
  const squash = Math.min(...ext.slice(hit < 0 ? 0 : hit)), squashAt = ext.indexOf(squash);
  const w = Math.round(0.1 * scene.fps), at = squashAt + scene.fps;
  const later = mean(ext.slice(Math.max(0, at - w), Math.min(ext.length, at + w + 1)));
  const spacing = engine === 'grid' ? scene.grid.cellSize / 2 : 2 * scene.particle.radius;
  const held = largestCluster(sim, 1.5 * spacing);
  console.log(`${engine} (${file}${sets.length ? ', ' + sets.join(', ') : ''}): ${sim.metrics().pointCount} points, ${((cpu.user + cpu.system) / 1000 / frames).toFixed(0)} ms CPU a frame`);
  console.log(`  centre of mass / rest: lowest ${(low / rest).toFixed(2)} (t ${(lowAt + 1) / scene.fps} s), highest after ${(high / rest).toFixed(2)}, settled ${(settled / rest).toFixed(2)}`);
  console.log(`  height / rest: squash ${(squash / size).toFixed(2)}, 1 s later ${(later / size).toFixed(2)} (${(100 * (later - squash) / (size - squash)).toFixed(0)} % of the squash recovered), settled ${(extSettled / size).toFixed(2)}`);
  console.log(`  held together: ${(100 * held).toFixed(1)} % of the points in the largest piece; fastest ${vmax.toFixed(2)} m/s = ${(vmax / freeFall).toFixed(2)} × free fall from the top (${freeFall.toFixed(2)} m/s)`);
  console.log(`  centre of mass / rest by frame: ${com.map((h) => (h / rest).toFixed(2)).join(' ')}`);
  sim.dispose?.();
}
