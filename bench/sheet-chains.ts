/**
 * How far a falling viscous sheet has torn, read from the points files of a run (`viscid run … --points ply`), no
 * stepping: per frame, the particles below a height (gel-fan: under the blades' tilt, y < −4 cm) and
 *  - through: those particles plus the ones the sinks took, over the first frame's count (gelfan65's "through");
 *  - chains: the share of them with at most 2 neighbours within 2.5 r (a one-particle thread reads 2, a sheet 4–6;
 *    gelfan65's scratch measure, now kept);
 *  - pieces / specks: the particles below the height joined by links of 2.5 r, pieces of at least 8 particles,
 *    specks smaller;
 *  - nn: the median distance to the nearest neighbour, radii.
 * Used by stop 66's sheet66 (docs/decisions.md):
 *   npx tsx bench/sheet-chains.ts RUN_DIR [frames=a,b,c] [below=-0.04] [link=2.5]
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const argv = process.argv.slice(2);
const dir = argv[0];
const opt = (k: string, d: string): string => argv.find((a) => a.startsWith(k + '='))?.slice(k.length + 1) ?? d;
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
const r: number = manifest.sceneSettings?.particle?.radius ?? 0.002;
const below = Number(opt('below', '-0.04')), link = Number(opt('link', '2.5')) * r;
const file = (f: number): string => join(dir, 'particle', `points-${String(f).padStart(4, '0')}.ply`);
let last = 0;
while (existsSync(file(last + 1))) last++;
const frames = opt('frames', '').split(',').filter(Boolean).map(Number);
if (frames.length === 0) for (let f = 4; f <= last; f += 4) frames.push(f);

/** Positions of a binary little-endian PLY points file (float x y z first, the rest skipped by the header's sizes). */
function readPoints(path: string): Float64Array {
  const buf = readFileSync(path);
  const end = buf.indexOf('end_header\n') + 'end_header\n'.length;
  const header = buf.subarray(0, end).toString('latin1').split('\n');
  const n = Number(header.find((l) => l.startsWith('element vertex'))!.split(' ')[2]);
  const size: Record<string, number> = { float: 4, double: 8, uchar: 1, ushort: 2, short: 2, int: 4, uint: 4 };
  let stride = 0;
  for (const l of header) if (l.startsWith('property ')) stride += size[l.split(' ')[1]];
  const out = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) out[3 * i + k] = buf.readFloatLE(end + i * stride + 4 * k);
  return out;
}

const n0 = readPoints(file(1)).length / 3;
console.log(`${dir}  r=${r * 1000} mm  below y=${below} m  link ${(link / r).toFixed(1)} r  first frame ${n0} particles`);
console.log('frame  particles  below  through%  chains%  pieces  specks  nn_r');
for (const f of frames) {
  const p = readPoints(file(f)), n = p.length / 3;
  const idx: number[] = [];
  for (let i = 0; i < n; i++) if (p[3 * i + 1] < below) idx.push(i);
  const m = idx.length;
  // Cells of the link's size.
  const cells = new Map<string, number[]>();
  const key = (x: number, y: number, z: number): string => `${Math.floor(x / link)},${Math.floor(y / link)},${Math.floor(z / link)}`;
  for (let a = 0; a < m; a++) {
    const i = idx[a], k = key(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    let c = cells.get(k);
    if (!c) cells.set(k, (c = []));
    c.push(a);
  }
  const parent = Int32Array.from({ length: m }, (_, a) => a);
  const find = (a: number): number => { while (parent[a] !== a) a = parent[a] = parent[parent[a]]; return a; };
  let chains = 0;
  const nn: number[] = [];
  for (let a = 0; a < m; a++) {
    const i = idx[a], x = p[3 * i], y = p[3 * i + 1], z = p[3 * i + 2];
    const cx = Math.floor(x / link), cy = Math.floor(y / link), cz = Math.floor(z / link);
    let count = 0, best = Infinity;
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) {
      const c = cells.get(`${cx + dx},${cy + dy},${cz + dz}`);
      if (!c) continue;
      for (const b of c) {
        if (b === a) continue;
        const j = idx[b], d = Math.hypot(p[3 * j] - x, p[3 * j + 1] - y, p[3 * j + 2] - z);
        if (d < best) best = d;
        if (d < link) { count++; parent[find(a)] = find(b); }
      }
    }
    if (count <= 2) chains++;
    if (best < Infinity) nn.push(best / r);
  }
  const size = new Map<number, number>();
  for (let a = 0; a < m; a++) size.set(find(a), (size.get(find(a)) ?? 0) + 1);
  let pieces = 0, specks = 0;
  for (const s of size.values()) (s >= 8 ? pieces++ : specks++);
  nn.sort((a, b) => a - b);
  const through = (n0 - n + m) / n0;
  console.log(`${String(f).padStart(5)}  ${String(n).padStart(9)}  ${String(m).padStart(5)}  ${(100 * through).toFixed(1).padStart(8)}  ${(m ? (100 * chains) / m : 0).toFixed(1).padStart(7)}  ${String(pieces).padStart(6)}  ${String(specks).padStart(6)}  ${(nn.length ? nn[nn.length >> 1] : 0).toFixed(2).padStart(4)}`);
}
