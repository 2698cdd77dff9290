/**
 * The shipped gels on the grid under either form of the elastic force's free surface
 * (grid.elasticSurface "cells" or "fractions"; docs/decisions.md, "The elastic force at the free
 * surface weighted by the liquid's fractions"): tests/scene/shipped.test.ts's jelly-block (1 cm
 * cells) and jello-drop figures — the centre of mass over its rest height at the impact, highest
 * after, settled — with that test's bounds checked.
 *
 *   npx tsx bench/grid-gel-surface.ts cells|fractions [jelly-block|jello-drop …]
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';

const [surface = 'cells', ...only] = process.argv.slice(2);
const shipped = (name: string) => JSON.parse(readFileSync(new URL(`../scenes/${name}.json`, import.meta.url), 'utf8'));

function bounce(json: Record<string, any>, rest: number, frames: number) {
  json.grid = { ...json.grid, elasticSurface: surface };
  const sim = createSimulation(parseScene(json), 'grid');
  const y: number[] = [];
  for (let f = 0; f < frames; f++) { sim.stepFrame(); y.push(sim.metrics().centerOfMass[1] / rest); }
  const impact = y.indexOf(Math.min(...y.slice(0, 15)));
  return { sim, y, impact, after: Math.max(...y.slice(impact)) };
}
const check = (name: string, ok: boolean) => `${name} ${ok ? 'ok' : 'FAILS'}`;

if (only.length === 0 || only.includes('jelly-block')) {
  const json = shipped('jelly-block');
  json.grid.cellSize = 0.01;
  const { sim, y, impact, after } = bounce(json, 0.03, 45);
  const b = sim.metrics().bounds, w = b.max[0] - b.min[0];
  console.log(`jelly-block (grid, 1 cm, ${surface}): lowest ${y[impact].toFixed(3)}, highest after ${after.toFixed(3)}, at 1.5 s ${y[44].toFixed(3)}, width ${(100 * w).toFixed(1)} cm`);
  console.log(`  ${[check('squash < 0.7', y[impact] < 0.7), check('rebound > +0.1', after > y[impact] + 0.1), check('settled < 0.85', y[44] < 0.85), check('width > 7 cm', w > 0.07), check('still (|y45 − y35| < 0.05)', Math.abs(y[44] - y[34]) < 0.05)].join(', ')}`);
}
if (only.length === 0 || only.includes('jello-drop')) {
  const { sim, y, impact, after } = bounce(shipped('jello-drop'), 0.0275, 60);
  const last = y.slice(45), mean = last.reduce((a, b) => a + b) / last.length, swing = Math.max(...last) - Math.min(...last);
  const b = sim.metrics().bounds;
  console.log(`jello-drop (grid, ${surface}): lowest ${y[impact].toFixed(3)}, highest after ${after.toFixed(3)}, at 2 s ${y[59].toFixed(3)}, 1.5–2 s ${mean.toFixed(3)} ± ${(swing / 2).toFixed(3)}; ${(100 * (b.max[0] - b.min[0])).toFixed(1)} cm wide, ${(100 * (b.max[1] - b.min[1])).toFixed(1)} cm high`);
  console.log(`  ${[check('impact < 0.8', y[impact] < 0.8), check('after > 1.3', after > 1.3), check('mean in (0.88, 0.98)', mean > 0.88 && mean < 0.98), check('swing < 0.1', swing < 0.1), check('height > 4.5 cm', b.max[1] - b.min[1] > 0.045), check('width < 8 cm', b.max[0] - b.min[0] < 0.08)].join(', ')}`);
}
