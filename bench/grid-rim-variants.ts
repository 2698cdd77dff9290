/**
 * One hypothesis about a grid pile's rough rim switched at a time, from the same checkpoint: a
 * finished run's state is restored with a stage changed, run on for some frames, and the outline's
 * roughness (tests/grid/rim-outline.ts) printed every few frames; `--write DIR` also writes the
 * meshes (DIR/grid/mesh-NNNN.ply, numbered by the run's frame) for `viscid preview`.
 *
 *   npx tsx bench/grid-rim-variants.ts CHECKPOINT --frames 15 --every 5 [--axis 0,0] [--write DIR] [--floor Y]
 *     (--floor: also count the first row of centres above the floor at |φ| < h/100, the films held at
 *     half a cell, and those of them that are liquid cells; with --stages, what each pipeline stage
 *     changed in both counts over the run)
 *     [--model implicit|variational]   the liquids' grid.viscosityModel
 *     [--sheet-depth 0]                the particle level set's minimum sheet thickness (0: off)
 *     [--axis-extrapolation]           velocity extrapolation by plain averages, not along normals
 *     [--volume false|uniform|bulk]    grid.volumeCorrection
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { getEngine, sceneFromCheckpoint } from '../src/engines.ts';
import { CheckpointReader } from '../src/io/checkpoint.ts';
import { toPLY } from '../src/index.ts';
import type { GridEngineSimulation } from '../src/grid/simulation.ts';
import { ParticleLevelSetTracker } from '../src/grid/trackers/particle-levelset.ts';
import { describeOutline, rimOutline } from '../tests/grid/rim-outline.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const file = args[0];
if (!file || file.startsWith('--')) throw new Error('usage: npx tsx bench/grid-rim-variants.ts CHECKPOINT --frames N [variant]');
const reader = new CheckpointReader(new Uint8Array(readFileSync(file)));
const scene = sceneFromCheckpoint(reader);
const model = opt('model', '');
if (model) for (const m of Object.values(scene.materials)) if (m.kind === 'liquid') (m.grid as { viscosityModel: string }).viscosityModel = model;
if (args.includes('--volume')) {
  const v = opt('volume', 'bulk');
  (scene.grid as { volumeCorrection: unknown }).volumeCorrection = v === 'false' ? false : v;
}
const sim = getEngine('grid').restore(scene, reader, {}) as GridEngineSimulation;
const g = sim.sim;
if (args.includes('--sheet-depth') && g.tracker instanceof ParticleLevelSetTracker) g.tracker.particles.sheetDepth = Number(opt('sheet-depth', '0.1'));
if (args.includes('--axis-extrapolation')) Object.defineProperty(g.tracker, 'extrapolateAlongNormals', { value: false });
const h = scene.grid.cellSize;
const [ax, az] = opt('axis', '0,0').split(',').map(Number);
const frames = Number(opt('frames', '15')), every = Number(opt('every', '5'));
const out = opt('write', '');
if (out) mkdirSync(`${out}/grid`, { recursive: true });
console.log(`${scene.name} from frame ${sim.frame}, ${h * 1000} mm cells, ${args.slice(1).join(' ')}`);
const floor = args.includes('--floor') ? Number(opt('floor', '0')) : null;
/** The first row's centres over the floor at |φ| < h/100 (a film held at half a cell), and how many are liquid. */
function halfCellFilm(y0: number): string {
  const s = g.store, y = y0 + 0.5 * h;
  let held = 0, liquid = 0;
  for (let c = 0; c < s.count; c++) {
    if (Math.abs(g.d.origin[1] + h * (s.cj[c] + 0.5) - y) > 1e-3 * h) continue;
    const p = s.phi[c];
    if (Math.abs(p) < 0.01 * h) { held++; if (p < 0) liquid++; }
  }
  return `${held} first-row centres at |φ| < h/100 (${liquid} liquid)`;
}
/** The first row's liquid cells and held films (φ within h/100 of zero), for --stages. */
function firstRow(y0: number): [number, number] {
  const s = g.store, y = y0 + 0.5 * h;
  let liquid = 0, held = 0;
  for (let c = 0; c < s.count; c++) {
    if (Math.abs(g.d.origin[1] + h * (s.cj[c] + 0.5) - y) > 1e-3 * h) continue;
    if (s.phi[c] < 0) liquid++;
    if (Math.abs(s.phi[c]) < 0.01 * h) held++;
  }
  return [liquid, held];
}
const perStage = new Map<string, [number, number]>();
if (args.includes('--stages') && floor !== null) {
  for (const st of g.pipeline) {
    const run = st.run.bind(st);
    st.run = (sm, dt) => {
      const a = firstRow(floor);
      run(sm, dt);
      const b = firstRow(floor);
      const r = perStage.get(st.name) ?? [0, 0];
      perStage.set(st.name, [r[0] + b[0] - a[0], r[1] + b[1] - a[1]]);
    };
  }
}
let cpu = 0;
for (let f = 1; f <= frames; f++) {
  const c0 = process.cpuUsage();
  sim.stepFrame();
  const c1 = process.cpuUsage(c0);
  cpu += (c1.user + c1.system) / 1000;
  if (f % every !== 0 && f !== frames && !out) continue;
  const mesh = sim.surfaceMesh();
  if (out) writeFileSync(`${out}/grid/mesh-${String(sim.frame).padStart(4, '0')}.ply`, toPLY(mesh));
  if (f % every !== 0 && f !== frames) continue;
  console.log(`frame ${sim.frame}: ${describeOutline(rimOutline(mesh, { h, ax, az }))}; ${(cpu / f).toFixed(0)} ms CPU/frame${floor === null ? '' : '; ' + halfCellFilm(floor)}`);
}
for (const [name, [liquid, held]] of perStage) console.log(`  ${name.padEnd(14)} first-row liquid cells ${liquid >= 0 ? '+' : ''}${liquid}, held films ${held >= 0 ? '+' : ''}${held}`);
