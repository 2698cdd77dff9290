/**
 * A gel cube dropped on a floor in both engines (scenes/jello-drop.json, scenes/jelly-block.json):
 * the height of its centre of mass above the floor over time, its lowest after the impact, its
 * highest after that and where it settles, each as a share of the rest cube's (size / 2): the
 * recovery toward the rest shape; and the frames' largest speed.
 *   npx tsx bench/gel-recovery.ts [scene] [frames] [engines]
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { EngineName } from '../src/api.ts';

const file = process.argv[2] ?? 'scenes/jello-drop.json', frames = Number(process.argv[3] ?? 60);
const engines = (process.argv[4] ?? 'particle,grid').split(',') as EngineName[];
const input = JSON.parse(readFileSync(file, 'utf8'));
const box = input.bodies.find((b: { shape: { type: string } }) => b.shape.type === 'box').shape;
const rest = box.size[1] / 2, floor = input.domain?.min?.[1] ?? 0;
for (const engine of engines) {
  const sim = createSimulation(parseScene(input), engine);
  const tops: number[] = [];
  let vmax = 0;
  const t0 = performance.now();
  for (let f = 0; f < frames; f++) {
    sim.stepFrame();
    const m = sim.metrics();
    tops.push(m.centerOfMass[1] - floor);
    vmax = Math.max(vmax, m.maxSpeed);
  }
  // Impact: the first frame the centre falls below 95 % of its rest height.
  const hit = tops.findIndex((h) => h < 0.95 * rest);
  const after = hit < 0 ? [] : tops.slice(hit);
  const low = Math.min(...after), lowAt = after.indexOf(low), high = Math.max(...after.slice(lowAt));
  const last = tops.slice(-10).reduce((s, h) => s + h, 0) / Math.min(10, tops.length);
  console.log(`${engine}: height/rest: lowest ${(low / rest).toFixed(2)}, highest after it ${(high / rest).toFixed(2)}, settled (last 10 frames) ${(last / rest).toFixed(2)}; max speed ${vmax.toFixed(2)} m/s; ${((performance.now() - t0) / frames).toFixed(0)} ms/frame`);
  console.log('  ' + tops.map((h) => (h / rest).toFixed(2)).join(' '));
}
