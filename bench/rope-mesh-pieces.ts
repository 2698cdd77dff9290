/**
 * Does the meshed stream show as one rope? Reads the meshes of a run (`viscid run SCENE -e
 * particle -o DIR`; the grid engine's with --engine grid) and prints, per frame, the pieces of the
 * surface (triangles joined through shared vertices, vertices welded to 1 µm) that reach into the
 * pour's window between spout and pile (ROPE_WINDOWS, as bench/rope-components.ts counts the
 * particles), and the window's vertices (each piece's, where there are several):
 *   npx tsx bench/rope-mesh-pieces.ts <run dir> <scene> [--frames 10,20,30] [--window '{"min":[…],"max":[…]}'] [--engine grid]
 * (default: every frame of the run, the scene's window). Ends with the share of frames whose surface is one piece there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromPLY } from '../src/io/ply-read.ts';
import { ROPE_WINDOWS, type RopeWindow } from '../tests/particle/rope-components.ts';

const argv = process.argv.slice(2);
const [dir, scene] = argv;
const wi = argv.indexOf('--window');
const win = wi >= 0 ? (JSON.parse(argv[wi + 1]) as RopeWindow) : ROPE_WINDOWS[scene];
if (!dir || !win) throw new Error(`usage: rope-mesh-pieces <run dir> <${Object.keys(ROPE_WINDOWS).join('|')}> [--frames a,b]`);
const at = argv.indexOf('--frames');
const engine = argv.includes('--engine') ? argv[argv.indexOf('--engine') + 1] : 'particle';
const files = readdirSync(join(dir, engine)).filter((f) => /^mesh-\d+\.ply$/.test(f)).sort();
const wanted = at >= 0 ? new Set(argv[at + 1].split(',').map(Number)) : null;

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

let one = 0, counted = 0;
for (const f of files) {
  const frame = Number(/\d+/.exec(f)![0]);
  if (wanted && !wanted.has(frame)) continue;
  const mesh = fromPLY(new Uint8Array(readFileSync(join(dir, engine, f))));
  const P = mesh.positions, nv = P.length / 3;
  // Weld: vertices at the same place (to 1 µm) are one.
  const weld = new Map<string, number>(), id = new Int32Array(nv);
  for (let v = 0; v < nv; v++) {
    const key = `${Math.round(P[3 * v] * 1e6)},${Math.round(P[3 * v + 1] * 1e6)},${Math.round(P[3 * v + 2] * 1e6)}`;
    const w = weld.get(key);
    if (w === undefined) weld.set(key, (id[v] = v));
    else id[v] = w;
  }
  const parent = Int32Array.from({ length: nv }, (_, k) => k);
  const I = mesh.indices;
  for (let t = 0; t < I.length; t += 3) {
    const a = find(parent, id[I[t]]);
    for (let c = 1; c < 3; c++) {
      const b = find(parent, id[I[t + c]]);
      if (a !== b) parent[b] = a;
    }
  }
  const roots = new Map<number, number>();
  let inside = 0;
  for (let v = 0; v < nv; v++) {
    const x = P[3 * v], y = P[3 * v + 1], z = P[3 * v + 2];
    if (x < win.min[0] || x > win.max[0] || y < win.min[1] || y > win.max[1] || z < win.min[2] || z > win.max[2]) continue;
    inside++;
    const root = find(parent, id[v]);
    roots.set(root, (roots.get(root) ?? 0) + 1);
  }
  if (inside > 0) {
    counted++;
    if (roots.size === 1) one++;
  }
  const sizes = [...roots.values()].sort((a, b) => b - a);
  console.log(`frame ${frame}: ${roots.size} surface pieces in the window, ${inside} vertices there${sizes.length > 1 ? ` (${sizes.join(', ')})` : ''}`);
}
console.log(`summary ${scene}: one surface piece in ${one}/${counted} frames with surface in the window`);
