/**
 * A slab of water started at rest against the lid of a box on the grid (issue 27, the dam break's
 * sheet that clings under the lid): 20 × 10 × 20 cm of water under the lid of a 50 cm box with
 * slip walls, on 32³ cells, plain level set. The slab should fall at g; the script prints, each
 * frame (60 fps, 0.4 s), the highest and lowest liquid cell, the drop of the liquid cells' mean
 * height beside ½ g t², and the pressure q (m/s) and φ (cells) of the column at the slab's centre
 * in the lid row and the rows under it:
 *   npx tsx bench/grid-lid-blob.ts [cells=32] [tracking=levelset] [boundary=slip]
 * docs/decisions.md, "Liquid held under the lid", reads its figures.
 */
import { parseScene } from '../src/index.ts';
import { GridSimulation } from '../src/grid/step.ts';

const n = Number(process.argv[2] ?? 32), tracking = process.argv[3] ?? 'levelset', boundary = process.argv[4] ?? 'slip';
const L = 0.5, h = L / n, g = 9.81;
const sim = new GridSimulation(parseScene({
  fps: 60,
  duration: 0.4,
  domain: { min: [0, 0, 0], max: [L, L, L], boundary },
  materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } } },
  bodies: [{ name: 'slab', material: 'water', shape: { type: 'box', center: [L / 2, L - 0.05, L / 2], size: [0.2, 0.1, 0.2] } }],
  grid: { cellSize: h, cfl: 2, tracking },
}));
sim.initialize();

function liquid(): { top: number; bottom: number; mean: number } {
  const s = sim.store;
  let top = -Infinity, bottom = Infinity, sum = 0, cells = 0;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === 2 || s.wall[c] !== 0 || !(s.phi[c] < 0)) continue;
    const y = (s.cj[c] + 0.5) * h;
    top = Math.max(top, y); bottom = Math.min(bottom, y); sum += y; cells++;
  }
  return { top, bottom, mean: sum / cells };
}

const y0 = liquid().mean, mid = n >> 1;
console.log('t (s)  top (cm)  bottom (cm)  drop (cm)  ½gt² (cm)  q lid row … 3 below (m/s)  φ lid row (cells)');
for (let f = 1; f <= 24; f++) {
  sim.stepFrame();
  const t = f / 60, l = liquid(), s = sim.store;
  const q: string[] = [];
  // A cell the sparse store no longer holds is far air.
  for (let j = n - 1; j >= n - 4; j--) { const c = s.find(mid, j, mid); q.push(c >= 0 ? s.pressure[c].toFixed(3) : 'air'); }
  const lid = s.find(mid, n - 1, mid), phiLid = lid >= 0 ? s.phi[lid] / h : sim.band / h;
  console.log(`${t.toFixed(3)}  ${(100 * l.top).toFixed(1)}  ${(100 * l.bottom).toFixed(1)}  ${(100 * (y0 - l.mean)).toFixed(1)}  ${(100 * 0.5 * g * t * t).toFixed(1)}  ${q.join(' ')}  ${phiLid.toFixed(2)}`);
}
