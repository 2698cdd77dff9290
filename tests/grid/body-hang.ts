/**
 * Liquid under a solid body on the grid (issue 27, separating walls at objects; tests/grid/body-hang.test.ts,
 * bench/grid-body-hang.ts): a 50 cm box with slip walls and a static plate body (30 × 5 × 30 cm, its
 * underside at 30 cm) in its middle, plain level set. `rest`: a 20 × 10 × 20 cm slab of water at
 * rest against the plate's underside; `throw`: a 10 × 6 × 10 cm block thrown up at 2.5 m/s from 8 cm
 * under the plate (it reaches the underside at about 1.8 m/s).
 */
import type { GridSimulation } from '../../src/grid/step.ts';
import { SOLID } from '../../src/grid/store.ts';

/** The plate's underside, m. */
export const UNDERSIDE = 0.3;

export function bodyHangScene(kind: string, h = 0.025, shift: readonly [number, number] = [0, 0]): Record<string, unknown> {
  const L = 0.5, under = UNDERSIDE;
  // `shift` (m): the thrown block's centre moved in x and z off the box's middle (bench/grid-body-hang-draws.ts).
  const liquid = kind === 'throw'
    ? { name: 'blob', material: 'water', shape: { type: 'box', center: [L / 2 + shift[0], under - 0.08 - 0.03, L / 2 + shift[1]], size: [0.1, 0.06, 0.1] }, velocity: [0, 2.5, 0] }
    : { name: 'slab', material: 'water', shape: { type: 'box', center: [L / 2, under - 0.05, L / 2], size: [0.2, 0.1, 0.2] } };
  return {
    fps: 60,
    duration: 1,
    domain: { min: [0, 0, 0], max: [L, L, L], boundary: 'slip' },
    materials: {
      water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } },
      steel: { kind: 'solid', density: 7800 },
    },
    bodies: [liquid, { name: 'plate', material: 'steel', shape: { type: 'box', center: [L / 2, under + 0.025, L / 2], size: [0.3, 0.05, 0.3] } }],
    grid: { cellSize: h, cfl: 2, tracking: 'levelset' },
  };
}

/** The liquid cells (φ < 0, not solid, not a domain wall): their top and mean height, and how many touch a solid above. */
export function hangMeasure(sim: GridSimulation): { top: number; mean: number; touching: number; cells: number } {
  const s = sim.store, h = sim.d.h, y0 = sim.d.origin[1];
  let top = -Infinity, sum = 0, cells = 0, touching = 0;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === SOLID || s.wall[c] !== 0 || !(s.phi[c] < 0)) continue;
    const y = y0 + (s.cj[c] + 0.5) * h;
    top = Math.max(top, y); sum += y; cells++;
    const above = s.nb[6 * c + 3];
    if (above >= 0 && s.type[above] === SOLID && s.wall[above] === 0) touching++;
  }
  return { top, mean: sum / cells, touching, cells };
}

