/**
 * The grid engine's work while a tipping container pours its liquid onto the floor, for `viscid
 * info`'s cost (cost.ts predictFrameCost). Until it pours, the liquid is a compact body held in the
 * container (gridCells, openShare); once it pours (cup-pour: from 1.2–1.4 s of its 4 s), the grid
 * steps at the poured thread's speed where it lands and stores three things that cost by their
 * area, not their volume:
 *   - the coat the liquid leaves on the container's cavity (its inner wall and bottom), a film a
 *     cell thick, with its buffer layers and the solid's cell under it: 1.5 A / h² cells a layer
 *     (drapedFilmCells' count for a surface of any orientation);
 *   - the puddle the poured liquid spreads into on the floor, a viscous gravity current of its
 *     volume V (Huppert 1982, "The propagation of two-dimensional and axisymmetric viscous gravity
 *     currents over a rigid horizontal surface", J. Fluid Mech. 121, 43–58: axisymmetric, constant
 *     volume, r = 0.894 (g V³ t / 3ν)^⅛), at the middle of the pour's time: π r² / h² cells a
 *     layer, its depth in cells, the buffer layers over it and the floor's cell under it;
 *   - the thread from the rim to the floor, stored with its buffer around it as a spout's stream.
 * The pour itself (when it starts, the thread's fall, speed and radius) is pour-resolution.ts's
 * model of the draining film (Jeffreys 1930) and the viscous thread (Clarke 1966).
 * bench/run-cpu.ts measured cup-pour on the grid (5 mm cells, its whole run): upright (frames
 * 2–35) 4 steps a frame and 3 312 cells stored; pouring (frames 42–120) 10 steps a frame and
 * 12 607 cells (7 200 at frame 40, 14 170 at the end), 640 ms a frame against 75.
 */
import { estimateScene, type Scene } from '../index.ts';
import { initialKinematicViscosity } from '../scene/stream-resolution.ts';
import { pourResolutions } from '../scene/pour-resolution.ts';

export interface PourPhase {
  /** The share of the run the container pours for (from its first sample to the scene's end). */
  share: number;
  /** The thread's speed where it lands, m/s (the mean over the pour). */
  speed: number;
  /** Cells the grid stores while it pours: the coat, the puddle and the thread. */
  cells: number;
  coatCells: number;
  puddleCells: number;
  threadCells: number;
}

/** Huppert's constant for an axisymmetric current of constant volume. */
const HUPPERT_AXISYMMETRIC = 0.894;

/** The pour phase of the scene's first tipping container, or null where none pours before the end. */
export function pourPhase(scene: Scene): PourPhase | null {
  let pours;
  try {
    pours = pourResolutions(scene);
  } catch {
    return null; // an unreadable shape is refused elsewhere
  }
  const pour = pours[0];
  if (!pour || pour.samples.length === 0 || !(scene.duration > 0)) return null;
  const body = scene.bodies[pour.body], shape = body.shape;
  if (shape.type !== 'cylinder') return null;
  const s = pour.samples, t0 = s[0].time, span = Math.max(0, scene.duration - t0);
  const mid = s[Math.floor(s.length / 2)];
  const h = scene.grid.cellSize, layers = scene.grid.bufferCells, g = Math.hypot(...scene.gravity);
  const nu = initialKinematicViscosity(scene, pour.material);
  // The cavity's inner wall and bottom.
  const a = shape.radius - shape.wall, depth = shape.height - shape.wall;
  const coatCells = ((1.5 * (2 * Math.PI * a * depth + Math.PI * a * a)) / (h * h)) * (2 + layers);
  // What has left the cup by the pour's middle, spread for the time since the pour began.
  const volume = Math.max(0, estimateScene(scene).liquidVolume - mid.held);
  const t = Math.max(1 / scene.fps, mid.time - t0);
  const radius = nu > 0 ? HUPPERT_AXISYMMETRIC * Math.pow((g * volume ** 3 * t) / (3 * nu), 1 / 8) : 0;
  const area = Math.PI * radius * radius;
  const puddleCells = area > 0 ? (area / (h * h)) * (volume / area / h + 1 + layers) : 0;
  let rope = 0, speed = 0, fall = 0;
  for (const p of s) {
    rope += p.ropeRadius / s.length;
    speed += p.speed / s.length;
    fall += p.fall / s.length;
  }
  const threadCells = (Math.PI * (rope + 2 * layers * h) ** 2 * fall) / h ** 3;
  return { share: span / scene.duration, speed, cells: coatCells + puddleCells + threadCells, coatCells, puddleCells, threadCells };
}
