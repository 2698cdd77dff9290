/**
 * Liquid beside a solid on the grid (issue 27, "liquid that no longer moves should not be kept in
 * the air"; tests/grid/body-side.test.ts, bench/grid-body-side.ts): a 50 cm box and water, plain
 * level set, 2.5 cm cells unless asked.
 * - `wall`: a 10 × 20 × 20 cm slab at rest against the box's x = 0 wall, its bottom 20 cm up.
 * - `pillar`: the same slab against the +x side of a static 10 × 45 × 20 cm pillar body that stands
 *   on the floor in the box's middle.
 * - `paddle`: a 5 × 30 × 30 cm paddle body driven along +x at 1 m/s from the box's middle, the slab
 *   (10 × 20 × 20 cm, its bottom 20 cm up) at rest against its −x side: the paddle moves away.
 * - `lift`: a 30 × 5 × 30 cm plate lying on a 10 cm pool (its underside at the pool's surface)
 *   lifted 15 cm at 0.5 m/s (0 to 0.3 s) and held there: what it carries up with it.
 * - `lift-slow`: the same plate lifted at 5 cm/s for the whole second (5 cm, two 2.5 cm cells): the
 *   water it carries up out of the cells it leaves.
 * - `bridge`: a static 30 × 5 × 30 cm plate with its underside at 25 cm over a 10 cm pool, and a
 *   10 × 15 × 10 cm column of water at rest standing on the pool up to the plate's underside.
 * `boundary`: the box's walls (slip or noslip); `liquid`: the material (default water).
 */
import type { GridSimulation } from '../../src/grid/step.ts';
import { SOLID } from '../../src/grid/store.ts';

export const L = 0.5;

const WATER = { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } };

export function bodySideScene(kind: string, h = 0.025, boundary = 'slip', liquid: Record<string, unknown> = WATER): Record<string, unknown> {
  const slab = (x: number) => ({ name: 'slab', material: 'liquid', shape: { type: 'box', center: [x, 0.3, L / 2], size: [0.1, 0.2, 0.2] } });
  const bodies: Record<string, unknown>[] = [];
  if (kind === 'wall') bodies.push(slab(0.05));
  else if (kind === 'pillar') {
    bodies.push({ name: 'pillar', material: 'steel', shape: { type: 'box', center: [L / 2, 0.225, L / 2], size: [0.1, 0.45, 0.2] } });
    bodies.push(slab(L / 2 + 0.1));
  } else if (kind === 'paddle') {
    bodies.push({ name: 'paddle', material: 'steel', shape: { type: 'box', center: [0.2, 0.3, L / 2], size: [0.05, 0.3, 0.3] }, motion: { type: 'linear', velocity: [1, 0, 0] } });
    bodies.push(slab(0.125));
  } else if (kind === 'lift') {
    bodies.push({ name: 'pool', material: 'liquid', shape: { type: 'box', center: [L / 2, 0.05, L / 2], size: [L, 0.1, L] } });
    bodies.push({ name: 'plate', material: 'steel', shape: { type: 'box', center: [L / 2, 0.125, L / 2], size: [0.3, 0.05, 0.3] }, motion: { type: 'keyframes', keys: [{ time: 0, translate: [0, 0, 0] }, { time: 0.3, translate: [0, 0.15, 0] }] } });
  } else if (kind === 'lift-slow') {
    bodies.push({ name: 'pool', material: 'liquid', shape: { type: 'box', center: [L / 2, 0.05, L / 2], size: [L, 0.1, L] } });
    bodies.push({ name: 'plate', material: 'steel', shape: { type: 'box', center: [L / 2, 0.125, L / 2], size: [0.3, 0.05, 0.3] }, motion: { type: 'keyframes', keys: [{ time: 0, translate: [0, 0, 0] }, { time: 1, translate: [0, 0.05, 0] }] } });
  } else if (kind === 'bridge') {
    bodies.push({ name: 'pool', material: 'liquid', shape: { type: 'box', center: [L / 2, 0.05, L / 2], size: [L, 0.1, L] } });
    bodies.push({ name: 'column', material: 'liquid', shape: { type: 'box', center: [L / 2, 0.175, L / 2], size: [0.1, 0.15, 0.1] } });
    bodies.push({ name: 'plate', material: 'steel', shape: { type: 'box', center: [L / 2, 0.275, L / 2], size: [0.3, 0.05, 0.3] } });
  } else throw new Error(`unknown case ${kind}`);
  return {
    fps: 60,
    duration: 1,
    domain: { min: [0, 0, 0], max: [L, L, L], boundary },
    materials: { liquid, steel: { kind: 'solid', density: 7800 } },
    bodies,
    grid: { cellSize: h, cfl: 2, tracking: 'levelset' },
  };
}

/**
 * The liquid cells (φ < 0, not solid, not a domain wall): their top and mean height, how many have
 * a solid (object or wall) beside them horizontally, and the liquid volume (cells × h³, by φ < 0)
 * above `above` m.
 */
export function sideMeasure(sim: GridSimulation, above = 0.1): { top: number; mean: number; meanX: number; beside: number; cells: number; high: number } {
  const s = sim.store, h = sim.d.h, y0 = sim.d.origin[1];
  let top = -Infinity, sum = 0, sumX = 0, cells = 0, beside = 0, high = 0;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === SOLID || s.wall[c] !== 0 || !(s.phi[c] < 0)) continue;
    const y = y0 + (s.cj[c] + 0.5) * h;
    top = Math.max(top, y); sum += y; cells++;
    sumX += sim.d.origin[0] + (s.ci[c] + 0.5) * h;
    if (y > above) high++;
    for (const d of [0, 1, 4, 5]) {
      const m = s.nb[6 * c + d];
      if (m >= 0 && s.type[m] === SOLID) { beside++; break; }
    }
  }
  return { top, mean: sum / cells, meanX: sumX / cells, beside, cells, high: high * h * h * h };
}
