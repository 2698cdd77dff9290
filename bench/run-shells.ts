/**
 * What a viewer sees in a run's surface meshes, frame by frame, read from the files `viscid run
 * --mesh ply` wrote (no stepping): the shells of each frame's mesh (triangles joined through shared
 * vertices, as tests/scene/mesh-pieces.ts), split into pieces (a shell enclosing at least one
 * particle's volume, (2r)³) and specks (smaller ones, and shells of negative volume: cavities); the
 * liquid's volume and centroid (Σ of the signed tetrahedra to the origin, a · (b × c) / 6, and their
 * centroids (a + b + c) / 4), its highest and lowest point, and the vertices outside the scene's box.
 * Used by stop 65's audit of the shipped scenes (docs/decisions.md):
 *   npx tsx bench/run-shells.ts RUN_DIR [frames=a,b,c | every n] [--engine particle]
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fromPLY } from '../src/io/ply-read.ts';
import { shells } from '../tests/scene/mesh-pieces.ts';

const argv = process.argv.slice(2);
const dir = argv[0];
const engine = argv.includes('--engine') ? argv[argv.indexOf('--engine') + 1] : 'particle';
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
const scene = JSON.parse(readFileSync(manifest.scene.file, 'utf8'));
const r: number = manifest.sceneSettings?.particle?.radius ?? 0.005;
const box = scene.domain ?? scene.box ?? scene.bounds;
const bmin: number[] | undefined = box?.min, bmax: number[] | undefined = box?.max;
/** --pile W (mm): also print the pile's top, the highest 1 mm slab whose vertices span more than W across in x or z (a rope or stream narrower than W is not pile). */
const pileW = argv.includes('--pile') ? Number(argv[argv.indexOf('--pile') + 1]) / 1000 : 0;
const fps: number = manifest.scene.fps ?? 30;
const files = (f: number): string => join(dir, engine, `mesh-${String(f).padStart(4, '0')}.ply`);
let last = 0;
while (existsSync(files(last + 1))) last++;
let frames: number[];
const spec = argv[1] && !argv[1].startsWith('--') ? argv[1] : undefined;
if (spec?.startsWith('every')) {
  const n = Number(spec.slice(5)) || 10;
  frames = [];
  for (let f = n; f <= last; f += n) frames.push(f);
} else frames = spec ? spec.split(',').map(Number) : [Math.ceil(last / 4), Math.ceil(last / 2), Math.ceil((3 * last) / 4), last];

const piece = (2 * r) ** 3;
console.log(`${dir}  r=${r * 1000} mm  piece ≥ (2r)³ = ${(piece * 1e9).toFixed(1)} mm³  box ${JSON.stringify(bmin)}..${JSON.stringify(bmax)}  last frame ${last}`);
console.log('frame    t   pieces specks cavities  volume_mL  largest%  cx_mm  cy_mm  cz_mm  top_mm  low_mm  outside  ropeLow_mm' + (pileW ? '  pile_mm' : ''));
for (const f of frames) {
  if (f > last) continue;
  const mesh = fromPLY(new Uint8Array(readFileSync(files(f))));
  const pos = mesh.positions, idx = mesh.indices, nv = pos.length / 3;
  const { root, volume: vol } = shells(mesh);
  let V = 0, mx = 0, my = 0, mz = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2];
    const cx = pos[b + 1] * pos[c + 2] - pos[b + 2] * pos[c + 1];
    const cy = pos[b + 2] * pos[c] - pos[b] * pos[c + 2];
    const cz = pos[b] * pos[c + 1] - pos[b + 1] * pos[c];
    const dv = (pos[a] * cx + pos[a + 1] * cy + pos[a + 2] * cz) / 6;
    V += dv;
    mx += (dv * (pos[a] + pos[b] + pos[c])) / 4;
    my += (dv * (pos[a + 1] + pos[b + 1] + pos[c + 1])) / 4;
    mz += (dv * (pos[a + 2] + pos[b + 2] + pos[c + 2])) / 4;
  }
  let pieces = 0, specks = 0, cavities = 0, largest = 0, top = -Infinity, low = Infinity, outside = 0;
  for (let v = 0; v < nv; v++) {
    if (root[v] === v && idx.length > 0) {
      if (vol[v] >= piece) pieces++;
      else if (vol[v] > 0) specks++;
      else cavities++;
      largest = Math.max(largest, vol[v]);
    }
    top = Math.max(top, pos[3 * v + 1]);
    low = Math.min(low, pos[3 * v + 1]);
    if (bmin && bmax) {
      for (let k = 0; k < 3; k++) {
        if (pos[3 * v + k] < bmin[k] - r || pos[3 * v + k] > bmax[k] + r) {
          outside++;
          break;
        }
      }
    }
  }
  // The shell holding the highest vertex (a pour's spout end): its lowest point, at the pile when the rope is whole.
  let hi = 0;
  for (let v = 1; v < nv; v++) if (pos[3 * v + 1] > pos[3 * hi + 1]) hi = v;
  let ropeLow = Infinity;
  const hr = nv > 0 ? root[hi] : -1;
  for (let v = 0; v < nv; v++) if (root[v] === hr) ropeLow = Math.min(ropeLow, pos[3 * v + 1]);
  let pile = NaN;
  if (pileW > 0) {
    const slabs = new Map<number, number[]>();
    for (let v = 0; v < nv; v++) {
      const k = Math.floor(pos[3 * v + 1] * 1000);
      const s = slabs.get(k) ?? [Infinity, -Infinity, Infinity, -Infinity];
      s[0] = Math.min(s[0], pos[3 * v]); s[1] = Math.max(s[1], pos[3 * v]);
      s[2] = Math.min(s[2], pos[3 * v + 2]); s[3] = Math.max(s[3], pos[3 * v + 2]);
      slabs.set(k, s);
    }
    for (const [k, s] of slabs) if ((s[1] - s[0] > pileW || s[3] - s[2] > pileW) && !(pile >= (k + 1) / 1000)) pile = (k + 1) / 1000;
  }
  const mm = (x: number): string => (1000 * x).toFixed(1).padStart(6);
  console.log(
    `${String(f).padStart(5)} ${(f / fps).toFixed(2)} ${String(pieces).padStart(6)} ${String(specks).padStart(6)} ${String(cavities).padStart(8)} ${(V * 1e6).toFixed(2).padStart(10)} ${(V > 0 ? (100 * largest) / V : 0).toFixed(0).padStart(8)} ${mm(mx / V)} ${mm(my / V)} ${mm(mz / V)} ${mm(top)} ${mm(low)} ${String(outside).padStart(8)} ${mm(ropeLow).padStart(10)}${pileW ? mm(pile).padStart(9) : ''}`,
  );
}
