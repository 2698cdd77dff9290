/**
 * Vertex normals of the particle surface on engine states: the mean angle between the vertex
 * normals across mesh edges (shading noise; issue 15 asks ≤ 8° on the honey drop at 2 s), the
 * faces' dihedral angle, the enclosed volume ÷ Σ vᵢ, shells and meshing CPU time, for the variants
 * listed below, interleaved (min of `--repeat` runs).
 *
 *   npx tsx bench/dump-particles.ts scenes/honey-drop.json 60      # writes /tmp/pts-honey-drop-60.json
 *   npx tsx bench/surface-normals.bench.ts /tmp/pts-honey-drop-60.json [--repeat 3]
 *   npx tsx bench/surface-normals.bench.ts tests/surface/data/honey-drop-60.bin   # the test's state
 */
import { readFileSync } from 'node:fs';
import { checkMesh, particleSurface } from '../src/surface/index.ts';
import type { SurfaceOptions } from '../src/surface/particle-surface.ts';
import { edgeMeasures, readParticleDump } from '../tests/surface/helpers.ts';

const files = process.argv.slice(2).filter((a) => a.endsWith('.json') || a.endsWith('.bin'));
const ri = process.argv.indexOf('--repeat');
const repeat = ri > 0 ? Number(process.argv[ri + 1]) : 1;
const output = { resolution: 1, polygonizer: 'marching-cubes' as const, kernelWidth: 2.2, colors: false };
const variants: { label: string; options: SurfaceOptions }[] = [
  { label: 'field (default)', options: {} },
  { label: 'particles, 1.5 r (paper)', options: { normals: 'particles' } },
  { label: 'particles, 2.5 r', options: { normals: 'particles', normalWidth: 2.5 } },
];

for (const file of files) {
  const input = file.endsWith('.bin') ? readParticleDump(readFileSync(file)) : fromJson(JSON.parse(readFileSync(file, 'utf8')));
  console.log(`${file}: ${input.count} particles, r = ${input.radius}`);
  const best = new Map<string, number>();
  const rows = new Map<string, string>();
  for (let k = 0; k < repeat; k++) {
    for (const v of variants) {
      const t = process.cpuUsage();
      const mesh = particleSurface(input, output, v.options);
      const c = process.cpuUsage(t), ms = (c.user + c.system) / 1000;
      best.set(v.label, Math.min(best.get(v.label) ?? Infinity, ms));
      if (k > 0) continue;
      const e = edgeMeasures(mesh), rep = checkMesh(mesh);
      rows.set(v.label, `edge shading ${e.shading.toFixed(2)}° (shells ≥ 1000 triangles ${e.bigShading.toFixed(2)}°), dihedral ${e.dihedral.toFixed(2)}°, volume/Σv ${(rep.volume / (input.count * 8 * input.radius ** 3)).toFixed(3)}, shells ${rep.shells}, ${rep.triangles} triangles`);
    }
  }
  for (const v of variants) console.log(`  ${v.label.padEnd(28)} ${rows.get(v.label)}, ${best.get(v.label)!.toFixed(0)} ms CPU`);
}

function fromJson(d: { count: number; radius: number; positions: number[]; normals: number[]; surface: number[] }) {
  return { count: d.count, positions: Float64Array.from(d.positions), radius: d.radius, normals: Float32Array.from(d.normals), surface: Uint8Array.from(d.surface) };
}
