/**
 * Is a pour one rope? Steps a pouring scene in the particle engine and prints, every frame, the
 * connected components of the liquid between spout and pile (tests/particle/rope-components.ts:
 * particles linked within the kernel support, `--link` radii to change it), the particles there and
 * the largest component's share:
 *   npx tsx bench/rope-components.ts [scene] [frames] [--from F] [--link 5] [--particle '{"viscositySolver":"implicit"}']
 *     [--adhesion '[…]' (replaces the scene's adhesion list)] [--tension σ (every liquid's particle.tension, m/s²)]
 *     [--window '{"min":[…],"max":[…]}'] [--save FILE --save-at F (a checkpoint after frame F)] [--restore FILE (start from a checkpoint; the
 *     scene's flags above then do not apply: the checkpoint carries its scene)]
 * (defaults: honey-on-spinner, 30 frames). The shipped pours' windows are ROPE_WINDOWS; each stops
 * short of the spout and of the pile (cup-pour's holds the cup's honey until the pour: --from 33). Ends with a summary over frames from --from on
 * (default: the first frame with liquid in the window): the mean and largest component count and
 * the share of frames that are one component.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene, createSimulation, restoreSimulation } from '../src/index.ts';
import { ROPE_WINDOWS, ropeComponents, type RopeWindow } from '../tests/particle/rope-components.ts';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const pos = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const name = pos[0] ?? 'honey-on-spinner';
const frames = Number(pos[1] ?? 30);
const json = JSON.parse(readFileSync(`scenes/${name}.json`, 'utf8')) as { particle?: Record<string, unknown>; adhesion?: unknown };
if (flag('--adhesion')) json.adhesion = JSON.parse(flag('--adhesion')!);
if (flag('--tension')) {
  for (const m of Object.values((json as { materials: Record<string, { kind: string; particle?: Record<string, unknown> }> }).materials)) {
    if (m.kind === 'liquid') m.particle = { ...m.particle, tension: Number(flag('--tension')) };
  }
}
json.particle = { ...json.particle, ...(JSON.parse(flag('--particle') ?? '{}') as Record<string, unknown>) };
const scene = parseScene(json);
const win = flag('--window') ? (JSON.parse(flag('--window')!) as RopeWindow) : ROPE_WINDOWS[name];
if (!win) throw new Error(`no window for '${name}': pass --window`);
const r = scene.particle.radius;
const link = Number(flag('--link') ?? 5) * r;
const sim = flag('--restore') ? restoreSimulation(new Uint8Array(readFileSync(flag('--restore')!))) : createSimulation(scene, 'particle');
const save = flag('--save') ? Number(flag('--save-at')) : -1;
console.log(`${name}: r ${r * 1000} mm, link ${(link * 1000).toFixed(1)} mm, particle ${JSON.stringify(json.particle)}, load ${loadavg()[0].toFixed(1)}`);
const counts: number[] = [];
let from = flag('--from') ? Number(flag('--from')) : -1;
const t0 = performance.now();
for (let f = sim.frame + 1; f <= frames; f++) {
  sim.stepFrame();
  if (f === save) writeFileSync(flag('--save')!, sim.save());
  const p = sim.fluidPoints();
  const c = ropeComponents(p.positions, p.count, win, link);
  if (from < 0 && c.particles > 0) from = f;
  if (from >= 0 && f >= from) counts.push(c.components);
  const span = c.particles ? `${(c.largestSpan[0] * 1000).toFixed(0)}–${(c.largestSpan[1] * 1000).toFixed(0)} mm` : '';
  console.log(`frame ${f}: ${c.components} components, ${c.particles} particles in window, largest ${c.largest} (y ${span}), ${p.count} liquid`);
}
const mean = counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length);
const one = counts.filter((c) => c === 1).length;
console.log(`summary ${name} frames ${from}–${frames}: components mean ${mean.toFixed(2)}, max ${Math.max(0, ...counts)}, one component in ${one}/${counts.length} frames; ${((performance.now() - t0) / 1000).toFixed(0)} s`);
