/**
 * Holes in a thin coat or sheet of the particle engine's mesh, and whose they are: the liquid's
 * (no particles there) or the surface's (particles there, the field drops them). For each frame of
 * a run written with `--points ply`, the liquid's particles are meshed again here with the scene's
 * output settings, once per variant (V, JSON [[name, SurfaceOptions]]), and read:
 *
 * - topology: shells and handles (Σ over shells of the genus (2 − χ) / 2) of the whole mesh;
 * - dropped: particles whose own centre lies outside the mesh (ray parity along +x), and of those
 *   the thin ones (fewer than 12 others within 4 r; a full neighbourhood at the rest spacing has
 *   about 33, one layer about 13); DUMP=prefix writes them (x, y, z, count) to JSON;
 * - rays through the sheet (`--rays floor|rod|plane`): a lattice of rays, spacing r, through the
 *   sheet (floor: straight down in y over the floor's sheet, particles below --below m; rod: out
 *   from the scene's first cylinder's axis; plane: along the normal of the particles' best plane,
 *   those within --box). A ray is "inside the sheet" when particles within 4 r of it lie in at
 *   least 3 of its 4 quadrants (the sheet is on all sides: a hole, not the sheet's edge). An open
 *   ray inside the sheet meets no triangle; its gap is the distance from the ray to the nearest
 *   particle. Open rays joined across neighbours make a hole; a hole whose largest gap is under
 *   1.5 r has particles over all of it (the surface's), one with a gap of 2.5 r or more has a place
 *   where a particle at the rest spacing 2 r is missing (the liquid's).
 *
 *   npx tsx bench/coat-holes.ts <run dir> <scene> --frames 80,90 --rays rod [--write]
 *   (--write: each variant's mesh into <run dir>-<variant>/particle for `viscid preview`)
 *   V='[["base",{}],["x",{"anisotropy":{"roundFrom":0,"roundAt":0}}]]' npx tsx bench/coat-holes.ts …
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { toPLY } from '../src/io/ply.ts';
import { join } from 'node:path';
import { checkMesh, particleSurface } from '../src/index.ts';
import type { Mesh } from '../src/types/geometry.ts';
import type { SurfaceOptions } from '../src/surface/particle-surface.ts';
import { loadScene } from '../src/cli/load-scene.ts';
import { HashGrid } from '../src/spatial/hash-grid.ts';

const argv = process.argv.slice(2);
const [dir, scenePath] = argv;
const opt = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const frames = (opt('--frames') ?? '1').split(',').map(Number);
const rays = opt('--rays') ?? 'none';
const below = Number(opt('--below') ?? 0.03);
const box = opt('--box') ? opt('--box')!.split(',').map(Number) : null;
const variants: [string, SurfaceOptions][] = process.env.V ? JSON.parse(process.env.V) : [['this tree', {}]];
const { scene } = loadScene(scenePath);
const r = scene.particle.radius;

export function readPointsPLY(file: string): Float64Array {
  const bytes = readFileSync(file);
  const end = bytes.indexOf('end_header\n');
  const header = bytes.subarray(0, end).toString('latin1').split('\n');
  let n = 0, stride = 0, ox = -1;
  const sizes: Record<string, number> = { float: 4, double: 8, ushort: 2, uchar: 1, int: 4, uint: 4, short: 2 };
  for (const line of header) {
    const w = line.trim().split(/\s+/);
    if (w[0] === 'element' && w[1] === 'vertex') n = Number(w[2]);
    if (w[0] === 'property') {
      if (w[2] === 'x') ox = stride;
      stride += sizes[w[1]];
    }
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset + end + 11);
  const out = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) out[3 * i + a] = view.getFloat32(i * stride + ox + 4 * a, true);
  return out;
}

function topology(mesh: Mesh): { shells: number; handles: number; volume: number } {
  const rep = checkMesh(mesh);
  const nv = mesh.positions.length / 3, nt = mesh.indices.length / 3;
  const used = new Uint8Array(nv);
  for (const i of mesh.indices) used[i] = 1;
  let V = 0;
  for (let v = 0; v < nv; v++) V += used[v];
  const keys = new Float64Array(3 * nt);
  for (let t = 0; t < nt; t++) {
    for (let e = 0; e < 3; e++) {
      const a = mesh.indices[3 * t + e], b = mesh.indices[3 * t + ((e + 1) % 3)];
      keys[3 * t + e] = Math.min(a, b) * nv + Math.max(a, b);
    }
  }
  keys.sort();
  let E = 0;
  for (let s = 0; s < keys.length; s++) if (s === 0 || keys[s] !== keys[s - 1]) E++;
  return { shells: rep.shells, handles: rep.shells - (V - E + nt) / 2, volume: rep.volume };
}

/** Ray–mesh queries on triangles binned by their bounding box in a frame (u, v) perpendicular to the rays. */
class RayCaster {
  bins = new Map<number, number[]>();
  constructor(private P: Float32Array, private I: Uint32Array, private project: (x: number, y: number, z: number) => [number, number], private cell: number) {
    for (let t = 0; t < I.length / 3; t++) {
      let u0 = Infinity, u1 = -Infinity, v0 = Infinity, v1 = -Infinity;
      for (let k = 0; k < 3; k++) {
        const o = 3 * I[3 * t + k];
        const [u, v] = project(P[o], P[o + 1], P[o + 2]);
        u0 = Math.min(u0, u); u1 = Math.max(u1, u); v0 = Math.min(v0, v); v1 = Math.max(v1, v);
      }
      if (u1 - u0 > 50 * cell) continue; // wraps round the rod's seam: left to its neighbours
      for (let i = Math.floor(u0 / cell); i <= Math.floor(u1 / cell); i++) {
        for (let j = Math.floor(v0 / cell); j <= Math.floor(v1 / cell); j++) {
          const key = i * 100003 + j;
          let list = this.bins.get(key);
          if (!list) this.bins.set(key, (list = []));
          list.push(t);
        }
      }
    }
  }
  /** Parameters s of the crossings of o + s d (s > 0) with the mesh; (u, v) the ray's bin. */
  crossings(o: number[], d: number[], u: number, v: number): number[] {
    const list = this.bins.get(Math.floor(u / this.cell) * 100003 + Math.floor(v / this.cell)) ?? [];
    const out: number[] = [];
    const P = this.P, I = this.I;
    for (const t of list) {
      const a = 3 * I[3 * t], b = 3 * I[3 * t + 1], c = 3 * I[3 * t + 2];
      const e1 = [P[b] - P[a], P[b + 1] - P[a + 1], P[b + 2] - P[a + 2]], e2 = [P[c] - P[a], P[c + 1] - P[a + 1], P[c + 2] - P[a + 2]];
      const p = [d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]];
      const det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
      if (Math.abs(det) < 1e-18) continue;
      const tv = [o[0] - P[a], o[1] - P[a + 1], o[2] - P[a + 2]];
      const bu = (tv[0] * p[0] + tv[1] * p[1] + tv[2] * p[2]) / det;
      if (bu < 0 || bu > 1) continue;
      const q = [tv[1] * e1[2] - tv[2] * e1[1], tv[2] * e1[0] - tv[0] * e1[2], tv[0] * e1[1] - tv[1] * e1[0]];
      const bv = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
      if (bv < 0 || bu + bv > 1) continue;
      const s = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
      if (s > 0) out.push(s);
    }
    return out;
  }
}

const sceneBody = (scene as unknown as { bodies: { shape: { type: string; center: number[]; radius: number; height: number; axis: number[] } }[] }).bodies;

for (const frame of frames) {
  const pad = String(frame).padStart(4, '0');
  const positions = readPointsPLY(join(dir, 'particle', `points-${pad}.ply`));
  const count = positions.length / 3;
  // Thin neighbourhoods: particles with fewer than `thin` others within 4 r.
  const grid = new HashGrid(4 * r);
  grid.build(positions, count);
  const cells = new Int32Array(27);
  const near = new Int32Array(count);
  for (let c = 0; c < grid.cellCount; c++) {
    const k = grid.neighborCells(c, cells, 1);
    for (let s0 = grid.start[c]; s0 < grid.start[c] + grid.count[c]; s0++) {
      const i = grid.order[s0];
      for (let q = 0; q < k; q++) {
        for (let s = grid.start[cells[q]]; s < grid.start[cells[q]] + grid.count[cells[q]]; s++) {
          const j = grid.order[s];
          const dx = positions[3 * j] - positions[3 * i], dy = positions[3 * j + 1] - positions[3 * i + 1], dz = positions[3 * j + 2] - positions[3 * i + 2];
          if (j !== i && dx * dx + dy * dy + dz * dz < 16 * r * r) near[i]++;
        }
      }
    }
  }
  // The rays' frame: (u, v) across, w along; `origin(u, v)` and `dir(u, v)`.
  let project: (x: number, y: number, z: number) => [number, number, number] = () => [0, 0, 0];
  let ray: (u: number, v: number) => [number[], number[]] = () => [[0, 0, 0], [0, 1, 0]];
  let select = (_x: number, _y: number, _z: number) => true;
  if (rays === 'floor') {
    project = (x, y, z) => [x, z, y];
    ray = (u, v) => [[u, 1, v], [0, -1, 0]];
    select = (_x, y) => y < below;
  } else if (rays === 'rod') {
    const rod = sceneBody.find((b) => b.shape.type === 'cylinder')!.shape;
    const [cx, cy] = rod.center, R = rod.radius;
    // Axis z (honey-on-spinner's rod); u = arc length on the rod's surface, v = z.
    project = (x, y, z) => [R * (Math.atan2(y - cy, x - cx) + Math.PI), z, Math.hypot(x - cx, y - cy)];
    ray = (u, v) => {
      const th = u / R - Math.PI;
      return [[cx, cy, v], [Math.cos(th), Math.sin(th), 0]];
    };
    select = (x, y, z) => Math.hypot(x - cx, y - cy) < R + 8 * r && Math.abs(z - rod.center[2]) < rod.height / 2;
  } else if (rays === 'plane') {
    // Best plane of the particles within the box (x0,y0,z0,x1,y1,z1): centroid and covariance.
    const b = box!;
    const inBox = (x: number, y: number, z: number) => x >= b[0] && y >= b[1] && z >= b[2] && x <= b[3] && y <= b[4] && z <= b[5];
    let n = 0;
    const m = [0, 0, 0], C = new Float64Array(6);
    for (let i = 0; i < count; i++) {
      const x = positions[3 * i], y = positions[3 * i + 1], z = positions[3 * i + 2];
      if (!inBox(x, y, z)) continue;
      n++; m[0] += x; m[1] += y; m[2] += z;
    }
    for (let a = 0; a < 3; a++) m[a] /= n;
    for (let i = 0; i < count; i++) {
      const x = positions[3 * i] - m[0], y = positions[3 * i + 1] - m[1], z = positions[3 * i + 2] - m[2];
      if (!inBox(x + m[0], y + m[1], z + m[2])) continue;
      C[0] += x * x; C[1] += y * y; C[2] += z * z; C[3] += x * y; C[4] += x * z; C[5] += y * z;
    }
    const { eigenSystemOf } = await import('../src/surface/anisotropic.ts');
    const vals = new Float64Array(3), vecs = new Float64Array(9);
    eigenSystemOf(C, vals, vecs);
    const e0 = [vecs[0], vecs[1], vecs[2]], e1 = [vecs[3], vecs[4], vecs[5]], nn = [vecs[6], vecs[7], vecs[8]];
    const dot = (p: number[], q: number[]) => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
    project = (x, y, z) => {
      const p = [x - m[0], y - m[1], z - m[2]];
      return [dot(p, e0), dot(p, e1), dot(p, nn)];
    };
    ray = (u, v) => [[m[0] + u * e0[0] + v * e1[0] - 0.2 * nn[0], m[1] + u * e0[1] + v * e1[1] - 0.2 * nn[1], m[2] + u * e0[2] + v * e1[2] - 0.2 * nn[2]], nn];
    select = inBox;
    console.log(`  plane: centre ${m.map((x) => x.toFixed(3))}, normal ${nn.map((x) => x.toFixed(2))}, spread ${vals[0].toExponential(2)} ${vals[1].toExponential(2)} ${vals[2].toExponential(2)}`);
  }
  // The sheet's particles projected; a 2D hash of them, cell 4 r.
  const su: number[] = [], sv: number[] = [];
  for (let i = 0; i < count; i++) {
    const x = positions[3 * i], y = positions[3 * i + 1], z = positions[3 * i + 2];
    if (!select(x, y, z)) continue;
    const [u, v] = project(x, y, z);
    su.push(u); sv.push(v);
  }
  const C4 = 4 * r, hash = new Map<number, number[]>();
  for (let k = 0; k < su.length; k++) {
    const key = Math.floor(su[k] / C4) * 100003 + Math.floor(sv[k] / C4);
    let l = hash.get(key);
    if (!l) hash.set(key, (l = []));
    l.push(k);
  }
  let u0 = Infinity, u1 = -Infinity, v0 = Infinity, v1 = -Infinity;
  for (let k = 0; k < su.length; k++) { u0 = Math.min(u0, su[k]); u1 = Math.max(u1, su[k]); v0 = Math.min(v0, sv[k]); v1 = Math.max(v1, sv[k]); }
  // Per ray on the lattice: inside the sheet (quadrants), gap (distance to the nearest particle).
  const nu = Math.max(0, Math.floor((u1 - u0) / r) + 1), nvv = Math.max(0, Math.floor((v1 - v0) / r) + 1);
  const gap = new Float64Array(nu * nvv).fill(-1);
  for (let a = 0; a < nu; a++) {
    for (let b = 0; b < nvv; b++) {
      const u = u0 + a * r, v = v0 + b * r;
      let quad = 0, best = Infinity;
      for (let i = -1; i <= 1; i++) {
        for (let j = -1; j <= 1; j++) {
          for (const k of hash.get((Math.floor(u / C4) + i) * 100003 + Math.floor(v / C4) + j) ?? []) {
            const du = su[k] - u, dv = sv[k] - v, d = Math.hypot(du, dv);
            if (d < best) best = d;
            if (d < 4 * r) quad |= 1 << ((du >= 0 ? 1 : 0) + (dv >= 0 ? 2 : 0));
          }
        }
      }
      const inside = ((quad & 1) + ((quad >> 1) & 1) + ((quad >> 2) & 1) + ((quad >> 3) & 1)) >= 3;
      if (inside) gap[a * nvv + b] = best;
    }
  }
  for (const [name, options] of variants) {
    const t0 = process.cpuUsage();
    const mesh = particleSurface({ count, positions, radius: r }, scene.output, options);
    const dt = process.cpuUsage(t0);
    const topo = topology(mesh);
    // Dropped particles: +x ray parity from each particle's centre.
    const xr = new RayCaster(mesh.positions, mesh.indices, (_x, y, z) => [y, z], 2 * r);
    let dropped = 0, droppedThin = 0;
    const dump: number[][] = [];
    for (let i = 0; i < count; i++) {
      const o = [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]];
      const n = xr.crossings(o, [1, 0, 0], o[1], o[2]).length;
      if (n % 2 === 0) {
        dropped++;
        if (process.env.DUMP) dump.push([o[0], o[1], o[2], near[i]]);
        if (near[i] < 12) droppedThin++;
      }
    }
    let line = `frame ${frame} ${name}: ${count} particles, shells ${topo.shells}, handles ${topo.handles}, volume ${(topo.volume * 1e6).toFixed(1)} cm³ (particles ${(count * 8 * r ** 3 * 1e6).toFixed(1)}), dropped ${dropped} (thin ${droppedThin}), ${((dt.user + dt.system) / 1000).toFixed(0)} ms CPU`;
    if (rays !== 'none') {
      const caster = new RayCaster(mesh.positions, mesh.indices, (x, y, z) => { const p = project(x, y, z); return [p[0], p[1]]; }, 2 * r);
      const open = new Uint8Array(nu * nvv);
      let inside = 0, opened = 0;
      for (let a = 0; a < nu; a++) {
        for (let b = 0; b < nvv; b++) {
          if (gap[a * nvv + b] < 0) continue;
          inside++;
          const u = u0 + a * r, v = v0 + b * r;
          const [o, d] = ray(u, v);
          if (caster.crossings(o, d, u, v).length === 0) { open[a * nvv + b] = 1; opened++; }
        }
      }
      // Holes: open rays joined across lattice neighbours.
      const seen = new Uint8Array(nu * nvv);
      const holes: { rays: number; gap: number }[] = [];
      for (let s = 0; s < open.length; s++) {
        if (!open[s] || seen[s]) continue;
        const stack = [s];
        seen[s] = 1;
        let n = 0, g = 0;
        while (stack.length) {
          const c = stack.pop()!;
          n++;
          g = Math.max(g, gap[c]);
          const a = Math.floor(c / nvv), b = c % nvv;
          for (const [da, db] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
            const aa = a + da, bb = b + db;
            if (aa < 0 || bb < 0 || aa >= nu || bb >= nvv) continue;
            const q = aa * nvv + bb;
            if (open[q] && !seen[q]) { seen[q] = 1; stack.push(q); }
          }
        }
        holes.push({ rays: n, gap: g / r });
      }
      const surf = holes.filter((h) => h.gap < 1.5).length, liquid = holes.filter((h) => h.gap >= 2.5).length;
      line += `\n    rays inside the sheet ${inside}, open ${opened} (${((100 * opened) / Math.max(1, inside)).toFixed(2)} %); holes ${holes.length}: largest gap < 1.5 r ${surf}, 1.5–2.5 r ${holes.length - surf - liquid}, ≥ 2.5 r ${liquid}; gaps (r) ${holes.map((h) => `${h.gap.toFixed(1)}/${h.rays}`).join(' ')}`;
    }
    console.log(line);
    if (process.env.DUMP) writeFileSync(`${process.env.DUMP}-${frame}-${name}.json`, JSON.stringify(dump));
    // --write: the variant's mesh into a copy of the run folder, <run dir>-<variant>, for `viscid preview`.
    if (argv.includes('--write')) {
      const out = `${dir}-${name}`;
      mkdirSync(join(out, 'particle'), { recursive: true });
      copyFileSync(join(dir, 'manifest.json'), join(out, 'manifest.json'));
      const solids = join(dir, 'particle', `solids-${pad}.ply`);
      if (existsSync(solids)) copyFileSync(solids, join(out, 'particle', `solids-${pad}.ply`));
      writeFileSync(join(out, 'particle', `mesh-${pad}.ply`), toPLY(mesh));
    }
  }
}
