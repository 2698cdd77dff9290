/**
 * Bytes a frame and encoding time of each mesh format `viscid run` writes, on the frames of a run
 * (written as binary PLY, the default, and read back):
 *   npx viscid run scenes/honey-drop.json --frames 60 --out out/honey-drop
 *   npx tsx bench/formats.bench.ts out/honey-drop/particle [every]
 * Prints one row per format: mean bytes a frame, total over the frames, mean encode ms (encoding
 * only; writing is one write of those bytes). Results go to BENCHMARKS.md, "Output formats".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toGLB, toOBJ, toPLY, type Mesh } from '../src/index.ts';
import { fromPLY } from '../src/io/ply-read.ts';

const [dir = 'out/honey-drop/particle', everyArg = '1'] = process.argv.slice(2);
const every = Math.max(1, Number(everyArg));
const files = readdirSync(dir).filter((f) => /^mesh-\d+\.ply$/.test(f)).sort();
if (files.length === 0) throw new Error(`no mesh-NNNN.ply frames in ${dir}`);

const formats: { name: string; encode: (m: Mesh) => Promise<string | Uint8Array> | string | Uint8Array }[] = [
  { name: 'OBJ, 9 digits (exact float32)', encode: (m) => toOBJ(m) },
  { name: 'OBJ, 6 digits', encode: (m) => toOBJ(m, { digits: 6 }) },
  { name: 'binary PLY', encode: (m) => toPLY(m) },
  { name: 'GLB', encode: (m) => toGLB(m) },
];
const totals = formats.map(() => ({ bytes: 0, ms: 0 }));
let frames = 0, vertices = 0, triangles = 0;
for (let i = 0; i < files.length; i += every) {
  const mesh = fromPLY(new Uint8Array(readFileSync(join(dir, files[i]))));
  frames++;
  vertices += mesh.positions.length / 3;
  triangles += mesh.indices.length / 3;
  for (const [k, f] of formats.entries()) {
    await f.encode(mesh); // warm
    const t0 = performance.now();
    const out = await f.encode(mesh);
    totals[k].ms += performance.now() - t0;
    totals[k].bytes += typeof out === 'string' ? Buffer.byteLength(out) : out.length;
  }
}
const mb = (b: number) => (b / 1e6).toFixed(2);
console.log(`${frames} frames of ${dir}: mean ${Math.round(vertices / frames)} vertices, ${Math.round(triangles / frames)} triangles`);
console.log('| format | MB a frame | MB for these frames | bytes a triangle | encode ms a frame |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [k, f] of formats.entries()) {
  const t = totals[k];
  console.log(`| ${f.name} | ${mb(t.bytes / frames)} | ${mb((t.bytes * files.length) / frames)} | ${(t.bytes / triangles).toFixed(1)} | ${(t.ms / frames).toFixed(0)} |`);
}
