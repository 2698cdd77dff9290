/**
 * The compression a fresh search finds at the frames' end, against the one PBF reports: after each
 * frame, ρ̂ of every liquid particle summed by brute force over every liquid and object particle
 * within the density kernel h (cells of side h), with the object particles' boundary volumes
 * (solve-setup.ts), as PBF's measure sums it (pbf-measure.ts). PBF's own last measure reads the
 * rows it listed before its passes, so the pairs its passes bring within h are not in it.
 *   npx tsx bench/pbf-true-density.ts <other checkout> [scene] [firstFrame] [lastFrame] [--particle JSON]
 * Steps this checkout (B) and the other (A) side by side in one process and prints, a frame, the
 * mean compression Σ max(ρ̂ − 1, 0) / n found (and PBF's reported one, counters.densityError) and
 * the share of particles over 2 % compressed; then the means over the frames.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Ctx {
  liquid: { count: number; pos: Float64Array };
  objects: { count: number; pos: Float64Array };
  densityH: number;
  solve: { gamma: Float64Array; n0: number } | null;
}
interface Sim { ctx: Ctx; stepFrame(): { counters: Record<string, number> } }
interface Engine { parseScene(json: unknown): unknown; createSimulation(scene: unknown, engine: string): Sim }

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const pos = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const other = pos[0];
if (!other) throw new Error('usage: npx tsx bench/pbf-true-density.ts <other checkout> [scene] [firstFrame] [lastFrame] [--particle JSON]');
const file = pos[1] ?? 'scenes/honey-drop.json', first = Number(pos[2] ?? 3), last = Number(pos[3] ?? 22);
const json = JSON.parse(readFileSync(file, 'utf8'));
json.particle = { ...json.particle, ...(JSON.parse(flag('--particle') ?? '{}') as object) };
const load = async (root: string): Promise<Engine> => (await import(pathToFileURL(resolve(root, 'src/index.ts')).href)) as Engine;
const A = await load(other), B = await load(resolve(import.meta.dirname, '..'));
const sims = [A, B].map((e) => e.createSimulation(e.parseScene(json), 'particle'));

const W = (s: number): number => (s <= 0.5 ? 6 * s * s * (s - 1) + 1 : 2 * (1 - s) ** 3);

/** Cells of side h over m points: a map from the cell key to its points. */
function cellsOf(p: Float64Array, m: number, h: number): Map<string, number[]> {
  const cells = new Map<string, number[]>();
  for (let i = 0; i < m; i++) {
    const key = `${Math.floor(p[3 * i] / h)},${Math.floor(p[3 * i + 1] / h)},${Math.floor(p[3 * i + 2] / h)}`;
    let c = cells.get(key);
    if (!c) cells.set(key, (c = []));
    c.push(i);
  }
  return cells;
}

/** The mean compression and the share over 2 % by brute force (see the header). */
function found(ctx: Ctx): { mean: number; over: number } {
  const n = ctx.liquid.count, x = ctx.liquid.pos, h = ctx.densityH, st = ctx.solve!;
  const O = ctx.objects, lc = cellsOf(x, n, h), oc = cellsOf(O.pos, O.count, h);
  let err = 0, over = 0;
  for (let i = 0; i < n; i++) {
    const ci = Math.floor(x[3 * i] / h), cj = Math.floor(x[3 * i + 1] / h), ck = Math.floor(x[3 * i + 2] / h);
    let rho = 1;
    for (let a = -1; a <= 1; a++) for (let b = -1; b <= 1; b++) for (let c = -1; c <= 1; c++) {
      const key = `${ci + a},${cj + b},${ck + c}`;
      for (const j of lc.get(key) ?? []) {
        if (j === i) continue;
        const s = Math.hypot(x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1], x[3 * i + 2] - x[3 * j + 2]) / h;
        if (s < 1) rho += W(s);
      }
      for (const o of oc.get(key) ?? []) {
        const s = Math.hypot(x[3 * i] - O.pos[3 * o], x[3 * i + 1] - O.pos[3 * o + 1], x[3 * i + 2] - O.pos[3 * o + 2]) / h;
        if (s < 1) rho += st.gamma[o] * W(s);
      }
    }
    const e = rho / st.n0 - 1;
    if (e > 0) err += e;
    if (e > 0.02) over++;
  }
  return { mean: err / n, over: over / n };
}

const sum = [{ f: 0, o: 0, r: 0 }, { f: 0, o: 0, r: 0 }];
console.log(`${file}, frames ${first}–${last}; A = ${other}, B = this checkout; compression found (PBF's reported) and share over 2 %`);
for (let f = 1; f <= last; f++) {
  const row: string[] = [];
  sims.forEach((sim, k) => {
    const rep = sim.stepFrame().counters.densityError ?? 0;
    if (f < first) return;
    const t = found(sim.ctx);
    sum[k].f += t.mean; sum[k].o += t.over; sum[k].r += rep;
    row.push(`${'AB'[k]} ${(100 * t.mean).toFixed(3)} % (${(100 * rep).toFixed(3)} %), ${(100 * t.over).toFixed(2)} %`);
  });
  if (f >= first) console.log(`frame ${f}: ${row.join('; ')}`);
}
const m = last - first + 1;
sum.forEach((s, k) => console.log(`${'AB'[k]} mean over the frames: found ${(100 * s.f / m).toFixed(3)} %, reported ${(100 * s.r / m).toFixed(3)} %, over 2 % ${(100 * s.o / m).toFixed(2)} % of the particles`));
