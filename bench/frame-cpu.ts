/**
 * CPU time a frame of each shipped scene in each engine its `engines` names, against what
 * `viscid info` predicts for it (src/cli/cost.ts). The particle engine runs on one thread (what
 * info predicts); times are this process's CPU time (process.cpuUsage) over `--frames` frames after
 * `--warmup`, so a shared machine slows them less than wall time. The grid engine, and scenes
 * whose liquid comes from spouts, are warmed up until a quarter of their run (capped by
 * --max-warmup); spout-fed scenes are predicted at the liquid they then hold, so that the
 * comparison is of the cost model and not of the count. In the particle engine a spout-fed scene
 * is measured instead at the frames after its last liquid has come in (its spouts' ends, its
 * late bodies' starts; not capped): info's figure is a frame at the largest liquid count, and
 * frame 13 of honey-on-spinner (329 of its 1 414 particles, about 10 ms a frame) read 9 to 31 ms
 * of CPU from run to run.
 *
 *   npx tsx bench/frame-cpu.ts [scenes/a.json …] [--frames 2] [--warmup 2] [--max-warmup 30] [--engine particle|grid] [--stages] [--as-info] [--at N]
 * (--stages adds each stage's share of the frame's wall time and the frame's counters to each row;
 * --as-info compares with the figure `viscid info` prints, from the scene alone, instead of one
 * predicted at the liquid measured; --at N times frames N+1… whatever the scene, instead of the
 * warm-ups above: --at 0 --frames <all> is the whole run's mean.)
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulation, type EngineName } from '../src/index.ts';
import { loadScene } from '../src/cli/load-scene.ts';
import { predictFrameCost } from '../src/cli/cost.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const frames = Number(opt('frames', '2')), warmup = Number(opt('warmup', '2')), maxWarmup = Number(opt('max-warmup', '30'));
const asInfo = args.includes('--as-info'), at = args.includes('--at') ? Number(opt('at', '0')) : undefined;
const only = args.includes('--engine') ? (opt('engine', '') as EngineName) : undefined;
const files = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const scenes = files.length ? files : readdirSync('scenes').filter((f) => f.endsWith('.json')).sort().map((f) => join('scenes', f));

for (const file of scenes) {
  const { scene } = loadScene(file);
  scene.particle.workers = 1;
  for (const engine of (scene.engines ?? ['particle']) as EngineName[]) {
    if (only && engine !== only) continue;
    const sim = createSimulation(scene, engine, { workers: 1 });
    // Liquid that arrives later (spouts, bodies with a start time): predicted at what is there.
    const spoutFed = scene.sources.length > 0 || scene.bodies.some((b) => b.start > 0);
    // The grid's steps a frame follow the liquid's speed: its frames are taken a quarter into the
    // run (where the liquid has fallen), as are those of spout-fed scenes in either engine.
    const last = Math.max(0, ...scene.sources.map((s) => s.end ?? scene.duration), ...scene.bodies.map((b) => b.start));
    const arrived = Math.min(Math.round(scene.duration * scene.fps) - frames, Math.max(warmup, Math.ceil(last * scene.fps - 1e-9) + 1));
    const w = at !== undefined ? at : spoutFed && engine === 'particle' ? arrived : spoutFed || engine === 'grid' ? Math.min(maxWarmup, Math.max(warmup, Math.round(0.25 * scene.duration * scene.fps))) : warmup;
    for (let f = 0; f < w; f++) sim.stepFrame();
    const inner = (sim as unknown as { sim?: { steps: number; store: { count: number } } }).sim;
    const steps0 = inner?.steps ?? 0;
    const t0 = process.cpuUsage();
    let cells = 0;
    const stages: Record<string, number> = {}, counters: Record<string, number> = {};
    for (let f = 0; f < frames; f++) {
      const st = sim.stepFrame();
      cells += st.counters.cells ?? 0;
      for (const [k, v] of Object.entries(st.stages)) stages[k] = (stages[k] ?? 0) + v / frames;
      for (const [k, v] of Object.entries(st.counters)) counters[k] = (counters[k] ?? 0) + v / frames;
    }
    const cpu = process.cpuUsage(t0);
    const ms = (cpu.user + cpu.system) / 1000 / frames;
    const m = sim.metrics();
    const liquid = engine === 'particle' ? sim.fluidPoints().count : m.cellCount ?? 0;
    const predicted = predictFrameCost(scene, spoutFed && !asInfo ? { liquidParticles: engine === 'particle' ? liquid : undefined, liquidCells: engine === 'grid' ? liquid : undefined } : {});
    const p = engine === 'particle' ? predicted.particle.seconds * 1000 : predicted.grid.seconds * 1000;
    const row = {
      scene: scene.name, engine, frames: `${w + 1}-${w + frames}`, cpuMs: Math.round(ms), predictedMs: Math.round(p), ratio: +(ms / p).toFixed(2),
      ...(engine === 'particle' ? { liquidParticles: liquid } : { liquidCells: liquid, cells: Math.round(cells / frames), stepsPerFrame: +(((inner?.steps ?? 0) - steps0) / frames).toFixed(1) }),
    };
    // With --stages: each stage's share of the frame's (wall) time and the frame's counters, to fit the model's terms by.
    const wall = Object.values(stages).reduce((a, b) => a + b, 0);
    const split = Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, +(v / wall).toFixed(3)]));
    console.log(JSON.stringify(args.includes('--stages') ? { ...row, split, counters: Object.fromEntries(Object.entries(counters).map(([k, v]) => [k, +v.toFixed(1)])) } : row));
    sim.dispose?.();
  }
}
