/**
 * The surface's cost with the colours' surface-aligned Gaussian (σ 3 r along, r across, the
 * default) against the round one of σ = 1.5 r used before, in one process, alternating, on the
 * particles of a particle run's point files (ply: x y z vx vy vz material density):
 * the median of 5 of the attribute stage (the gradient normals and the vertex colours) and of the
 * whole surface.
 *
 *   node bin/viscid.js run scenes/paint-drops.json --out /tmp/paint/main --points ply
 *   npx tsx bench/colour-kernel-cost.ts /tmp/paint/main 45,90 [scene]
 */
import { readFileSync } from 'node:fs';
import { particleSurface, type SurfaceTimings } from '../src/surface/particle-surface.ts';
import { parseScene } from '../src/index.ts';
import { linearColor } from '../src/scene/color.ts';
const dir = process.argv[2] ?? '/tmp/paint/main';
const frames = (process.argv[3] ?? '45,90').split(',').map((f) => f.padStart(4, '0'));
const scene = parseScene(JSON.parse(readFileSync(process.argv[4] ?? 'scenes/paint-drops.json', 'utf8')));
const pal = scene.materialNames.map((m) => linearColor(scene.materials[m].color));
for (const f of frames) {
  const buf = readFileSync(`${dir}/particle/points-${f}.ply`);
  const end = buf.indexOf('end_header\n') + 11;
  const n = Number(/element vertex (\d+)/.exec(buf.subarray(0, end).toString())![1]);
  const dv = new DataView(buf.buffer, buf.byteOffset + end);
  const pos = new Float32Array(3 * n), col = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) pos[3 * i + k] = dv.getFloat32(30 * i + 4 * k, true);
    col.set(pal[dv.getUint16(30 * i + 24, true)], 3 * i);
  }
  const t = { round: [] as number[], aligned: [] as number[], roundAll: [] as number[], alignedAll: [] as number[] };
  for (let rep = 0; rep < 5; rep++) for (const [name, o] of [['round', { colourAlong: 1.5, colourAcross: 1.5 }], ['aligned', {}]] as const) {
    const timings: SurfaceTimings = { sampling: 0, polygonize: 0, attributes: 0, regions: 0 };
    const t0 = performance.now();
    particleSurface({ count: n, positions: pos, radius: scene.particle.radius, colors: col }, scene.output, { ...o, timings });
    t[name].push(timings.attributes); t[(name + 'All') as 'roundAll'].push(performance.now() - t0);
  }
  const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(0);
  console.log(`frame ${f} (${n} particles): attributes median ms round ${med(t.round)} aligned ${med(t.aligned)}; whole surface round ${med(t.roundAll)} aligned ${med(t.alignedAll)}`);
}
