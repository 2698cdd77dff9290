/**
 * How thin the stream poured from a tipping container gets as the container empties, against the
 * particles that must carry it: the moving-container sibling of stream-resolution.ts (spouts).
 *
 * A container here is an open cylinder (a solid cylinder with `wall` > 0) that holds a liquid body
 * at the start and is turned by its motion until its open end points below level. From then on the
 * liquid left in it runs out as a viscous film draining along its wall toward the rim, held by
 * gravity across the axis in the trough of the lower wall. The film is Jeffreys's draining plate
 * (1930, "The draining of a vertical plate", Proc. Camb. Phil. Soc. 26, 204–205) in a circular
 * trough: a lubrication flow, each line along the wall a Nusselt film d³ g_t / 3ν per unit width
 * (g_t: gravity along the cup's axis toward its open end), with d(s) = h − a + √(a² − s²) across
 * the trough of the cavity's radius a (h at its lowest line). Its cross-section A(h) keeps its mass,
 * A_t + Q_x = 0 with Q(h) = g_t ∫ d³ ds / 3ν, a kinematic wave (Lighthill & Whitham 1955) that
 * carries each depth at c = dQ/dA = g_t ∫ d² ds / (ν w(h)); from a wall that was full it is
 *
 *   ĉ(h(x, t)) G(t) = x,   G(t) = ∫ g_t dt,   ĉ = c / g_t   (Jeffreys: h = √(ν x / G) on a plate),
 *
 * so the depth at the rim (x = L, the cavity's depth) solves ĉ(h) = L / G. The liquid leaves over
 * the rim's chord w = 2 √(2 a h − h²) at the flux Q(h), at its mean speed Q / A. It falls from the
 * rim's lowest point as a viscous thread (viscous-thread.ts) to where a ballistic path from there
 * lands (the static solids and the domain box, stream-resolution.ts's `landing`), and there, keeping
 * Q = A v, it is a rope of radius √(Q / π v). Since G grows for as long as the container stays
 * turned, Q falls (as G^(−7/4) once h ≪ a) and the rope thins without end: every such pour parts
 * into beads in the end, at a time that a finer particle radius puts off. `info` and `run` warn
 * when that happens before the scene ends, below ROPE_PARTICLES_ACROSS (1.25) particles across as
 * for spouts, naming the container, the frame and the particle radius that holds the rope to the
 * scene's end.
 *
 * Measured on cup-pour (5 Pa·s honey; docs/decisions.md "The resolution a poured stream needs:
 * cup-pour's tipping cup"): the liquid left in the cup is the model's within 5 mL from frame 42 to
 * 80 at 2 mm (bench/pour-flux.ts), and the engine's stream first parts where the model's rope is
 * 1.04–1.49 particles across (bench/rope-components.ts; frames 54, 58, 56, 62 at 3, 2.5, 2, 1.5 mm
 * against the model's 51, 55, 60, 68). Left out: the film is followed only once it holds no more
 * than the liquid there was and is shallower than the cavity's radius (before that the cup pours a
 * pool); the film on the upper wall; the container's own motion at the rim; surface tension; and
 * adhesion to the wall, which in the engine keeps the last particle-thin film (17–24 mL) in the cup.
 */
import type { Scene } from './scene.ts';
import type { Vec3 } from './schema.ts';
import { compileMotion, createPose, rotateVector, applyPose } from './motion.ts';
import { compileShape, type CompiledShape } from './shapes.ts';
import { initialKinematicViscosity, landing, ROPE_PARTICLES_ACROSS } from './stream-resolution.ts';
import { viscousThreadSpeed } from './viscous-thread.ts';

export interface PourSample {
  /** Time, s. */
  time: number;
  /** The film's thickness at the rim, m. */
  film: number;
  /** The rim's chord it leaves over, m. */
  width: number;
  /** The liquid the draining film holds, m³: ∫ w(h(x)) h(x) dx over the wall's length. */
  held: number;
  /** The pour's flux Q, m³/s. */
  flux: number;
  /** How far it falls from the rim's lowest point to where it lands, m. */
  fall: number;
  /** Its speed there, m/s (a viscous thread's). */
  speed: number;
  /** The rope's radius there, √(Q / π v), m. */
  ropeRadius: number;
  /** ropeRadius / particle.radius. */
  across: number;
}

export interface PourResolution {
  /** Index in scene.bodies of the container. */
  body: number;
  /** Its name, or its material's. */
  name: string;
  /** The liquid it holds. */
  material: string;
  /** From the time the film is thinner than the cavity's radius to the scene's end, every frame. */
  samples: PourSample[];
  /** First time the rope is under ROPE_PARTICLES_ACROSS, s (null if it never is before the scene ends). */
  partsAt: number | null;
  /** The largest particle radius that keeps ROPE_PARTICLES_ACROSS to the scene's end, m. */
  radiusNeeded: number;
}

/** Each tipping container's pour, followed to the scene's end (containers that never turn past level are left out). */
export function pourResolutions(scene: Scene): PourResolution[] {
  const g = scene.gravity, gl = Math.hypot(...g);
  if (!(gl > 0)) return [];
  const up: Vec3 = [-g[0] / gl, -g[1] / gl, -g[2] / gl];
  const r = scene.particle.radius;
  const statics: CompiledShape[] = [];
  for (const b of scene.bodies) if (scene.materials[b.material].kind === 'solid' && b.motion.type === 'static') statics.push(compileShape(b.shape, scene.assets.meshes));
  const out: PourResolution[] = [];
  scene.bodies.forEach((b, k) => {
    const sh = b.shape;
    if (scene.materials[b.material].kind !== 'solid' || sh.type !== 'cylinder' || !(sh.wall > 0) || b.motion.type === 'static' || b.motion.type === 'free') return;
    const nl = Math.hypot(...sh.axis);
    const n0: Vec3 = [sh.axis[0] / nl, sh.axis[1] / nl, sh.axis[2] / nl];
    const hh = sh.height / 2, a = sh.radius - sh.wall, L = sh.height - sh.wall;
    const liquid = scene.bodies.find((l) => {
      if (scene.materials[l.material].kind !== 'liquid' || l.start > 0) return false;
      const c = shapeCenter(l.shape);
      if (!c) return false;
      const d = [c[0] - sh.center[0], c[1] - sh.center[1], c[2] - sh.center[2]];
      const along = d[0] * n0[0] + d[1] * n0[1] + d[2] * n0[2];
      const radial = Math.hypot(d[0] - along * n0[0], d[1] - along * n0[1], d[2] - along * n0[2]);
      return along > -hh + sh.wall && along < hh && radial < a;
    });
    if (!liquid) return;
    const nu = initialKinematicViscosity(scene, liquid.material);
    const volume = compileShape(liquid.shape, scene.assets.meshes).volume;
    if (!(nu > 0)) return;
    const trough = circularTrough(a, nu);
    const motion = compileMotion(b.motion);
    const pose = createPose();
    const n: Vec3 = [0, 0, 0], rim: Vec3 = [0, 0, 0];
    const rimRest: Vec3 = [sh.center[0] + hh * n0[0], sh.center[1] + hh * n0[1], sh.center[2] + hh * n0[2]];
    const dt = 1 / scene.fps;
    const samples: PourSample[] = [];
    let G = 0, gtPrev = 0;
    for (let i = 0; i * dt <= scene.duration + 1e-9; i++) {
      const time = i * dt;
      motion.poseAt(time, pose);
      rotateVector(pose, n0, n);
      // Gravity along the axis toward the open end; the film drains only while it is positive.
      const gt = Math.max(0, -gl * (n[0] * up[0] + n[1] * up[1] + n[2] * up[2]));
      if (i > 0) G += 0.5 * (gt + gtPrev) * dt;
      gtPrev = gt;
      if (!(G > 0) || !(gt > 0)) continue;
      // The depth at the rim, and the liquid the trough holds: depth x/G along its length (x from the bottom).
      const h = trough.depthAt(L / G);
      if (!(h < a)) continue;
      let held = 0;
      for (let j = 0; j < 32; j++) held += (trough.area(trough.depthAt((L * (j + 0.5)) / 32 / G)) * L) / 32;
      // The film drains from a wall that was full: until it holds no more than the liquid there was, the cup still pours a pool.
      if (held > volume) continue;
      // The rim's lowest point: its centre, then a along the downward direction across the axis.
      applyPose(pose, rimRest, rim);
      const c = up[0] * n[0] + up[1] * n[1] + up[2] * n[2];
      const dn: Vec3 = [-(up[0] - c * n[0]), -(up[1] - c * n[1]), -(up[2] - c * n[2])];
      const dl = Math.hypot(...dn);
      if (!(dl > 1e-9)) continue;
      const lip: Vec3 = [rim[0] + (a * dn[0]) / dl, rim[1] + (a * dn[1]) / dl, rim[2] + (a * dn[2]) / dl];
      const width = trough.width(h);
      const flux = (gt * trough.cubes(h)) / (3 * nu);
      const u = flux / trough.area(h);
      const hit = landing(scene, statics, lip, [u * n[0], u * n[1], u * n[2]], 0.25 * Math.min(r, h));
      if (!hit) continue;
      const fall = (lip[0] - hit.p[0]) * up[0] + (lip[1] - hit.p[1]) * up[1] + (lip[2] - hit.p[2]) * up[2];
      const freeFall = Math.sqrt(u * u + 2 * gl * Math.max(fall, 0));
      const speed = Math.min(freeFall, viscousThreadSpeed(u, fall, nu, gl));
      const ropeRadius = Math.sqrt(flux / (Math.PI * speed));
      samples.push({ time, film: h, width, held, flux, fall, speed, ropeRadius, across: ropeRadius / r });
    }
    if (!samples.length) return;
    out.push({
      body: k,
      name: b.name ?? b.material,
      material: liquid.material,
      samples,
      partsAt: partsAt(samples, r),
      radiusNeeded: Math.min(...samples.map((s) => s.ropeRadius)) / ROPE_PARTICLES_ACROSS,
    });
  });
  return out;
}

/**
 * A film in the trough of a circular wall of radius a, d(s) = h − a + √(a² − s²) deep across it
 * (h at the lowest line, over the chord |s| < √(2ah − h²)): its cross-section, its width, its
 * Nusselt flux ∫ d³ ds (× g_t / 3ν) and the kinematic wave's speed per unit g_t, which increases with
 * h, and the depth that wave speed gives.
 */
/** First time the pour's rope is under ROPE_PARTICLES_ACROSS particles of `radius` across, s (null if never before the scene ends). */
export function partsAt(samples: PourSample[], radius: number): number | null {
  const thin = samples.find((s) => s.ropeRadius < ROPE_PARTICLES_ACROSS * radius);
  return thin ? thin.time : null;
}

function circularTrough(a: number, nu: number) {
  const width = (h: number) => 2 * Math.sqrt(Math.max(0, 2 * a * h - h * h));
  const area = (h: number) => a * a * Math.acos((a - h) / a) - (a - h) * Math.sqrt(Math.max(0, 2 * a * h - h * h));
  const power = (h: number, k: number) => {
    const s0 = width(h) / 2;
    let sum = 0;
    for (let j = 0; j < 48; j++) {
      const sj = s0 * (-1 + (2 * (j + 0.5)) / 48);
      sum += Math.max(0, h - a + Math.sqrt(a * a - sj * sj)) ** k;
    }
    return (sum * 2 * s0) / 48;
  };
  const cubes = (h: number) => power(h, 3);
  // dQ/dA with Q = g_t ∫ d³ ds / 3ν and dA/dh = width: g_t ∫ d² ds / (ν width).
  const waveSpeed = (h: number) => power(h, 2) / (nu * width(h));
  const depthAt = (speed: number): number => {
    if (!(waveSpeed(a) > speed)) return a;
    let lo = 0, hi = a;
    for (let it = 0; it < 50; it++) {
      const mid = 0.5 * (lo + hi);
      if (waveSpeed(mid) < speed) lo = mid;
      else hi = mid;
    }
    return 0.5 * (lo + hi);
  };
  return { width, area, cubes, waveSpeed, depthAt };
}

function shapeCenter(shape: Scene['bodies'][number]['shape']): Vec3 | null {
  return 'center' in shape ? (shape.center as Vec3) : null;
}

/** The warnings of `info` and `run`: one per container whose pour thins below ROPE_PARTICLES_ACROSS before the scene ends. */
export function pourResolutionWarnings(scene: Scene): string[] {
  const r = scene.particle.radius;
  return pourResolutions(scene)
    .filter((p) => p.partsAt !== null)
    .map((p) => {
      const s = p.samples.find((x) => x.time === p.partsAt)!;
      const frame = Math.round(s.time * scene.fps);
      return (
        `particle engine: bodies[${p.body}] '${p.name}' pours its ${p.material} as a film draining off its wall (Jeffreys), ` +
        `${fmtMl(s.flux)} over its rim at ${s.time.toFixed(2)} s (frame ${frame}), which falls ${fmtCm(s.fall)} to a rope ${fmtMm(2 * s.ropeRadius)} across: ` +
        `under ${ROPE_PARTICLES_ACROSS} particles across at particle.radius ${fmtMm(r)}, and the pour parts into beads from there on; ` +
        `${ROPE_PARTICLES_ACROSS} across to the scene's end (${scene.duration} s) needs particle.radius ${fmtMm(p.radiusNeeded)} or less`
      );
    });
}

const fmtMm = (m: number): string => `${+(m * 1000).toPrecision(2)} mm`;
const fmtCm = (m: number): string => `${+(m * 100).toPrecision(2)} cm`;
const fmtMl = (q: number): string => `${+(q * 1e6).toPrecision(2)} mL/s`;
