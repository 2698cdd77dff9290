/**
 * Where the grid's films are held on the centres (|φ| < h/100 at a cell beside the zero crossing):
 * by row above a floor (of all the seeds there), and whether the cell is walled (a solid neighbour on one side along some
 * axis, where the redistancing's kink rule acts) or not; with --stages, what each pipeline stage
 * changed in those counts over the run.
 *
 *   npx tsx bench/grid-held-films.ts CHECKPOINT --floor Y [--frames N] [--stages]
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
const sim = getEngine('grid').restore(scene, reader, {}) as GridEngineSimulation;
const g = sim.sim;
const h = scene.grid.cellSize;
const floor = Number(opt('floor', '0'));
const frames = Number(opt('frames', '0'));
const ROWS = 6;
/** Per row (ROWS: that row and above): held seeds free of walls, held seeds walled, all seeds. */
function held(): number[] {
  const s = g.store, out = new Array(3 * (ROWS + 1)).fill(0);
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === SOLID) continue;
    const p = s.phi[c];
    let seed = false, walled = false;
    for (let a = 0; a < 3; a++) {
      const m0 = s.nb[6 * c + 2 * a], m1 = s.nb[6 * c + 2 * a + 1];
      const ok0 = m0 >= 0 && s.type[m0] !== SOLID, ok1 = m1 >= 0 && s.type[m1] !== SOLID;
      if (ok0 !== ok1) walled = true;
      if (ok0 && (s.phi[m0] < 0) !== (p < 0)) seed = true;
      if (ok1 && (s.phi[m1] < 0) !== (p < 0)) seed = true;
    }
    if (!seed) continue;
    const y = g.d.origin[1] + h * (s.cj[c] + 0.5);
    const row = Math.min(ROWS, Math.max(0, Math.floor((y - floor) / h)));
    out[3 * row + 2]++;
    if (Math.abs(p) < 0.01 * h) out[3 * row + (walled ? 1 : 0)]++;
  }
  return out;
}
function fmt(v: number[]): string {
  const parts: string[] = [];
  for (let r = 0; r <= ROWS; r++) parts.push(`row ${r === ROWS ? `${ROWS}+` : r} ${v[3 * r]} free / ${v[3 * r + 1]} walled of ${v[3 * r + 2]}`);
  return parts.join(', ');
}
console.log(`frame ${sim.frame}: ${fmt(held())}`);
const perStage = new Map<string, number[]>();
if (args.includes('--stages')) {
  for (const st of g.pipeline) {
    const run = st.run.bind(st);
    st.run = (sm, dt) => {
      const a = held();
      run(sm, dt);
      const b = held();
      const r = perStage.get(st.name) ?? new Array(a.length).fill(0);
      for (let i = 0; i < a.length; i++) r[i] += b[i] - a[i];
      perStage.set(st.name, r);
    };
  }
}
for (let f = 1; f <= frames; f++) {
  sim.stepFrame();
  if (f % 5 === 0 || f === frames) console.log(`frame ${sim.frame}: ${fmt(held())}`);
}
const signed = (x: number) => `${x >= 0 ? '+' : ''}${x}`;
for (const [name, v] of perStage) {
  const rows: string[] = [];
  for (let r = 0; r <= ROWS; r++) rows.push(`r${r} ${signed(v[3 * r])}/${signed(v[3 * r + 1])}`);
  console.log(`  ${name.padEnd(14)} held free/walled ${rows.join(' ')}`);
}
