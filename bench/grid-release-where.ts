/**
 * Where the grid's separating walls act (pressure.ts, rows pulled at a solid released): each frame
 * of a scene, the cells the projections released and the extra solves they cost, split by where
 * the solid lies (above the cell against gravity, below, beside) and, for a solid above, whether
 * the liquid column under the cell ends in air (hanging liquid) or on a solid, and how many of
 * those solids are the domain's walls (the rest are objects):
 *   npx tsx bench/grid-release-where.ts scenes/dam-break.json [frames=30] [every=1]
 */
import { readFileSync } from 'node:fs';
import { parseScene } from '../src/index.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { AIR, SOLID } from '../src/grid/store.ts';

const file = process.argv[2] ?? 'scenes/dam-break.json';
const frames = Number(process.argv[3] ?? 30), every = Number(process.argv[4] ?? 1);
const sim = new GridSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))));
sim.initialize();
const g = sim.scene.gravity;
const a = [0, 1, 2].reduce((m, i) => (Math.abs(g[i]) > Math.abs(g[m]) ? i : m), 0);
const up = 2 * a + (g[a] < 0 ? 1 : 0), down = up ^ 1;
const tally = { projections: 0, solves: 0, released: 0, above: 0, aboveHanging: 0, below: 0, side: 0, most: 0, wall: 0 };
const p = sim.pressure;
const project = p.project.bind(p);
p.project = (s, tol, it, warm) => {
  const r = project(s, tol, it, warm);
  tally.projections++;
  tally.solves += 1 + p.releaseSolves;
  tally.most = Math.max(tally.most, p.releaseSolves);
  const { nb, type } = s;
  for (let t = 0; t < p.released; t++) {
    const c = p.releasedCells[t];
    tally.released++;
    const solidAt = (d: number) => { const m = nb[6 * c + d]; return m >= 0 && type[m] === SOLID; };
    if (solidAt(up)) {
      tally.above++;
      if (s.wall[nb[6 * c + up]] !== 0) tally.wall++;
      let m = c;
      while (m >= 0 && type[m] !== AIR && type[m] !== SOLID) m = nb[6 * m + down];
      if (m < 0 || type[m] === AIR) tally.aboveHanging++;
    } else if (solidAt(down)) tally.below++;
    else tally.side++;
  }
  return r;
};
console.log('frame  projections  solves  released  solid-above (hanging, of a domain wall)  solid-below  solid-beside  most-extra-solves  ms');
for (let f = 1; f <= frames; f++) {
  const st = sim.stepFrame();
  if (f % every === 0) {
    console.log(`${f}  ${tally.projections}  ${tally.solves}  ${tally.released}  ${tally.above} (${tally.aboveHanging}, ${tally.wall})  ${tally.below}  ${tally.side}  ${tally.most}  ${st.wallMs.toFixed(0)}`);
    for (const k of Object.keys(tally) as (keyof typeof tally)[]) tally[k] = 0;
  }
}
