/**
 * A pool whose fitted lattice gives way (start-packing.ts latticeGivesWay) settled before frame 0,
 * in a run the scene's clock does not see (issue 26, "Rest at any size").
 *
 * With the walls' mirror images (density-walls.ts) only an orthorhombic lattice whose rows next to
 * each wall sit half a spacing from it continues across the walls, and for a pool a few cells wide
 * between whole numbers of cells (5 cm at 4 mm: 6.25) none of the lattices that fit shears without
 * lowering the density the pressure reads: under its weight the liquid leaves it for a disordered
 * packing, seconds into the run (the 5 × 20 cm water pool at 1–2.8 s, a frame of 0.017 √(g h)).
 * So that search is done first, out of sight: the body's particles, fitted as before, are displaced
 * by up to a tenth of a spacing on each axis (a fixed sequence, so every run of a scene starts the
 * same), which lets the lattice go at once instead of at the unstable shear's slow growth, and the
 * body in the scene's domain (its materials, adhesion, particle settings and gravity; the solids
 * present from the start, held where they stand at time 0; no other liquid body, source or sink)
 * is run on one thread at SETTLE_FPS, every velocity zeroed each SETTLE_ZERO frames (a damped
 * settling: kinetic energy taken out while the weight and the pressure find their balance).
 * After SETTLE_FRAMES the packing's level is measured and the count set to the depth asked
 * (pool-level.ts: the disordered packing is held at a lower number density than the lattice's, so
 * the particles of the slab over the depth asked are taken off the top, and the solids' volume
 * with them), then up to TRIM_FRAMES more, ending early at a zeroing frame whose RMS speed is under
 * SETTLE_STILL √(g h); a second trim where the level is still more than LEVEL_TOLERANCE off; then up
 * to REST_FRAMES more, so that the packing hands its first frames on still. A pool whose lattice
 * holds but whose whole rows stand more than LATTICE_LEVEL off the depth asked is settled too: the
 * cubic lattice set to the depth first (pool-rows.ts) and not displaced, a fitted one displaced. Its
 * positions are the body's start; its velocity starts as the scene gives it.
 * Measured: docs/decisions.md, "A start that does not give way", "Settled pools at the depth asked"
 * and "Every pool at the depth asked".
 */
import type { Scene } from '../scene/scene.ts';
import { attachAssets } from '../scene/scene.ts';
import type { SceneData } from '../scene/schema.ts';
import { initialKinematicViscosity } from '../scene/stream-resolution.ts';
import { poolLevel, trimToLevel, type PoolFloorSpec, type PoolLiquid } from './pool-level.ts';

/**
 * Whether a liquid's viscosity holds its start lattice where the lattice would give way: the
 * damping rate of a velocity varying over one spacing, ν / (2r)², at least the rate at which the
 * weight drives it, √(g / 2r) (35 /s at 4 mm). Honey (ν 0.007 m²/s at 4 mm: 110 /s) held the
 * 5 cm pools' lattice for 4 s on main (0.0013 √(g h) over 1–3 s, worst frame 0.0021, 5 × 20 cm),
 * and a settle left it standing 5–9 % higher (the displaced particles pushed apart faster than
 * honey flows back in 0.5 s); water (0.016 /s) is settled.
 */
export function viscosityHoldsLattice(scene: Scene, material: string): boolean {
  const r = scene.particle.radius, g = Math.hypot(...scene.gravity);
  return initialKinematicViscosity(scene, material) / (2 * r) ** 2 >= Math.sqrt(g / (2 * r));
}

/** The settle's frame rate, and every how many frames it zeroes the velocities. */
const SETTLE_FPS = 30, SETTLE_ZERO = 3;
/** The frames before the first trim (the displaced lattice has gone), and the most after each trim. */
export const SETTLE_FRAMES = 6, TRIM_FRAMES = 6;
/** The RMS speed, in √(g h), under which a zeroing frame after a trim ends the settle early. */
export const SETTLE_STILL = 0.003;
/**
 * The most frames after the last trim's, zeroed every SETTLE_ZERO as before and ending early at a
 * still zeroing frame: the packing's own motion dies out over ~0.5 s (the 5 × 5 cm water pool's
 * frames 1–6 read 0.0060 √(g h) without them, 0.0040 after 9 more, 0.0034 after 18).
 */
export const REST_FRAMES = 18;
/** The most trims, and the level's error (a fraction of the depth asked) under which no further trim is made. */
const TRIMS = 2, LEVEL_TOLERANCE = 0.005;
/**
 * The level's error (a fraction of the depth asked) over which a pool whose lattice holds is settled
 * to the depth asked all the same: its whole rows stand off it (a 5 cm pool at 4 mm: 6 cubic rows
 * 48 mm, −4 %; 10 cm wide, 6 rows of 1.08 · 2r, 51.6 mm, +3.2 %).
 */
export const LATTICE_LEVEL = 0.01;
/** The displacement before the settle, at most this fraction of 2r on each axis. */
export const SETTLE_JITTER = 0.1;

/** What the settle needs of a particle simulation (simulation.ts passes its own constructor). */
export interface SettleRun {
  readonly ctx: { readonly liquid: PoolLiquid & { vel: Float64Array } };
  stepFrame(): unknown;
  dispose?(): void;
}

/** How a settle went: frames run before and after the trims, particles taken off (negative: added) at each trim, the level at the end (m above the floor). */
export interface SettleReport {
  frames: number[];
  trimmed: number[];
  level: number;
}

let settling = false;

/**
 * The settled start of liquid body `body` of `scene` from its fitted positions (a new array, its
 * length the settled count), or `positions` itself inside a settle (no settle nests); `displace`:
 * whether they are displaced first (a lattice that gives way), or settled as they stand. `clearance`:
 * how close the walls' clamp lets the liquid come to each face (start-packing.ts narrowClearance),
 * which the displaced particles keep to. `pool`: the floor and the depth asked (pool-level.ts).
 * The settle's report is added to `reports` (the simulation's own: simulation.ts `settles`).
 */
export function settleStart(
  scene: Scene, body: number, positions: Float64Array, clearance: ArrayLike<number>, pool: PoolFloorSpec, make: (scene: Scene) => SettleRun, reports: SettleReport[], displace = true,
): Float64Array {
  if (settling || !scene.domain) return positions;
  const r = scene.particle.radius, d = scene.domain;
  const start = positions.slice();
  let seed = 0x9e3779b9 ^ body;
  const next = (): number => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 4294967296 - 0.5;
  };
  for (let i = 0; i < start.length; i++) {
    const a = i % 3;
    const v = start[i] + (displace ? 2 * SETTLE_JITTER * 2 * r * next() : 0);
    start[i] = Math.min(d.max[a] - clearance[2 * a + 1], Math.max(d.min[a] + clearance[2 * a], v));
  }
  const most = SETTLE_FRAMES + TRIMS * TRIM_FRAMES;
  const data = { ...scene, fps: SETTLE_FPS, duration: most / SETTLE_FPS, bodies: [{ ...scene.bodies[body], start: 0, velocity: [0, 0, 0] }, ...heldSolids(scene)], sources: [], sinks: [] } as SceneData;
  const still = SETTLE_STILL * Math.sqrt(Math.hypot(...scene.gravity) * pool.asked);
  settling = true;
  let run: SettleRun | null = null;
  try {
    run = make(attachAssets(data, scene.assets));
    const L = run.ctx.liquid;
    if (L.count * 3 !== start.length) throw new Error(`settleStart: the settle took ${L.count} particles for ${start.length / 3}`);
    L.pos.set(start);
    const report: SettleReport = { frames: [], trimmed: [], level: 0 };
    report.frames.push(settleFrames(run, SETTLE_FRAMES, SETTLE_FRAMES, still));
    for (let t = 0; t < TRIMS; t++) {
      const level = poolLevel(L.pos, L.count, pool, r);
      if (Math.abs(level - pool.asked) <= LEVEL_TOLERANCE * pool.asked) break;
      report.trimmed.push(trimToLevel(L, pool, r));
      report.frames.push(settleFrames(run, SETTLE_ZERO, TRIM_FRAMES, still));
    }
    report.frames.push(settleFrames(run, SETTLE_ZERO, REST_FRAMES, still));
    report.level = poolLevel(L.pos, L.count, pool, r);
    reports.push(report);
    return L.pos.slice(0, 3 * L.count);
  } finally {
    settling = false;
    run?.dispose?.();
  }
}

/**
 * Runs the settle's frames, every velocity zeroed each SETTLE_ZERO frames (a damped settling:
 * kinetic energy taken out while the weight and the pressure find their balance), until a zeroing
 * frame from the `least`th finds the RMS speed under `still` (m/s), or `most` frames. Returns the frames run.
 */
function settleFrames(run: SettleRun, least: number, most: number, still: number): number {
  const L = run.ctx.liquid;
  for (let f = 1; f <= most; f++) {
    run.stepFrame();
    if (f % SETTLE_ZERO !== 0 && f !== most) continue;
    let sq = 0;
    for (let i = 0; i < 3 * L.count; i++) sq += L.vel[i] * L.vel[i];
    L.vel.fill(0);
    if (f >= least && sq < still * still * L.count) return f;
  }
  return most;
}

/**
 * The scene's solid bodies present from the start, held where they stand at time 0 through the
 * settle: a motion that starts from the rest pose (linear, spin) or a free body becomes static, a
 * keyframed one keeps its first key (held before it: the pose at time 0).
 */
function heldSolids(scene: Scene): SceneData['bodies'] {
  return scene.bodies
    .filter((b) => scene.materials[b.material].kind === 'solid' && b.start <= 0)
    .map((b) => ({ ...b, motion: b.motion.type === 'keyframes' ? { ...b.motion, keys: [b.motion.keys[0]] } : { type: 'static' as const } }));
}
