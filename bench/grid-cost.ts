/**
 * What the grid engine's surface tracking and advection cost: a scene's frames timed back to back
 * with each combination asked for (the stage split of each), in one process.
 *
 *   npx tsx bench/grid-cost.ts scenes/honey-drop.json [--frames 12] [--warmup 2] [--variants '[{"tracking":"levelset"},{}]']
 */
import { createSimulation } from '../src/index.ts';
import { loadScene } from '../src/cli/load-scene.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'scenes/honey-drop.json';
const frames = Number(opt('frames', '12')), warmup = Number(opt('warmup', '2'));
const variants = JSON.parse(opt('variants', '[{"tracking":"levelset","advection":"semi-lagrangian"},{"tracking":"levelset"},{"tracking":"particle-levelset","advection":"semi-lagrangian"},{}]')) as Record<string, unknown>[];
for (const v of variants) {
  const scene = loadScene(file).scene;
  Object.assign(scene.grid, v);
  const sim = createSimulation(scene, 'grid');
  for (let f = 0; f < warmup; f++) sim.stepFrame();
  const stages: Record<string, number> = {};
  let ms = 0, steps = 0;
  for (let f = 0; f < frames; f++) {
    const st = sim.stepFrame();
    ms += st.wallMs;
    steps += st.counters.steps ?? 0;
    for (const [k, t] of Object.entries(st.stages)) stages[k] = (stages[k] ?? 0) + t;
  }
  const split = Object.entries(stages).sort((a, b) => b[1] - a[1]).filter(([, t]) => t / ms > 0.02).map(([k, t]) => `${k} ${(t / frames).toFixed(0)}`).join(', ');
  console.log(`${JSON.stringify(v)}: ${(ms / frames).toFixed(0)} ms/frame, ${(steps / frames).toFixed(1)} steps/frame; ${split}`);
  sim.dispose();
}
