/**
 * The topology of a run's surface meshes, frame by frame: the connected components, how many of them
 * are closed, and the handles (the genus, (2 − χ) / 2 per closed component with χ = V − E + F, vertices
 * welded by position): on a sheet meshed as a closed layer, each through-hole adds a handle, each
 * strand or drop that breaks off a component. Components under `--min` triangles (specks) are counted apart.
 *   npx tsx bench/mesh-topology.ts RUNDIR/grid [--frames 15,21,27,36] [--min 50]
 */
import { readFileSync } from 'node:fs';
import { fromPLY } from '../src/io/ply-read.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const dir = args[0], minTris = Number(opt('min', '50'));
const frames = opt('frames', '15,21,27,36').split(',').map(Number);

function find(p: Int32Array, a: number): number {
  while (p[a] !== a) { p[a] = p[p[a]]; a = p[a]; }
  return a;
}

for (const f of frames) {
  const mesh = fromPLY(new Uint8Array(readFileSync(`${dir}/mesh-${String(f).padStart(4, '0')}.ply`)));
  const pos = mesh.positions, idx = mesh.indices, nv = pos.length / 3, nt = idx.length / 3;
  // Weld by position (the mesher may repeat a vertex along a cell's edge).
  const key = new Map<string, number>(), weld = new Int32Array(nv);
  let nw = 0;
  for (let v = 0; v < nv; v++) {
    const k = `${pos[3 * v]},${pos[3 * v + 1]},${pos[3 * v + 2]}`;
    let w = key.get(k);
    if (w === undefined) { w = nw++; key.set(k, w); }
    weld[v] = w;
  }
  const parent = new Int32Array(nw).map((_, i) => i);
  const edges = new Map<number, number>();
  for (let t = 0; t < nt; t++) {
    const a = weld[idx[3 * t]], b = weld[idx[3 * t + 1]], c = weld[idx[3 * t + 2]];
    for (const [x, y] of [[a, b], [b, c], [c, a]]) {
      const e = Math.min(x, y) * nw + Math.max(x, y);
      edges.set(e, (edges.get(e) ?? 0) + 1);
      const rx = find(parent, x), ry = find(parent, y);
      if (rx !== ry) parent[rx] = ry;
    }
  }
  const V = new Map<number, number>(), E = new Map<number, number>(), F = new Map<number, number>(), open = new Set<number>();
  for (let v = 0; v < nw; v++) { const r = find(parent, v); V.set(r, (V.get(r) ?? 0) + 1); }
  for (const [e, n] of edges) {
    const r = find(parent, Math.floor(e / nw));
    E.set(r, (E.get(r) ?? 0) + 1);
    if (n !== 2) open.add(r);
  }
  for (let t = 0; t < nt; t++) { const r = find(parent, weld[idx[3 * t]]); F.set(r, (F.get(r) ?? 0) + 1); }
  let big = 0, specks = 0, handles = 0, openBig = 0, largest = 0;
  for (const [r, nf] of F) {
    if (nf < minTris) { specks++; continue; }
    big++;
    if (open.has(r)) { openBig++; continue; }
    const chi = (V.get(r) ?? 0) - (E.get(r) ?? 0) + nf;
    handles += (2 - chi) / 2;
    largest = Math.max(largest, nf);
  }
  console.log(`frame ${f}: ${nt} triangles, ${big} components of ≥ ${minTris} triangles (${openBig} not closed), ${specks} specks, ${handles} handles`);
}
