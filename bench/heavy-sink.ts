/**
 * Why a heavy liquid block on a water pool (tests/particle/two-densities.test.ts's first pool: a 2 cm block at ρ `heavy`
 * on 2.5 cm of water, 5 × 6 × 2 cm slip box, 2.5 mm particles) sinks but does not become a layer (docs/decisions.md,
 * heavy21 and sink22). Each frame in `every`: the block's mean height (mm), the water/heavy counts in the floor's 5 mm
 * band, sub-timesteps and passes; then per stage (StageClock.lap; the second pressure solve as pressure2) the summed
 * change over the window of the heavy particles' mean height velocity (mm/s), of the trapped water's (water particles
 * in the floor's 5 mm band), their difference (the overturn's relative velocity: gravity gives it none, so the stages
 * that push it negative drive the overturn and those that push it back hold the heavy liquid up), and of the heavy
 * particles' mean height (µm; the stages that move positions).
 *
 *   npx tsx bench/heavy-sink.ts [heavy=3000] [frames=150] [every=30] [p.name=value …] [mu=Pa.s both] [muh=Pa.s heavy]
 *     [cohesion=off] [shift=mm: the block's centre along x] [off=filter,split,collide,pair]
 *
 * cohesion=off: every pair's Lennard-Jones at strength 0; p.densityIterations=0: no PBF. off=… sets
 * globalThis.__sink.{filter,split,collide,pair}, which only a temporary (uncommitted) edit of the source reads, one line each:
 *   filter  pressure-job.ts FILTER_STEP: `if (!(globalThis as any).__sink?.filter) filterStep(x, v, hr);`
 *   split   pressure.ts pressurePieces: the FILTER_PIECE_COURANT split under `&& !(globalThis as any).__sink?.split`
 *   collide collisions.ts preventInterpenetration: liquidAndObjectContacts under `!…__sink?.collide`
 *   pair    pressure-filter.ts filterRange / filterHalf: a pair of unequal masses weighted 0 (the filter within each liquid only)
 * The run is chaotic: shifting the block by 0.5–2.5 mm moves frame 150's height by ±0.6 mm, so compare settings over a few
 * shifts (docs/decisions.md, sink22).
 */
import { createSimulation, parseScene } from '../src/index.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import { heavyOnWater } from '../tests/particle/heavy-pool.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { onStageLaps } from './stage-laps.ts';

const kv = Object.fromEntries(process.argv.slice(2).filter((a) => a.includes('=')).map((a) => a.split('=') as [string, string]));
const heavy = Number(kv.heavy ?? 3000), frames = Number(kv.frames ?? 150), every = Number(kv.every ?? 30);
const particle: Record<string, unknown> = { radius: 0.0025 };
for (const [k, v] of Object.entries(kv)) if (k.startsWith('p.')) particle[k.slice(2)] = v === 'true' ? true : v === 'false' ? false : Number.isNaN(Number(v)) ? v : Number(v);
const muW = Number(kv.mu ?? 0.01), muH = Number(kv.muh ?? kv.mu ?? 0.05);
const scene: SceneInput = {
  ...heavyOnWater({ heavy, waterViscosity: muW, heavyViscosity: muH, shift: Number(kv.shift ?? 0) / 1000, particle: particle as SceneInput['particle'] }),
  duration: frames / 30 + 1,
  adhesion: kv.cohesion === 'off' ? (['water', 'heavy'] as const).flatMap((a, k) => (['water', 'heavy'] as const).slice(k).map((b) => ({ between: [a, b] as [string, string], type: 'lennard-jones' as const, strength: 0 }))) : undefined,
};
// Diagnostic switches read by temporary edits (off=filter,split,collide), not in the source.
(globalThis as Record<string, unknown>).__sink = Object.fromEntries((kv.off ?? '').split(',').filter(Boolean).map((k) => [k, true]));
const s = createSimulation(parseScene(scene), 'particle') as ParticleSimulation;
const L = s.ctx.liquid;
const FLOOR = 0.005;
/** [heavy mean vy, floor-band water mean vy, heavy mean y]. */
const now = (): [number, number, number] => {
  let hv = 0, hy = 0, hn = 0, wv = 0, wn = 0;
  for (let i = 0; i < L.count; i++) {
    const y = L.pos[3 * i + 1], vy = L.vel[3 * i + 1];
    if (L.material[i] === 1) { hv += vy; hy += y; hn++; } else if (y < FLOOR) { wv += vy; wn++; }
  }
  return [hv / Math.max(1, hn), wv / Math.max(1, wn), hy / Math.max(1, hn)];
};
const dH = new Map<string, number>(), dW = new Map<string, number>(), dY = new Map<string, number>();
let last = now();
onStageLaps((stage) => {
  const c = now();
  // The floor band's membership changes between laps only through the moves; its count is read afresh each time.
  dH.set(stage, (dH.get(stage) ?? 0) + c[0] - last[0]);
  dW.set(stage, (dW.get(stage) ?? 0) + c[1] - last[1]);
  dY.set(stage, (dY.get(stage) ?? 0) + c[2] - last[2]);
  last = c;
});
const fmt = (m: Map<string, number>, sc: number, d: number): string => [...m].filter(([, v]) => Math.abs(v * sc) >= 0.5 * 10 ** -d).map(([k, v]) => `${k} ${(v * sc).toFixed(d)}`).join(' ');
console.log(`ρ ${heavy}, ${L.count} particles, ${JSON.stringify(kv)}`);
let sub = 0, passes = 0;
for (let f = 1; f <= frames; f++) {
  const c = s.stepFrame().counters;
  sub += c.substeps ?? 0; passes += c.pressurePasses ?? 0;
  if (f % every && f !== 59) continue;
  let fw = 0, fh = 0;
  for (let i = 0; i < L.count; i++) if (L.pos[3 * i + 1] < FLOOR) L.material[i] === 1 ? fh++ : fw++;
  const [hv, wv, hy] = now();
  console.log(`frame ${f}: block ${(hy * 1000).toFixed(2)} mm, vy ${(hv * 1000).toFixed(2)} mm/s; floor 5 mm water/heavy ${fw}/${fh} (water vy ${(wv * 1000).toFixed(2)}); ${sub} sub-timesteps, ${passes} passes since last`);
  const rel = new Map([...dH].map(([k, v]) => [k, v - (dW.get(k) ?? 0)]));
  console.log(`  Δ heavy vy (mm/s) ${fmt(dH, 1000, 1)}\n  Δ (heavy − floor water) vy (mm/s) ${fmt(rel, 1000, 1)}\n  Δ floor water vy (mm/s) ${fmt(dW, 1000, 1)}\n  Δ heavy y (µm) ${fmt(dY, 1e6, 0)}`);
  dH.clear(); dW.clear(); dY.clear(); sub = 0; passes = 0;
}
s.dispose();
