/**
 * What a shipped scene does in the particle engine, in numbers to set beside its description:
 * every `every` frames, the liquid's particle count, its fastest particle, centre of mass and
 * bounds, the share in its largest connected piece (particles within 3 r linked), how many
 * particles lie within 2.2 r of one of another material (mixing, for scenes of several liquids),
 * the correction passes a sub-timestep, and the typed arrays held per point (Metrics.memoryBytes
 * over liquid and object particles, as `viscid bench` reports it).
 *
 *   npx tsx bench/scene-audit.ts scenes/honey-drop.json 60 10   # scene, frames, report every
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { HashGrid } from '../src/spatial/hash-grid.ts';

const [file, framesArg, everyArg] = process.argv.slice(2);
const frames = Number(framesArg ?? 30), every = Number(everyArg ?? 10);
const sim = createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle') as ParticleSimulation;
const L = sim.ctx.liquid, r = sim.ctx.r;

/** The largest connected piece as a share of the liquid, and the particles near another material. */
function structure(): { largest: number; mixed: number } {
  const n = L.count, pos = L.pos, g = new HashGrid(3 * r);
  g.build(pos, n);
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const near = new Uint8Array(n);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const cells = new Int32Array(27), link = (3 * r) ** 2, mix = (2.2 * r) ** 2;
  for (let i = 0; i < n; i++) {
    const m = g.cellsNear(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], cells, 1);
    for (let q = 0; q < m; q++) {
      for (let a = g.start[cells[q]], a1 = a + g.count[cells[q]]; a < a1; a++) {
        const j = g.order[a];
        if (j <= i) continue;
        const d2 = (pos[3 * i] - pos[3 * j]) ** 2 + (pos[3 * i + 1] - pos[3 * j + 1]) ** 2 + (pos[3 * i + 2] - pos[3 * j + 2]) ** 2;
        if (d2 < link) parent[find(i)] = find(j);
        if (d2 < mix && L.material[i] !== L.material[j]) near[i] = near[j] = 1;
      }
    }
  }
  const size = new Int32Array(n);
  let best = 0, mixed = 0;
  for (let i = 0; i < n; i++) {
    best = Math.max(best, ++size[find(i)]);
    mixed += near[i];
  }
  return { largest: n > 0 ? best / n : 1, mixed };
}

console.log(`${file}: ${frames} frames at ${sim.scene.fps} fps, r = ${r} m`);
for (let f = 1; f <= frames; f++) {
  const st = sim.stepFrame();
  if (f % every !== 0 && f !== frames) continue;
  const m = sim.metrics(), c = st.counters, s = structure(), b = m.bounds;
  const fmt = (v: number[]) => v.map((x) => x.toFixed(3)).join(',');
  console.log(
    `frame ${f} (t = ${sim.time.toFixed(2)} s): ${L.count} particles, fastest ${m.maxSpeed.toFixed(2)} m/s, centre (${fmt(m.centerOfMass)}), ` +
    `bounds (${fmt(b.min)})–(${fmt(b.max)}), largest piece ${(100 * s.largest).toFixed(1)} %, near another liquid ${s.mixed}, ` +
    `passes/sub-timestep pressure ${((c.pressurePasses ?? 0) / (c.substeps ?? 1)).toFixed(1)} density ${(c.densityPassesPerSubstep ?? 0).toFixed(1)}, ` +
    `${((m.memoryBytes ?? 0) / (L.count + sim.ctx.objects.count)).toFixed(0)} bytes/point, ${st.wallMs.toFixed(0)} ms`,
  );
}
sim.dispose();
