/**
 * Reads bench/paint-draws.ts's dumps: per run directory and frame, tests/particle/paint-drops.test.ts's measures
 * (strays, mixed vertices, the blue cap's pale share, blue on top) and what the pale share is made of.
 *
 * npx tsx bench/paint-draws-read.ts FRAME DIR...
 */
import { readFileSync } from 'node:fs';
import { parseScene } from '../src/index.ts';
import { particleSurface } from '../src/surface/particle-surface.ts';
import { neighbourCounts, strayShare } from '../tests/particle/unlike-neighbours.ts';

const frame = Number(process.argv[2]);
const dirs = process.argv.slice(3);
const cos30 = Math.cos(Math.PI / 6);
const output = parseScene(JSON.parse(readFileSync('scenes/paint-drops.json', 'utf8'))).output;

interface Dump { n: number; width: number; names: string[]; r: number; h: number; pos: number[]; material: number[]; fractions: number[]; surface: number[]; normals: number[]; palette: number[] }

export function measure(d: Dump, opts: { own?: boolean; round?: boolean } = {}) {
  const n = d.n, w = d.width, pal = d.palette, pos = Float64Array.from(d.pos), mat = Int32Array.from(d.material);
  const colors = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    let r = 0, g = 0, b = 0, s = 0;
    for (let m = 0; m < w; m++) { const f = d.fractions[w * i + m]; r += f * pal[3 * m]; g += f * pal[3 * m + 1]; b += f * pal[3 * m + 2]; s += f; }
    colors[3 * i] = r / s; colors[3 * i + 1] = g / s; colors[3 * i + 2] = b / s;
    if (opts.own) for (let k = 0; k < 3; k++) colors[3 * i + k] = pal[3 * d.material[i] + k];
  }
  const stray = strayShare(neighbourCounts(pos, mat, n, d.h)).share;
  const mesh = particleSurface({ count: n, positions: pos, radius: d.r, colors, surface: Uint8Array.from(d.surface), normals: Float32Array.from(d.normals) }, output, opts.round ? { colourAlong: 1.5, colourAcross: 1.5 } : {});
  const P = mesh.positions, C = mesh.colors!, N = mesh.normals, nv = P.length / 3;
  const paints = [0, 1, 2];
  let mixed = 0, cap = 0, pale = 0;
  const blue = d.names.indexOf('blue'), yellow = d.names.indexOf('yellow');
  const paleV: number[] = [];
  for (let v = 0; v < nv; v++) {
    if (!paints.some((m) => [0, 1, 2].every((k) => Math.abs(C[3 * v + k] - pal[3 * m + k]) < 0.05))) mixed++;
    const x = P[3 * v], y = P[3 * v + 1], z = P[3 * v + 2], dd = Math.hypot(x, y, z);
    if (dd > 0.06 || y < dd * cos30) continue;
    if ((N[3 * v] * x + N[3 * v + 1] * y + N[3 * v + 2] * z) / dd < 0.5) continue;
    cap++;
    const share = (C[3 * v] - pal[3 * yellow]) / (pal[3 * blue] - pal[3 * yellow]);
    if (share < 0.85) { pale++; paleV.push(v); }
  }
  return { stray, mixed: mixed / nv, cap, pale: pale / Math.max(1, cap), paleV, mesh, colors, pos, mat, blue, yellow };
}

if (process.argv[1]?.endsWith('paint-draws-read.ts')) {
  for (const dir of dirs) {
    const d = JSON.parse(readFileSync(`${dir}/f${frame}.json`, 'utf8')) as Dump;
    const m = measure(d);
    console.log(`${dir} f${frame}: n ${d.n} stray ${(100 * m.stray).toFixed(1)} mixed ${(100 * m.mixed).toFixed(1)} pale ${(100 * m.pale).toFixed(1)} of ${m.cap}`);
  }
}
