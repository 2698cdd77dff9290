/**
 * The CPU cost of a whole run, frame by frame: each frame's process CPU time (process.cpuUsage,
 * one thread), the liquid count, the sub-timestep pieces taken and the solver counters, one JSON
 * line a frame, then the run's mean against what `viscid info` predicts a frame
 * (src/cli/cost.ts predictFrameCost). info's figure stands for the run's cost (frames × its figure);
 * a window of a few frames stands for it only where a run's frames cost alike.
 *
 *   npx tsx bench/run-cpu.ts scenes/gel-fan.json [--engine particle|grid] [--frames N] [--from F]
 * (--frames: stop after N frames, default the whole run; --from: count the mean from frame F on, for a
 * run stopped part-way the frames before F are still printed.)
 */
import { createSimulation, type EngineName } from '../src/index.ts';
import { loadScene } from '../src/cli/load-scene.ts';
import { predictFrameCost } from '../src/cli/cost.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!file) throw new Error('usage: npx tsx bench/run-cpu.ts SCENE.json [--engine particle|grid] [--frames N]');
const { scene } = loadScene(file);
const engine = opt('engine', (scene.engines ?? ['particle'])[0]) as EngineName;
scene.particle.workers = 1;
const total = Math.round(scene.duration * scene.fps);
const frames = Math.min(total, Number(opt('frames', String(total))));
const sim = createSimulation(scene, engine, { workers: 1 });
const inner = (sim as unknown as { sim?: { steps: number } }).sim;
let cpuSum = 0;
for (let f = 1; f <= frames; f++) {
  const steps0 = inner?.steps ?? 0;
  const c0 = process.cpuUsage();
  const st = sim.stepFrame();
  const c = process.cpuUsage(c0);
  const ms = (c.user + c.system) / 1000;
  cpuSum += ms;
  const k = st.counters;
  const row: Record<string, number> = { frame: f, cpuMs: Math.round(ms) };
  if (engine === 'particle') {
    Object.assign(row, { particles: k.particles ?? 0, substeps: k.substeps ?? 0, pressurePasses: +((k.pressurePasses ?? 0) / (k.substeps ?? 1)).toFixed(2), densityPasses: +(k.densityPassesPerSubstep ?? 0).toFixed(2), cg: +(k.viscosityIterationsPerSolve ?? 0).toFixed(2), maxSpeed: +sim.metrics().maxSpeed.toFixed(3) });
  } else {
    Object.assign(row, { cells: k.cells ?? 0, liquidCells: sim.metrics().cellCount ?? 0, steps: (inner?.steps ?? 0) - steps0 });
  }
  console.log(JSON.stringify(row));
}
const predicted = engine === 'particle' ? predictFrameCost(scene).particle.seconds * 1000 : predictFrameCost(scene).grid.seconds * 1000;
const mean = cpuSum / frames;
console.log(JSON.stringify({ scene: scene.name, engine, frames, meanCpuMs: Math.round(mean), predictedMs: Math.round(predicted), ratio: +(mean / predicted).toFixed(2) }));
sim.dispose?.();
