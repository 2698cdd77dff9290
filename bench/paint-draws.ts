/**
 * paint-drops over round-off draws: one run of the particle engine with the three drops' centres moved by
 * `draw` µm along x (draw 0: the scene as shipped) and particle.thinPull set, dumping the liquid's state
 * (positions, paints, colour fractions, surface flags and normals) at the chosen frames, for
 * bench/paint-draws-read.ts to measure offline.
 *
 * npx tsx bench/paint-draws.ts OUTDIR DRAW THINPULL [frames, default 40,42,45,48,50] [scene]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';

const [out, drawArg, pullArg] = process.argv.slice(2, 5);
const frames = (process.argv[5] ?? '40,42,45,48,50').split(',').map(Number);
const file = process.argv[6] ?? 'scenes/paint-drops.json';
const json = JSON.parse(readFileSync(file, 'utf8'));
const draw = Number(drawArg), pull = Number(pullArg);
for (const b of json.bodies) if (/drop/.test(b.name)) b.shape.center[0] += draw * 1e-6;
json.particle.thinPull = pull;
const sim = createSimulation(parseScene(json), 'particle') as ParticleSimulation;
mkdirSync(out, { recursive: true });
let f = 0;
const t0 = process.cpuUsage();
for (const target of frames) {
  while (f < target) {
    sim.stepFrame();
    f++;
  }
  const L = sim.ctx.liquid, n = L.count, mix = sim.ctx.mixing!;
  writeFileSync(`${out}/f${f}.json`, JSON.stringify({
    frame: f, n, width: mix.width, names: sim.scene.materialNames, r: sim.ctx.r, h: sim.ctx.densityH,
    pos: Array.from(L.pos.subarray(0, 3 * n)), material: Array.from(L.material.subarray(0, n)),
    fractions: Array.from(mix.fractions.array.subarray(0, mix.width * n)), surface: Array.from(L.surface.subarray(0, n)),
    normals: Array.from(L.normal.subarray(0, 3 * n)), palette: Array.from(mix.palette),
  }));
  const u = process.cpuUsage(t0);
  console.log(`frame ${f}: ${n} particles, ${((u.user + u.system) / 1e6).toFixed(1)} s CPU`);
}
