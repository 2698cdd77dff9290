/**
 * What the grid engine's surface tracking and advection cost: a scene's frames timed back to back
 * with each combination asked for (the stage split of each), in one process. Times are CPU time of
 * this process (process.cpuUsage; the grid engine runs on one thread), so a busy machine slows
 * them less than wall time; the stage split is the engine's own (wall) stage times scaled to it.
 *
 *   npx tsx bench/grid-cost.ts scenes/honey-drop.json [--frames 12] [--warmup 2] [--variants '[{"tracking":"levelset"},{},{"engine":"particle"}]']
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
  // {"engine":"particle"}: the particle engine on the same scene (one thread), for comparison.
  const { engine = 'grid', ...grid } = v as { engine?: 'grid' | 'particle' };
  Object.assign(scene.grid, grid);
  scene.particle.workers = 1;
  const sim = createSimulation(scene, engine);
  for (let f = 0; f < warmup; f++) sim.stepFrame();
  const stages: Record<string, number> = {};
  let ms = 0, wall = 0, steps = 0;
  const cpu0 = process.cpuUsage();
  for (let f = 0; f < frames; f++) {
    const st = sim.stepFrame();
    wall += st.wallMs;
    steps += st.counters.steps ?? 0;
    for (const [k, t] of Object.entries(st.stages)) stages[k] = (stages[k] ?? 0) + t;
  }
  const cpu = process.cpuUsage(cpu0);
  ms = (cpu.user + cpu.system) / 1000;
  for (const k of Object.keys(stages)) stages[k] *= ms / wall;
  const split = Object.entries(stages).sort((a, b) => b[1] - a[1]).filter(([, t]) => t / ms > 0.02).map(([k, t]) => `${k} ${(t / frames).toFixed(0)}`).join(', ');
  console.log(`${JSON.stringify(v)}: ${(ms / frames).toFixed(0)} ms CPU/frame (wall ${(wall / frames).toFixed(0)}), ${(steps / frames).toFixed(1)} steps/frame; ${split}`);
  sim.dispose();
}
