/**
 * The topology of a run's surface meshes, frame by frame: the connected components, how many of them
 * are closed, and the handles (the genus, (2 − χ) / 2 per closed component with χ = V − E + F, vertices
 * welded by position): on a sheet meshed as a closed layer, each through-hole adds a handle, each
 * strand or drop that breaks off a component. Components under `--min` triangles (specks) are counted apart.
 *   npx tsx bench/mesh-topology.ts RUNDIR/grid [--frames 15,21,27,36] [--min 50] [--region y0,y1,rmin]
 *
 * `--region y0,y1,rmin` also reads the part of the mesh whose triangles' centroids lie at heights y0–y1
 * and at least rmin from the vertical axis (m): honey-drop-grid's curtain below the ball,
 * `--region -0.09,-0.03,0.048`. Cut out of a closed layer, a curtain whole round the axis is two
 * annuli (inner and outer face, Euler characteristic 0 each); each hole through it joins them by a
 * tube, χ −2, so the holes through that part are −χ / 2 (a hole the cut crosses is a notch, not counted).
 */
import { readFileSync } from 'node:fs';
import { fromPLY } from '../src/io/ply-read.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const dir = args[0], minTris = Number(opt('min', '50'));
const frames = opt('frames', '15,21,27,36').split(',').map(Number);
const region = args.includes('--region') ? opt('region', '').split(',').map(Number) : null;

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
  console.log(`frame ${f}: ${nt} triangles, ${big} components of ≥ ${minTris} triangles (${openBig} not closed), ${specks} specks, ${handles} handles${region ? `, ${regionHoles(pos, idx, weld, nw)} holes through the region` : ''}`);
}

/**
 * The holes through the triangles whose centroids lie in `region` (welded vertices): Σ −χ / 2 over
 * its pieces that the cut opens (closed pieces inside it, drops, are left out; a piece of χ 1, a disk,
 * counts none).
 */
function regionHoles(pos: Float32Array | Float64Array, idx: Uint32Array | Int32Array, weld: Int32Array, nw: number): number {
  const [y0, y1, rmin] = region!;
  const used = new Uint8Array(nw), edges = new Map<number, number>(), parent = new Int32Array(nw).map((_, i) => i);
  const faces: number[] = [];
  for (let t = 0; t < idx.length / 3; t++) {
    let x = 0, y = 0, z = 0;
    for (let a = 0; a < 3; a++) { x += pos[3 * idx[3 * t + a]]; y += pos[3 * idx[3 * t + a] + 1]; z += pos[3 * idx[3 * t + a] + 2]; }
    x /= 3; y /= 3; z /= 3;
    if (y < y0 || y > y1 || Math.hypot(x, z) < rmin) continue;
    const a = weld[idx[3 * t]], b = weld[idx[3 * t + 1]], c = weld[idx[3 * t + 2]];
    faces.push(a);
    used[a] = used[b] = used[c] = 1;
    for (const [u, v] of [[a, b], [b, c], [c, a]]) {
      const e = Math.min(u, v) * nw + Math.max(u, v);
      edges.set(e, (edges.get(e) ?? 0) + 1);
      const ru = find(parent, u), rv = find(parent, v);
      if (ru !== rv) parent[ru] = rv;
    }
  }
  const chi = new Map<number, number>(), cut = new Set<number>();
  for (let v = 0; v < nw; v++) if (used[v]) { const r = find(parent, v); chi.set(r, (chi.get(r) ?? 0) + 1); }
  for (const [e, n] of edges) {
    const r = find(parent, Math.floor(e / nw));
    chi.set(r, (chi.get(r) ?? 0) - 1);
    if (n !== 2) cut.add(r);
  }
  for (const a of faces) { const r = find(parent, a); chi.set(r, (chi.get(r) ?? 0) + 1); }
  let holes = 0;
  for (const [r, x] of chi) if (cut.has(r) && x < 0) holes += -x / 2;
  return holes;
}
