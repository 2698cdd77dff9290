/**
 * A close look at a particle run's mesh: the frames' meshes (and solids, when the run wrote them)
 * drawn by viscid preview's rasterizer with the camera framed on a box of the scene, not on the
 * whole run. With --remesh SCENE each frame's particles (points-NNNN.vtk) are meshed again here
 * once per variant (V, JSON [[name, SurfaceOptions]]), a row each, so kernels can be compared on
 * the same particles; with --points the particles are drawn as splats instead.
 *
 *   npx tsx bench/close-view.ts <run dir> --frames 21,24 --box -0.06,-0.08,-0.06,0.06,0.0,0.06 \
 *     [--view 0.3,-0.35,1] [--size 600x450] [--remesh scenes/honey-drop.json] [--points] --out X.png
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromPLY } from '../src/io/ply-read.ts';
import { particleSurface } from '../src/index.ts';
import type { Mesh } from '../src/types/geometry.ts';
import type { SurfaceOptions } from '../src/surface/particle-surface.ts';
import { loadScene } from '../src/cli/load-scene.ts';
import { frameBox, type Vec3 } from '../src/preview/camera.ts';
import { TileRenderer } from '../src/preview/tile.ts';
import { contactSheet, type SheetTile } from '../src/preview/sheet.ts';
import { encodePNG } from '../src/preview/png.ts';
import { pointSplats, vtkPoints } from '../src/preview/points.ts';

const argv = process.argv.slice(2);
const dir = argv[0];
const opt = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const frames = (opt('--frames') ?? '21').split(',').map(Number);
const b = (opt('--box') ?? '-0.07,-0.09,-0.07,0.07,0.05,0.07').split(',').map(Number);
const view = (opt('--view') ?? '0.3,-0.35,1').split(',').map(Number) as Vec3;
const [w, h] = (opt('--size') ?? '600x450').split('x').map(Number);
const remesh = opt('--remesh');
const variants: [string, SurfaceOptions][] = remesh ? (process.env.V ? JSON.parse(process.env.V) : [['this tree', {}]]) : [['written', {}]];
const scene = remesh ? loadScene(remesh).scene : null;

const renderer = new TileRenderer(frameBox({ min: [b[0], b[1], b[2]], max: [b[3], b[4], b[5]] }, view, w, h, 0.95), 2);
const tiles: SheetTile[] = [];
const pad = (f: number) => String(f).padStart(4, '0');
for (const [name, options] of variants) {
  for (const f of frames) {
    let solids: Mesh | undefined;
    try {
      solids = fromPLY(new Uint8Array(readFileSync(join(dir, 'particle', `solids-${pad(f)}.ply`))));
    } catch {
      solids = undefined;
    }
    let liquid: Mesh;
    if (argv.includes('--points')) {
      const pts = vtkPoints(readFileSync(join(dir, 'particle', `points-${pad(f)}.vtk`), 'utf8'));
      liquid = pointSplats(pts, 0.0015, [0.8, 0.4, 0.05]);
    } else if (scene) {
      const pts = vtkPoints(readFileSync(join(dir, 'particle', `points-${pad(f)}.vtk`), 'utf8'));
      const colors = new Float32Array(pts.length);
      for (let i = 0; i < colors.length; i += 3) colors.set([0.7, 0.33, 0.012], i);
      liquid = particleSurface({ count: pts.length / 3, positions: pts, radius: scene.particle.radius, colors }, scene.output, options);
    } else liquid = fromPLY(new Uint8Array(readFileSync(join(dir, 'particle', `mesh-${pad(f)}.ply`))));
    tiles.push({ image: renderer.render({ liquid, solids }).image, label: `${name}  frame ${f}` });
  }
}
writeFileSync(opt('--out') ?? 'close-view.png', encodePNG(contactSheet(tiles, frames.length, `${dir}  view ${view.join(',')}`)));
