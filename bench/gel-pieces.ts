/**
 * How a gel scene's sub-timesteps are cut in the particle engine: over its first `frames` frames,
 * the sub-timesteps' pieces (substeps), the extra pieces cutting made (subdivisions) and the gel's
 * implicit solves:
 *   npx tsx bench/gel-pieces.ts scenes/jello-drop.json 30 [--set path=value …]
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import { setScenePath, splitSetArgs } from './scene-set.ts';

const { sets, plain } = splitSetArgs(process.argv.slice(2));
const json = JSON.parse(readFileSync(plain[0], 'utf8'));
for (const s of sets) setScenePath(json, s);
const sim = createSimulation(parseScene(json), 'particle');
const frames = Number(plain[1] ?? 30), sums: Record<string, number> = {};
for (let f = 1; f <= frames; f++) {
  const c = sim.stepFrame().counters;
  for (const k of ['substeps', 'subdivisions', 'gelSolves']) sums[k] = (sums[k] ?? 0) + (c[k] ?? 0);
}
console.log(`${plain[0]} ${sets.join(' ')} frames 1–${frames}: ${Object.entries(sums).map(([k, v]) => `${k} ${v}`).join(', ')}`);
