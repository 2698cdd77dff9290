/**
 * The disk a run will take, stated by `viscid info` and at the start of `viscid run`: mesh and
 * point files a frame, from the scene alone.
 *
 * A surface polygonized on a lattice of spacing h has about 3 A / h² triangles for an area A
 * (honey drop, frame 1: 26 000 triangles on the 0.0192 m² sphere at h = 1.5 mm, 3.05). The first
 * frames mesh the liquid bodies' own area; as the liquid spreads its area grows, at most to a film
 * as thin as the engine resolves on both faces: 2 V / t with t = 4 particle radii (two particles)
 * or 2 grid cells (within a domain, at most its walls lined on both faces). The honey drop grows 3.7-fold, to 97 000 triangles, against 113 000 from that
 * bound, so the total stated is an upper estimate.
 */
import { estimateScene, type EngineName, type Scene } from '../index.ts';
import { compileShape } from '../scene/shapes.ts';
import { meshFileBytes, pointsFileBytes } from '../io/sizes.ts';
import { fmtBytes } from './format.ts';
import { estimateSolids } from './solids-cost.ts';
import type { MeshFormat, PointsFormat } from './manifest.ts';

/** Triangles a unit of area A / h² gives (measured, see above). */
const TRIANGLES_PER_CELL_AREA = 3.05;

export interface DiskEstimate {
  /** Bytes a frame while the liquid keeps its starting shape, and once it has spread into a film. */
  frameBytes: { first: number; most: number };
  frames: number;
  /** frames × frameBytes.most. */
  totalBytes: number;
}

export interface DiskSettings {
  engines: EngineName[];
  frames: number;
  mesh: MeshFormat;
  points: PointsFormat;
  /** `--solids`: the solids' meshes each frame (solids-cost.ts). */
  solids?: MeshFormat;
}

function surfaceTriangles(scene: Scene, engine: EngineName): { first: number; most: number } {
  const est = estimateScene(scene);
  let area = 0;
  for (const body of scene.bodies) {
    if (scene.materials[body.material].kind === 'liquid') area += compileShape(body.shape, scene.assets.meshes).area;
  }
  const h = engine === 'particle' ? scene.output.resolution * scene.particle.radius : (scene.output.resolution * scene.grid.cellSize) / 2;
  const film = engine === 'particle' ? 4 * scene.particle.radius : 2 * scene.grid.cellSize;
  const per = TRIANGLES_PER_CELL_AREA / (h * h);
  let spread = (2 * est.liquidVolume) / film;
  if (scene.domain) {
    // Within a box the film can at most line its walls, meshed on both faces.
    const [x, y, z] = [0, 1, 2].map((k) => scene.domain!.max[k] - scene.domain!.min[k]);
    spread = Math.min(spread, 4 * (x * y + y * z + z * x));
  }
  return { first: area * per, most: Math.max(area, spread) * per };
}

function pointCount(scene: Scene, engine: EngineName): number {
  const est = estimateScene(scene);
  return engine === 'particle' ? est.liquidParticles : (est.liquidVolume / scene.grid.cellSize ** 3) * scene.grid.markersPerCell;
}

export function estimateDisk(scene: Scene, s: DiskSettings): DiskEstimate {
  let first = 0, most = 0;
  for (const engine of s.engines) {
    if (s.mesh !== 'none') {
      const t = surfaceTriangles(scene, engine);
      first += meshFileBytes(s.mesh, t.first, scene.output.colors);
      most += meshFileBytes(s.mesh, t.most, scene.output.colors);
    }
    if (s.points !== 'none') {
      const p = pointsFileBytes(s.points, pointCount(scene, engine));
      first += p;
      most += p;
    }
    if (s.solids && s.solids !== 'none') {
      const solids = estimateSolids(scene);
      const b = solids.bodies > 0 ? meshFileBytes(s.solids, solids.triangles, true) : 0;
      first += b;
      most += b;
    }
  }
  return { frameBytes: { first, most }, frames: s.frames, totalBytes: most * s.frames };
}

/** "~0.7–2.9 MB a frame (ply meshes), at most ~175 MB for 60 frames". */
export function diskText(e: DiskEstimate, what: string): string {
  if (e.frameBytes.most <= 0) return `no frame files (${what})`;
  const a = fmtBytes(e.frameBytes.first), b = fmtBytes(e.frameBytes.most);
  return `${a === b ? `~${a}` : `~${a}–${b}`} a frame (${what}), at most ~${fmtBytes(e.totalBytes)} for ${e.frames} frames`;
}
