/**
 * How thin each spout's stream gets before it lands, against the particles that must carry it.
 * A stream that falls speeds up and, keeping its flux Q = A v, gets thinner: A = A₀ v₀ / |v|. The
 * particle engine carries a stream on particles 2r apart, and `info` and `run` warn, naming the
 * source and the particle radius it needs, where the particles cannot carry it as one rope. The
 * limits are measured (bench/rope-across.ts: 5 Pa·s honey from a 6 mm spout at 0.4 m/s, the spout
 * letting out one particle at a time; docs/decisions.md "The stream-resolution warning, measured"):
 * - below ROPE_PARTICLES_ACROSS (1.25) particles across where it lands, a stream parts into beads
 *   (a 20 cm fall with the implicit solve: whole in 22 of 24 frames at 1.36 across, 11 of 23 at
 *   1.09, 6 of 23 at 0.91; a 10 cm fall with the exchange: every frame at 1.10, 23 of 25 at 0.94,
 *   18 of 25 at 0.82; the implicit solve holds a 10 cm fall whole down to 0.66 across);
 * - with the exchange viscosity (Steele §3.2, the default) a long fall can part a stream that is
 *   wider than that: 20 cm below, at 1.9 m/s from 0.4, whole in 7 of 24 frames at 1.82 across and
 *   13 of 24 at 1.36 (10 cm below, 3.3 times faster, whole in every frame down to 1.1 across). The
 *   exchange evens out neighbours' velocities but does not draw the particles in across a stream as
 *   it stretches (the implicit solve, Weiler et al. 2018, does, as continuity asks). Not warned of:
 *   soap-pour falls as far, 4.9 times faster, at 1.4 across, and stays whole in 44 of 44 frames
 *   with the exchange (with its elasticity or without), so what decides it is not yet known.
 *
 * Where the stream lands is found by following it as a ballistic jet from the face's centre (v₀
 * along the source's direction, then gravity) until it meets a solid body at rest, or a closed face
 * of the domain box, or 2 s have passed. How fast it is going there, and so how thin it is, is the
 * speed of a viscous thread that has fallen that height (viscous-thread.ts: Trouton's 3μ resists the
 * stretching; Clarke 1966, Senchenko & Bohr 2005): a stream whose fall is short against its viscous
 * length (ν²/g)^⅓ keeps near its spout's width (honey-coil's 50 Pa·s rope, ℓ = 5 cm, falls 10 cm and
 * lands 2.3 particles across, where free fall says 1.8), and a runny one falls freely. The spout's
 * speed is taken along the fall whatever its direction, and surface tension is left out.
 */
import { kinematicViscosity } from './material.ts';
import type { Scene } from './scene.ts';
import type { Vec3 } from './schema.ts';
import { compileShape, type CompiledShape } from './shapes.ts';
import { viscousThreadSpeed } from './viscous-thread.ts';

/** Particles across the landing stream's narrowest width below which `info` and `run` warn (measured: above). */
export const ROPE_PARTICLES_ACROSS = 1.25;

export interface StreamResolution {
  /** Index in scene.sources. */
  source: number;
  /** The source's name, or its material's. */
  name: string;
  /** How far the stream falls before it lands, m (height, along gravity). */
  fall: number;
  /** Its speed where it lands, m/s: a viscous thread's (viscous-thread.ts). */
  speed: number;
  /** The speed free fall would give there, m/s (what the stream reaches with no viscosity). */
  freeFallSpeed: number;
  /** The liquid's viscous length (ν²/g)^⅓, m. */
  viscousLength: number;
  /** Half its narrowest width there, m (a disk's radius; a rectangle's shorter half side). */
  halfWidth: number;
  /** Particles of the scene's radius (2r apart) across that width: halfWidth / r. */
  across: number;
  /** The largest particle radius that gives ROPE_PARTICLES_ACROSS across, m. */
  radiusNeeded: number;
}

const MAX_FALL_TIME = 2;

/** Where each spout's stream lands and how thin it is there (sources that never land are left out). */
export function streamResolutions(scene: Scene): StreamResolution[] {
  const solids: CompiledShape[] = [];
  for (const b of scene.bodies) if (scene.materials[b.material].kind === 'solid') solids.push(compileShape(b.shape, scene.assets.meshes));
  const g = scene.gravity, gl = Math.hypot(...g);
  const r = scene.particle.radius;
  const out: StreamResolution[] = [];
  scene.sources.forEach((s, k) => {
    const dl = Math.hypot(...s.direction);
    if (!(dl > 0) || !(s.speed > 0)) return;
    const v0: Vec3 = [(s.speed * s.direction[0]) / dl, (s.speed * s.direction[1]) / dl, (s.speed * s.direction[2]) / dl];
    const half = s.shape === 'disk' ? s.radius : Math.min(s.size[0], s.size[1]) / 2;
    const hit = landing(scene, solids, s.center, v0, 0.25 * Math.min(r, half));
    if (!hit) return;
    const { t, p } = hit;
    const vx = v0[0] + g[0] * t, vy = v0[1] + g[1] * t, vz = v0[2] + g[2] * t;
    const freeFallSpeed = Math.hypot(vx, vy, vz);
    const fall = gl > 0 ? ((p[0] - s.center[0]) * g[0] + (p[1] - s.center[1]) * g[1] + (p[2] - s.center[2]) * g[2]) / gl : 0;
    const nu = initialKinematicViscosity(scene, s.material);
    const speed = Math.min(freeFallSpeed, viscousThreadSpeed(s.speed, fall, nu, gl));
    const halfWidth = half * Math.sqrt(s.speed / speed);
    out.push({
      source: k,
      name: s.name ?? s.material,
      fall,
      speed,
      freeFallSpeed,
      viscousLength: gl > 0 ? Math.cbrt((nu * nu) / gl) : 0,
      halfWidth,
      across: halfWidth / r,
      radiusNeeded: halfWidth / ROPE_PARTICLES_ACROSS,
    });
  });
  return out;
}

/**
 * Follows a ballistic jet from `start` at `v0` (m/s) in steps of about `ds` along its path until it
 * meets one of `solids` it did not start inside, or a closed face of the domain box (or leaves
 * through an open one), or MAX_FALL_TIME has passed: the time and place it lands, or null.
 */
export function landing(scene: Scene, solids: CompiledShape[], start: Vec3, v0: Vec3, ds: number): { t: number; p: Vec3 } | null {
  const g = scene.gravity;
  let t = 0;
  const p: Vec3 = [...start];
  // Leave the face (and any solid the spout sits in) before looking for a landing.
  const startInside = solids.map((sh) => sh.sdf(p[0], p[1], p[2]) < 0);
  while (t < MAX_FALL_TIME) {
    const vx = v0[0] + g[0] * t, vy = v0[1] + g[1] * t, vz = v0[2] + g[2] * t;
    const v = Math.hypot(vx, vy, vz);
    t += ds / Math.max(v, 1e-6);
    p[0] = start[0] + v0[0] * t + 0.5 * g[0] * t * t;
    p[1] = start[1] + v0[1] * t + 0.5 * g[1] * t * t;
    p[2] = start[2] + v0[2] * t + 0.5 * g[2] * t * t;
    if (solids.some((sh, i) => !startInside[i] && sh.sdf(p[0], p[1], p[2]) < 0) || outOfDomain(scene, p)) return { t, p };
  }
  return null;
}

/** The source liquid's kinematic viscosity ν, m²/s, at its initial temperature where it has a temperature law (0 for a gas or no viscosity). */
export function initialKinematicViscosity(scene: Scene, material: string): number {
  const m = scene.materials[material];
  if (m.kind !== 'liquid') return 0;
  const nu = kinematicViscosity(m);
  const law = m.grid.temperature;
  return law ? nu * Math.exp(-law.coefficient * (law.initial - law.reference)) : nu;
}

/** Past a closed face of the domain box (liquid lands on it), or out through an open one (it leaves). */
function outOfDomain(scene: Scene, p: Vec3): boolean {
  const d = scene.domain;
  if (!d) return false;
  for (let f = 0; f < 6; f++) {
    const axis = f >> 1, upper = (f & 1) === 1;
    if (upper ? p[axis] > d.max[axis] : p[axis] < d.min[axis]) return true;
  }
  return false;
}

/** The warnings of `info` and `run`: one per source whose stream lands thinner than the particles can carry. */
export function streamResolutionWarnings(scene: Scene): string[] {
  const r = scene.particle.radius;
  return streamResolutions(scene)
    .filter((s) => s.across < ROPE_PARTICLES_ACROSS)
    .map(
      (s) =>
        `particle engine: sources[${s.source}] '${s.name}' thins to ${fmtMm(2 * s.halfWidth)} across where it lands ${fmtCm(s.fall)} below (${s.speed.toFixed(2)} m/s as a viscous thread; viscous length ${fmtCm(s.viscousLength)}): ${s.across.toFixed(1)} particles across at particle.radius ${fmtMm(r)}, and a stream under ${ROPE_PARTICLES_ACROSS} particles across parts into beads; ${ROPE_PARTICLES_ACROSS} across there needs particle.radius ${fmtMm(s.radiusNeeded)} or less`,
    );
}

const fmtMm = (m: number): string => `${+(m * 1000).toPrecision(2)} mm`;
const fmtCm = (m: number): string => `${+(m * 100).toPrecision(2)} cm`;
