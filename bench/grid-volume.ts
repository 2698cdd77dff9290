/**
 * Liquid volume of a scene on the grid engine frame by frame, for each surface tracking asked for:
 * the record behind the grid's volume figures in BENCHMARKS.md.
 *
 *   npx tsx bench/grid-volume.ts scenes/honey-drop.json [--frames 30] [--every 5] [--tracking levelset,particle-levelset,markers] [--set grid.cellSize=0.004]
 */
import { createSimulation } from '../src/index.ts';
import { loadScene } from '../src/cli/load-scene.ts';
import type { GridEngineSimulation } from '../src/grid/simulation.ts';
import { setScenePath } from './scene-set.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'scenes/honey-drop.json';
const frames = Number(opt('frames', '30'));
const every = Number(opt('every', '5'));
const trackings = opt('tracking', 'levelset,particle-levelset,markers').split(',');
const sets = args.flatMap((a, i) => (args[i - 1] === '--set' ? [a] : []));

for (const tracking of trackings) {
  const scene = loadScene(file).scene;
  (scene.grid as { tracking: string }).tracking = tracking;
  for (const s of sets) setScenePath(scene, s);
  const sim = createSimulation(scene, 'grid') as GridEngineSimulation;
  const v0 = sim.metrics().fluidVolume;
  const t0 = performance.now();
  const row: string[] = [];
  const stageMs: Record<string, number> = {};
  for (let f = 1; f <= frames; f++) {
    const st = sim.stepFrame();
    for (const [k, v] of Object.entries(st.stages)) stageMs[k] = (stageMs[k] ?? 0) + v;
    if (f % every === 0 || f === frames) {
      const m = sim.metrics();
      row.push(`${sim.time.toFixed(2)}s:${(m.fluidVolume / v0).toFixed(3)}${m.volumeChange !== undefined ? `(${(100 * m.volumeChange).toFixed(1)}%)` : ''}`);
    }
  }
  const ms = (performance.now() - t0) / frames;
  const split = Object.entries(stageMs).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${(v / frames).toFixed(0)}`).join(', ');
  console.log(`${tracking.padEnd(18)} V0 ${(v0 * 1e6).toFixed(2)} mL  ${ms.toFixed(0)} ms/frame  ${row.join(' ')}\n    ms/frame by stage: ${split}`);
  sim.dispose();
}
