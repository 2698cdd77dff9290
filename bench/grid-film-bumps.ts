/**
 * The bumps on a grid pile's film: the height of the liquid's top over each column of cells whose
 * liquid is at most `--rows` cells thick (the film around a pile, not its middle), from φ along the
 * column (the topmost zero crossing, linear between centres; below the first centre, the first
 * centre less its φ), and its roughness: the RMS of each height less the mean of its eight
 * neighbours' (columns with all eight in the film), in cells. With --stages, what each pipeline
 * stage added to that RMS over the run (a stage that makes bumps adds, one that smooths takes off).
 *
 *   npx tsx bench/grid-film-bumps.ts CHECKPOINT --floor Y [--rows 4] [--frames N] [--stages]
 */
import { readFileSync } from 'node:fs';
import { getEngine, sceneFromCheckpoint } from '../src/engines.ts';
import { CheckpointReader } from '../src/io/checkpoint.ts';
import '../src/grid/register.ts';
import type { GridEngineSimulation } from '../src/grid/simulation.ts';
import { SOLID } from '../src/grid/store.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const reader = new CheckpointReader(new Uint8Array(readFileSync(args[0])));
const scene = sceneFromCheckpoint(reader);
const model = opt('model', '');
if (model) for (const m of Object.values(scene.materials)) if (m.kind === 'liquid') (m.grid as { viscosityModel: string }).viscosityModel = model;
const sim = getEngine('grid').restore(scene, reader, {}) as GridEngineSimulation;
const g = sim.sim;
const h = scene.grid.cellSize;
const floor = Number(opt('floor', '0'));
const rows = Number(opt('rows', '4'));
const frames = Number(opt('frames', '0'));
const j0 = Math.round((floor - g.d.origin[1]) / h);

/** [roughness (h), columns measured, film columns]. */
function bumps(): [number, number, number] {
  const s = g.store;
  const H = new Map<number, number>();
  const key = (i: number, k: number) => (i + 5000) * 10000 + (k + 5000);
  for (let c = 0; c < s.count; c++) {
    if (s.cj[c] !== j0 || s.type[c] === SOLID) continue;
    let m = c, top = NaN;
    const p0 = s.phi[m];
    if (p0 >= 0) {
      if (p0 < 0.5 * h) top = 0.5 * h - p0;
    } else {
      for (let r = 0; r < rows; r++) {
        const up = s.nb[6 * m + 3];
        if (up < 0 || s.type[up] === SOLID) break;
        if (s.phi[up] >= 0) { top = (r + 0.5) * h + h * s.phi[m] / (s.phi[m] - s.phi[up]); break; }
        m = up;
      }
    }
    if (Number.isFinite(top)) H.set(key(s.ci[c], s.ck[c]), top);
  }
  let sum = 0, n = 0;
  for (const [kk, v] of H) {
    const i = Math.floor(kk / 10000) - 5000, k = (kk % 10000) - 5000;
    let t = 0, ok = true;
    for (let di = -1; di <= 1 && ok; di++) for (let dk = -1; dk <= 1; dk++) {
      if (di === 0 && dk === 0) continue;
      const w = H.get(key(i + di, k + dk));
      if (w === undefined) { ok = false; break; }
      t += w;
    }
    if (!ok) continue;
    const d = v - t / 8;
    sum += d * d; n++;
  }
  return [n > 0 ? Math.sqrt(sum / n) / h : 0, n, H.size];
}
const fmt = (b: [number, number, number]) => `film bumps ${b[0].toFixed(4)} h over ${b[1]} columns (${b[2]} in the film)`;
console.log(`${scene.name} frame ${sim.frame}: ${fmt(bumps())}`);
const perStage = new Map<string, number>();
if (args.includes('--stages')) {
  for (const st of g.pipeline) {
    const run = st.run.bind(st);
    st.run = (sm, dt) => {
      const a = bumps()[0];
      run(sm, dt);
      perStage.set(st.name, (perStage.get(st.name) ?? 0) + bumps()[0] - a);
    };
  }
}
for (let f = 1; f <= frames; f++) {
  sim.stepFrame();
  if (f % 5 === 0 || f === frames) console.log(`frame ${sim.frame}: ${fmt(bumps())}`);
}
for (const [name, v] of perStage) if (v !== 0) console.log(`  ${name.padEnd(14)} ${v >= 0 ? '+' : ''}${v.toFixed(4)} h`);
