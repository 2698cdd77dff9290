/**
 * Size estimates made from the scene alone, before anything is allocated: used to refuse scenes
 * over the caps and by `viscid info`.
 */
import type { Scene } from './scene.ts';
import { compileShape } from './shapes.ts';
import { gridBox, type GridBox } from './grid-box.ts';

export interface SceneEstimate {
  /** Liquid particles from bodies (lattice spacing 2r) and sources over their emitting time. */
  liquidParticles: number;
  /** Object particles on solid surfaces (spacing 2 × object radius). */
  objectParticles: number;
  particles: number;
  /** Liquid volume at t = 0 plus what sources emit, m³. */
  liquidVolume: number;
  /** Bounds the grid engine works in: the domain, or one derived from the bodies, sources and planes (grid-box.ts). */
  gridBounds: GridBox;
  /** Cells of the grid engine's box (an upper bound: the hashed grid stores liquid cells only). */
  cells: number;
  /** Bytes of the particle engine's state (PARTICLE_BYTES a particle) and of the grid at full occupancy. */
  particleBytes: number;
  gridBytes: number;
  /**
   * Cells of the lattice the surface of the liquid's volume is meshed on (at least: liquid that
   * spreads thin needs more), per engine: spacing output.resolution × r, or × cellSize / 2.
   */
  surfaceCells: { particle: number; grid: number };
}

/**
 * Bytes the particle engine holds per particle (liquid and object), one thread: Metrics.memoryBytes
 * on the Table 1 scenes measured 389–545 (the honey drop 389 at frame 4, 390 at frame 22 and at
 * most 398 over its run, the paint drops 540–545; BENCHMARKS.md "Bytes a point, eighth pass": the
 * pair list, the solve rows, the stage scratch, the liquid's and the objects' arrays). Two threads
 * hold more (the honey drop 506 at frame 4: a team's full solve rows and their slopes, the
 * viscosity's cross rows, the row listings' counts).
 */
export const PARTICLE_BYTES = 550;
export const CELL_BYTES = 120;

export function estimateScene(scene: Scene): SceneEstimate {
  const r = scene.particle.radius;
  const ro = r * scene.particle.objectRadius;
  let liquidVolume = 0;
  let objectArea = 0;
  for (const body of scene.bodies) {
    const material = scene.materials[body.material];
    const shape = compileShape(body.shape, scene.assets.meshes);
    if (material.kind === 'liquid') liquidVolume += shape.volume;
    else objectArea += shape.area;
  }
  for (const s of scene.sources) {
    const end = s.end ?? scene.duration;
    const area = s.shape === 'disk' ? Math.PI * s.radius * s.radius : s.size[0] * s.size[1];
    liquidVolume += area * s.speed * Math.max(0, Math.min(end, scene.duration) - s.start);
  }
  const liquidParticles = liquidVolume / (2 * r) ** 3;
  const objectParticles = objectArea / (2 * ro) ** 2;
  const gridBounds = gridBox(scene);
  const h = scene.grid.cellSize;
  const cells =
    Math.ceil((gridBounds.max[0] - gridBounds.min[0]) / h) *
    Math.ceil((gridBounds.max[1] - gridBounds.min[1]) / h) *
    Math.ceil((gridBounds.max[2] - gridBounds.min[2]) / h);
  const particles = liquidParticles + objectParticles;
  return {
    liquidParticles,
    objectParticles,
    particles,
    liquidVolume,
    gridBounds,
    cells,
    particleBytes: particles * PARTICLE_BYTES,
    gridBytes: cells * CELL_BYTES,
    surfaceCells: {
      particle: liquidVolume / (scene.output.resolution * r) ** 3,
      grid: liquidVolume / ((scene.output.resolution * h) / 2) ** 3,
    },
  };
}
