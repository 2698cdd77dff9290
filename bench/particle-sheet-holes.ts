/**
 * Holes in the particle engine's mesh of a run (`viscid run SCENE -e particle -o DIR --mesh ply
 * --points vtk`): per frame, the written mesh's shells, boundary and non-manifold edges and its
 * handles (Σ over closed shells of the genus (2 − χ) / 2, χ = V − E + F): a slit through a sheet
 * draped over a body joins the sheet's outer and inner faces, so each slit beyond the first adds a
 * handle; and the open share: rays from the origin (the honey drop's ball centre) within --polar
 * degrees of −y (default 180: all) that meet no triangle, where the ball shows through. With --remesh the frame's particles (points-NNNN.vtk, the liquid's) are meshed again
 * here with the scene's output settings, once per variant (V, JSON [[name, SurfaceOptions]]), so
 * the kernel's constants can be compared on the same particles.
 *
 *   npx tsx bench/particle-sheet-holes.ts <run dir> [--frames 18,21,24] [--remesh scenes/honey-drop.json]
 *   V='[["base",{}],["iso",{"kernel":"isotropic"}]]' npx tsx bench/particle-sheet-holes.ts DIR --remesh SCENE
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromPLY } from '../src/io/ply-read.ts';
import { checkMesh, particleSurface } from '../src/index.ts';
import type { Mesh } from '../src/types/geometry.ts';
import type { SurfaceOptions } from '../src/surface/particle-surface.ts';
import { loadScene } from '../src/cli/load-scene.ts';
import { openShare } from '../tests/surface/sheet.ts';

const argv = process.argv.slice(2);
const dir = argv[0];
if (!dir) throw new Error('usage: particle-sheet-holes <run dir> [--frames a,b] [--remesh scene.json]');
const opt = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const wanted = opt('--frames') ? new Set(opt('--frames')!.split(',').map(Number)) : null;
const remesh = opt('--remesh');
// The open share is read over rays from the origin (the honey drop's ball centre) within this angle of −y.
const polar = (Number(opt('--polar') ?? 180) * Math.PI) / 180;
const variants: [string, SurfaceOptions][] = process.env.V ? JSON.parse(process.env.V) : [['this tree', {}]];

/** Welds vertices at the same place (to 1 µm: the tiles' borders are welded already; this is a check). */
function handles(mesh: Mesh): { handles: number; shells: number; boundary: number; nonManifold: number; volume: number; open: number } {
  const rep = checkMesh(mesh);
  const nv = mesh.positions.length / 3, nt = mesh.indices.length / 3;
  const used = new Uint8Array(nv);
  for (const i of mesh.indices) used[i] = 1;
  let V = 0;
  for (let v = 0; v < nv; v++) V += used[v];
  // E = 3F / 2 for a closed mesh; count edges to be exact otherwise.
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
  const chi = V - E + nt;
  return { handles: rep.shells - chi / 2, shells: rep.shells, boundary: rep.boundaryEdges, nonManifold: rep.nonManifoldEdges, volume: rep.volume, open: openShare(mesh, 8000, polar) };
}

function readPoints(file: string): Float64Array {
  const text = readFileSync(file, 'utf8');
  const m = /POINTS (\d+) \w+\n/.exec(text);
  if (!m) throw new Error(`${file}: no POINTS`);
  const n = Number(m[1]);
  const nums = text.slice(m.index + m[0].length).split(/\s+/, 3 * n + 1).filter((s) => s !== '');
  const out = new Float64Array(3 * n);
  for (let i = 0; i < 3 * n; i++) out[i] = Number(nums[i]);
  return out;
}

const engineDir = join(dir, 'particle');
const files = readdirSync(engineDir).filter((f) => /^mesh-\d+\.ply$/.test(f)).sort();
const scene = remesh ? loadScene(remesh).scene : null;
const line = (h: ReturnType<typeof handles>) =>
  `shells ${h.shells}, handles ${h.handles}, boundary edges ${h.boundary}, non-manifold ${h.nonManifold}, volume ${(h.volume * 1e6).toFixed(1)} cm³, open ${(100 * h.open).toFixed(2)} %`;
for (const f of files) {
  const frame = Number(/\d+/.exec(f)![0]);
  if (wanted && !wanted.has(frame)) continue;
  const written = handles(fromPLY(new Uint8Array(readFileSync(join(engineDir, f)))));
  console.log(`frame ${frame}: written mesh: ${line(written)}`);
  if (!scene) continue;
  const positions = readPoints(join(engineDir, f.replace('mesh-', 'points-').replace('.ply', '.vtk')));
  const count = positions.length / 3;
  const r = scene.particle.radius;
  for (const [name, options] of variants) {
    const t0 = process.cpuUsage();
    const mesh = particleSurface({ count, positions, radius: r }, scene.output, options);
    const dt = process.cpuUsage(t0);
    console.log(`  ${name}: ${line(handles(mesh))}, particles ${((count * 8 * r ** 3) * 1e6).toFixed(1)} cm³, ${((dt.user + dt.system) / 1000).toFixed(0)} ms CPU`);
  }
}
