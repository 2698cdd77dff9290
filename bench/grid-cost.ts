/**
 * What the grid engine's surface tracking and advection cost: a scene's frames timed with each
 * combination asked for (the stage split of each), in one process, the variants' frames
 * interleaved. Times are CPU time of this process (process.cpuUsage; the grid engine runs on one
 * thread), so a busy machine slows them less than wall time; the stage split is the engine's own
 * (wall) stage times scaled to it.
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
// The variants' frames are interleaved (frame f of every variant before frame f + 1 of any), so a
// change of machine load falls on all of them alike.
const runs = variants.map((v) => {
  const scene = loadScene(file).scene;
  // {"engine":"particle"}: the particle engine on the same scene (one thread), for comparison.
  const { engine = 'grid', ...grid } = v as { engine?: 'grid' | 'particle' };
  Object.assign(scene.grid, grid);
  scene.particle.workers = 1;
  const sim = createSimulation(scene, engine);
  for (let f = 0; f < warmup; f++) sim.stepFrame();
  return { v, sim, stages: {} as Record<string, number>, ms: 0, wall: 0, steps: 0 };
});
for (let f = 0; f < frames; f++) {
  for (const r of runs) {
    const cpu0 = process.cpuUsage();
    const st = r.sim.stepFrame();
    const cpu = process.cpuUsage(cpu0), ms = (cpu.user + cpu.system) / 1000;
    r.ms += ms;
    r.wall += st.wallMs;
    r.steps += st.counters.steps ?? 0;
    // The engine's stage times are wall time: scaled to this frame's CPU time.
    for (const [k, t] of Object.entries(st.stages)) r.stages[k] = (r.stages[k] ?? 0) + (t * ms) / st.wallMs;
  }
}
for (const { v, sim, stages, ms, wall, steps } of runs) {
  const split = Object.entries(stages).sort((a, b) => b[1] - a[1]).filter(([, t]) => t / ms > 0.02).map(([k, t]) => `${k} ${(t / frames).toFixed(0)}`).join(', ');
  console.log(`${JSON.stringify(v)}: ${(ms / frames).toFixed(0)} ms CPU/frame (wall ${(wall / frames).toFixed(0)}), ${(steps / frames).toFixed(1)} steps/frame; ${split}`);
  sim.dispose();
}
