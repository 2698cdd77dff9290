/**
 * Which stage of a grid step makes the crown of spikes on the top of cup-pour's honey (issue 26, branch
 * crown26): tests/grid/cup-top.ts's figures of the top in the cup (spread: RMS not round about the cup's
 * axis, less the tilt; crown: the outer centimetre over the middle; peaks: local maxima), taken before and
 * after each pipeline stage and, inside the tracking, around φ's transport and the particle level set's
 * first correction; the changes summed per stage over frames F0+1..F1 (a stage that roughens the top adds).
 * The honey fills the 3 mm gap to the cup's wall in the first three frames: read from frame 3 on.
 *
 *   npx tsx bench/grid-crown-stages.ts [scenes/cup-pour.json] [F0 F1] [--set grid.key=value]... [--keep-seeds K] [--map] [--solid-faces]
 *
 * --map prints the last frame's heights over their radius's mean (tenths of a cell, a column every h/2)
 * and the mean height by radius. --solid-faces: the pressure's faces cut by the objects' exact surface
 * (pressure-solid-faces.ts), --solid-faces-mic the same preconditioned by MIC(0) alone; each frame's
 * pressure iterations and cut faces are printed.
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { GridEngineSimulation } from '../src/grid/simulation.ts';
import { ParticleLevelSetTracker } from '../src/grid/trackers/particle-levelset.ts';
import { LevelSetTracker } from '../src/grid/trackers/levelset.ts';
import { cupTop, type CupTop } from '../tests/grid/cup-top.ts';

const args = process.argv.slice(2);
const sets: string[] = [], pos: string[] = [];
let keepSeeds: number | null = null;
for (let q = 0; q < args.length; q++) {
  if (args[q] === '--set') sets.push(args[++q]);
  else if (args[q] === '--keep-seeds') keepSeeds = Number(args[++q]);
  else if (!args[q].startsWith('--')) pos.push(args[q]);
}
const file = pos[0] ?? 'scenes/cup-pour.json';
const F0 = Number(pos[1] ?? 3), F1 = Number(pos[2] ?? 5);
const json = JSON.parse(readFileSync(file, 'utf8'));
for (const kv of sets) {
  const [path, raw] = kv.split('=');
  const keys = path.split('.');
  let o = json;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  o[keys[keys.length - 1]] = raw === 'true' ? true : raw === 'false' ? false : Number.isFinite(Number(raw)) ? Number(raw) : raw;
}
const eng = createSimulation(parseScene(json), 'grid') as GridEngineSimulation;
const sim = eng.sim, h = sim.d.h, tr = sim.tracker;
if (keepSeeds !== null && tr instanceof LevelSetTracker) tr.levelSet.marching.keepSeeds = keepSeeds;
if (args.includes('--solid-faces') || args.includes('--solid-faces-mic')) sim.pressure.solidFaces.on = true;
if (args.includes('--solid-faces-mic')) sim.pressure.solidFaces.multigrid = false;
const cupName = sim.solids.list.some((b) => b.name === 'cup') ? 'cup' : null;
const measure = () => cupTop(sim, { cup: cupName, radius: 0.0335, top: 0.155, bottom: 0.03 });

const sums = new Map<string, [number, number, number]>();
let active = false;
function wrap<T extends unknown[], Rt>(name: string, fn: (...a: T) => Rt): (...a: T) => Rt {
  return (...a: T) => {
    if (!active) return fn(...a);
    const before = measure();
    const out = fn(...a);
    const after = measure(), s = sums.get(name) ?? [0, 0, 0];
    s[0] += after.spread - before.spread; s[1] += after.crown - before.crown; s[2] += after.peaks - before.peaks;
    sums.set(name, s);
    return out;
  };
}
for (const st of sim.pipeline) st.run = wrap(st.name, st.run.bind(st));
if (tr instanceof LevelSetTracker) tr.levelSet.advect = wrap('  tracking: φ transport', tr.levelSet.advect.bind(tr.levelSet));
if (tr instanceof ParticleLevelSetTracker) tr.particles.afterAdvection = wrap('  tracking: particles moved + first correction', tr.particles.afterAdvection.bind(tr.particles));
const mm = (v: number) => (1000 * v).toFixed(2);
const fmt = (f: CupTop) => `spread ${mm(f.spread)} mm, crown ${mm(f.crown)} mm, peaks ${f.peaks}, highest ${mm(f.highest)} mm over the mean`;
console.log(`frame 0: ${fmt(measure())}`);
for (let f = 1; f <= F1; f++) {
  active = f > F0;
  eng.stepFrame();
  console.log(`frame ${f} (${sim.steps} steps, ${sim.counters.pressureIterations ?? 0} pressure iterations, ${sim.pressure.solidFaces.cut} faces cut): ${fmt(measure())}`);
}
if (F1 > F0) {
  console.log(`per stage, summed over frames ${F0 + 1}–${F1}:           spread (mm)  crown (mm)  peaks`);
  for (const [name, v] of sums) console.log(`  ${name.padEnd(48)} ${(v[0] >= 0 ? '+' : '') + mm(v[0])}  ${(v[1] >= 0 ? '+' : '') + mm(v[1])}  ${v[2] >= 0 ? '+' : ''}${v[2]}`);
}
if (args.includes('--map')) {
  const t = measure(), n = Math.round(0.0335 / (h / 2)), bins = new Map<number, [number, number]>();
  const rb = (q: number) => Math.floor(Math.hypot(t.columns[q][0], t.columns[q][1]) / (h / 4));
  t.columns.forEach((_, q) => { const e = bins.get(rb(q)) ?? [0, 0]; e[0] += t.heights[q]; e[1]++; bins.set(rb(q), e); });
  const rows: string[][] = Array.from({ length: 2 * n + 1 }, () => Array(2 * n + 1).fill('   .'));
  t.columns.forEach(([x, z], q) => {
    const e = bins.get(rb(q))!;
    rows[Math.round(z / (h / 2)) + n][Math.round(x / (h / 2)) + n] = String(Math.round((10 * (t.heights[q] - e[0] / e[1])) / h)).padStart(4);
  });
  console.log(rows.map((r) => r.join('')).join('\n'));
  console.log('radius (mm): mean height (mm)  ' + [...bins].sort((a, b) => a[0] - b[0]).map(([b, e]) => `${((b + 0.5) * h * 250).toFixed(1)}:${(1000 * (e[0] / e[1])).toFixed(1)}`).join(' '));
}
