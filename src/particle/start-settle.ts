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
 * body alone in the scene's domain (its materials, adhesion, particle settings and gravity; no
 * other body, source or sink) is run for SETTLE_SECONDS on one thread, every velocity zeroed each
 * SETTLE_ZERO frames (a damped settling: kinetic energy taken out while the weight and the
 * pressure find their balance). Its positions are the body's start; its velocity
 * starts as the scene gives it. The count, and so the volume the particles stand for
 * (count · (2r)³), is the fitted lattice's: the settle moves particles, it adds or removes none.
 * Measured: docs/decisions.md, "A start that does not give way".
 */
import type { Scene } from '../scene/scene.ts';
import { attachAssets } from '../scene/scene.ts';
import type { SceneData } from '../scene/schema.ts';
import { kinematicViscosity } from '../scene/stream-resolution.ts';

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
  return kinematicViscosity(scene, material) / (2 * r) ** 2 >= Math.sqrt(g / (2 * r));
}

/** How long the settle runs, s of simulated time. */
export const SETTLE_SECONDS = 0.5;
/** The settle's frame rate, and every how many frames it zeroes the velocities. */
const SETTLE_FPS = 30, SETTLE_ZERO = 3;
/** The displacement before the settle, at most this fraction of 2r on each axis. */
export const SETTLE_JITTER = 0.1;

/** What the settle needs of a particle simulation (simulation.ts passes its own constructor). */
export interface SettleRun {
  readonly ctx: { readonly liquid: { count: number; pos: Float64Array; vel: Float64Array } };
  stepFrame(): unknown;
  dispose?(): void;
}

let settling = false;

/**
 * The settled start of liquid body `body` of `scene` from its fitted positions (a new array of the
 * same length), or `positions` itself inside a settle (no settle nests). `clearance`: how close the
 * walls' clamp lets the liquid come to each face (start-packing.ts narrowClearance), which the
 * displaced particles keep to.
 */
export function settleStart(scene: Scene, body: number, positions: Float64Array, clearance: ArrayLike<number>, make: (scene: Scene) => SettleRun): Float64Array {
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
    const v = start[i] + 2 * SETTLE_JITTER * 2 * r * next();
    start[i] = Math.min(d.max[a] - clearance[2 * a + 1], Math.max(d.min[a] + clearance[2 * a], v));
  }
  const data = { ...scene, fps: SETTLE_FPS, duration: SETTLE_SECONDS, bodies: [{ ...scene.bodies[body], start: 0, velocity: [0, 0, 0] }], sources: [], sinks: [] } as SceneData;
  settling = true;
  let run: SettleRun | null = null;
  try {
    run = make(attachAssets(data, scene.assets));
    const L = run.ctx.liquid;
    if (L.count * 3 !== start.length) throw new Error(`settleStart: the settle took ${L.count} particles for ${start.length / 3}`);
    L.pos.set(start);
    const frames = Math.round(SETTLE_SECONDS * SETTLE_FPS);
    for (let f = 1; f <= frames; f++) {
      run.stepFrame();
      if (f % SETTLE_ZERO === 0) L.vel.fill(0);
    }
    if (L.count * 3 !== start.length) throw new Error(`settleStart: the settle ended with ${L.count} particles for ${start.length / 3}`);
    return L.pos.slice(0, start.length);
  } finally {
    settling = false;
    run?.dispose?.();
  }
}
