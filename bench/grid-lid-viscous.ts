/**
 * A slab of a viscous liquid at rest under the domain's lid on the grid (the lid's separating
 * rows, pressure.ts releaseTension, lid2): with the lid's release as shipped and with it gated as
 * the objects' is (Ga = g h³ / ν² > 1, pressure.ts separatesUnderObjects; emulated here by
 * switching the release off, which is what the gate does in a scene without objects whose liquid
 * has Ga ≤ 1). Prints every `every` frames the top liquid cell, the cells in the lid row, the
 * liquid cells' mean height and the cells released:
 *   npx tsx bench/grid-lid-viscous.ts [Pa·s=5] [cellSize=0.01] [thickness=0.04] [frames=30] [every=5]
 */
import { parseScene } from '../src/index.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { SOLID } from '../src/grid/store.ts';

const pas = Number(process.argv[2] ?? 5), h = Number(process.argv[3] ?? 0.01), thick = Number(process.argv[4] ?? 0.04);
const frames = Number(process.argv[5] ?? 30), every = Number(process.argv[6] ?? 5);
const L = 0.2, g = 9.81, rho = 1400, nu = pas / rho;
console.log(`${pas} Pa·s on ${h * 100} cm cells: Ga = g h³ / ν² = ${(g * h ** 3 / nu ** 2).toPrecision(3)}; slab ${thick * 100} cm under the lid of a ${L * 100} cm box`);
for (const gated of [false, true]) {
  const sim = new GridSimulation(parseScene({
    fps: 30,
    duration: frames / 30,
    domain: { min: [0, 0, 0], max: [L, L, L], boundary: 'noslip' },
    materials: { honey: { kind: 'liquid', density: rho, viscosity: { value: pas, unit: 'Pa.s' } } },
    bodies: [{ name: 'slab', material: 'honey', shape: { type: 'box', center: [L / 2, L - thick / 2, L / 2], size: [0.1, thick, 0.1] } }],
    grid: { cellSize: h, tracking: 'levelset' },
  }));
  sim.initialize();
  if (gated) sim.pressure.releaseUp = -1;
  let released = 0;
  for (let f = 1; f <= frames; f++) {
    released += sim.stepFrame().counters.releasedCells ?? 0;
    if (f % every !== 0) continue;
    const s = sim.store;
    let top = -Infinity, sum = 0, cells = 0, lid = 0;
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] === SOLID || s.wall[c] !== 0 || !(s.phi[c] < 0)) continue;
      const y = (s.cj[c] + 0.5) * h;
      top = Math.max(top, y); sum += y; cells++;
      if (y > L - h) lid++;
    }
    console.log(`${gated ? 'gated  ' : 'shipped'} t ${(f / 30).toFixed(2)} s  top ${(100 * top).toFixed(2)} cm  lid-row cells ${lid}  mean ${(100 * sum / cells).toFixed(2)} cm  released ${released}`);
    released = 0;
  }
}
