/**
 * The cost of carrying per-particle data through the particle sort, in two checkouts at once (A:
 * another checkout, e.g. a worktree of main; B: this one), loaded in one process:
 *   npx tsx bench/channel-carry.ts <other checkout> [scene] [frames] [repeats]
 * (defaults: scenes/honey-melt.json, 4 frames, 200 repeats). Each steps the scene `frames` frames,
 * then alternately, `repeats` times, sorts its liquid into cells (CellPairs.buildSorted, which
 * permutes every field and channel) and brings its temperatures into the new order where the
 * checkout carries them by particle id (ParticleTemperature.follow) — what a sub-timestep pays
 * before its stages run. Prints the median CPU µs of one sort + carry of each, and B/A. The sort
 * of a sorted liquid is the same gather as of an unsorted one.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Ctx {
  liquid: { count: number };
  cells: { buildSorted(l: unknown): void };
  shared: boolean;
  temperature: null | { follow?: (l: unknown, shared: boolean) => void; prepare?: (n: number, shared: boolean) => void };
}
interface Engine {
  parseScene(json: unknown): unknown;
  createSimulation(scene: unknown, engine: string, options: object): { stepFrame(): unknown; ctx: Ctx };
}

const [other, file = 'scenes/honey-melt.json', framesS = '4', repeatsS = '200'] = process.argv.slice(2);
if (!other) throw new Error('usage: npx tsx bench/channel-carry.ts <other checkout> [scene] [frames] [repeats]');
const load = async (root: string) => (await import(pathToFileURL(resolve(root, 'src/index.ts')).href)) as Engine;
const json = JSON.parse(readFileSync(file, 'utf8'));
const sims = await Promise.all([other, resolve(import.meta.dirname, '..')].map(async (root) => {
  const e = await load(root);
  const sim = e.createSimulation(e.parseScene(json), 'particle', { workers: 1 });
  for (let f = 0; f < Number(framesS); f++) sim.stepFrame();
  return sim.ctx;
}));
const sortAndCarry = (ctx: Ctx) => {
  ctx.cells.buildSorted(ctx.liquid);
  const t = ctx.temperature;
  if (t?.follow) t.follow(ctx.liquid, ctx.shared);
  else t?.prepare?.(ctx.liquid.count, ctx.shared);
};
const us: number[][] = [[], []];
for (let k = 0; k < Number(repeatsS); k++) {
  for (const s of k % 2 === 0 ? [0, 1] : [1, 0]) {
    const c0 = process.cpuUsage();
    sortAndCarry(sims[s]);
    const c = process.cpuUsage(c0);
    us[s].push(c.user + c.system);
  }
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
const [a, b] = us.map(median);
console.log(`${file}: ${sims[1].liquid.count} particles, ${repeatsS} sorts each after ${framesS} frames; load ${loadavg()[0].toFixed(1)}`);
console.log(`  sort + carry, median CPU µs: A ${a.toFixed(0)}, B ${b.toFixed(0)}, B/A ${(b / a).toFixed(3)}`);
