/**
 * Small physical cases of the particle engine and what is measured on them, shared by the tests
 * (tests/particle/physics.test.ts) and the experiment scripts (bench/density-candidates.ts):
 * a pool at rest in its box, a thick cube dropped on a floor.
 */
import { createSimulation, parseScene } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { HashGrid } from '../../src/spatial/hash-grid.ts';

export const G = 9.81;

type ParticleSettings = NonNullable<SceneInput['particle']>;

export function sim(input: SceneInput): ParticleSimulation {
  return createSimulation(parseScene(input), 'particle') as ParticleSimulation;
}

/**
 * A pool filling a box of width `width` to depth `depth` (the box twice as tall; closed, or open at the
 * top with `openTop`), liquid of kinematic viscosity ν (m²/s), its cohesion off or, with
 * `adhesion: 'default'`, the scene format's default.
 */
export function poolScene(o: {
  r: number; depth: number; width: number; nu?: number; particle?: ParticleSettings; fps?: number;
  adhesion?: 'off' | 'default'; openTop?: boolean; duration?: number;
}): SceneInput {
  const { r, depth, width } = o;
  return {
    name: 'pool', fps: o.fps ?? 30, duration: o.duration ?? 10,
    domain: { min: [0, 0, 0], max: [width, 2 * depth, width], boundary: 'noslip', ...(o.openTop ? { faces: { ymax: 'open' } } : {}) },
    materials: { w: { kind: 'liquid', density: 1000, viscosity: { value: o.nu ?? 0.01, unit: 'm2/s' } } },
    ...(o.adhesion === 'default' ? {} : { adhesion: [{ between: ['w', 'w'], type: 'attract', strength: 0 }] }),
    bodies: [{ material: 'w', shape: { type: 'box', center: [width / 2, depth / 2, width / 2], size: [width, depth, width] } }],
    particle: { radius: r, ...o.particle },
  };
}

export interface PoolRest {
  /** RMS speed over the particles, averaged (as a mean square) over the frames of seconds [from, to], / √(g depth). */
  rms: number;
  /** Largest speed of any particle in those frames / √(g depth). */
  max: number;
  /** Mean |ρ/ρ0 − 1| of the particles at least 2r from the free surface at the end (walls read as mirrors). */
  densityError: number;
  /** The engine's own error measure at the end. */
  solverError: number;
  /** How far the mean height of the top layer sank from the start to the end, in radii. */
  settling: number;
  /** Density passes per sub-timestep over the measured frames. */
  passes: number;
  wallMs: number;
}

export function measurePool(s: ParticleSimulation, depth: number, from = 1, to = 2): PoolRest {
  const L = s.ctx.liquid, r = s.ctx.r, fps = s.scene.fps;
  // The top layer: as many of the highest particles as the top layer of the start holds (a few
  // thrown up do not move it).
  let ymax0 = -Infinity;
  for (let i = 0; i < L.count; i++) ymax0 = Math.max(ymax0, L.pos[3 * i + 1]);
  let layer = 0;
  for (let i = 0; i < L.count; i++) if (L.pos[3 * i + 1] > ymax0 - r) layer++;
  const heights = new Float64Array(L.count);
  const topY = () => {
    for (let i = 0; i < L.count; i++) heights[i] = L.pos[3 * i + 1];
    heights.sort();
    let sum = 0;
    for (let k = L.count - layer; k < L.count; k++) sum += heights[k];
    return sum / layer;
  };
  const top0 = topY();
  const t0 = performance.now();
  let ms = 0, frames = 0, max = 0, passes = 0, subs = 0;
  const last = Math.round(to * fps);
  for (let f = 1; f <= last; f++) {
    const st = s.stepFrame();
    if (f < Math.round(from * fps)) continue;
    passes += st.counters.densityPasses ?? 0;
    subs += st.counters.substeps ?? 0;
    let sq = 0;
    for (let i = 0; i < L.count; i++) {
      const v2 = L.vel[3 * i] ** 2 + L.vel[3 * i + 1] ** 2 + L.vel[3 * i + 2] ** 2;
      sq += v2;
      max = Math.max(max, Math.sqrt(v2));
    }
    ms += sq / L.count;
    frames++;
  }
  const u = Math.sqrt(G * depth);
  let ymax = -Infinity;
  for (let i = 0; i < L.count; i++) ymax = Math.max(ymax, L.pos[3 * i + 1]);
  let de = 0, k = 0;
  for (let i = 0; i < L.count; i++) {
    if (L.pos[3 * i + 1] > ymax - 2 * r) continue;
    de += Math.abs(L.density[i] - 1);
    k++;
  }
  return {
    rms: Math.sqrt(ms / frames) / u, max: max / u, densityError: de / Math.max(1, k), solverError: s.ctx.densityError,
    settling: (top0 - topY()) / r, passes: passes / Math.max(1, subs), wallMs: performance.now() - t0,
  };
}

/** A cube of liquid (dynamic viscosity in Pa·s) dropped from `drop` above a no-slip floor (a domain with an open top). */
export function cubeDrop(o: { viscosity: number; r: number; size: number; drop: number; cohesion?: number; particle?: ParticleSettings; extra?: Partial<SceneInput> }): SceneInput {
  const half = Math.max(0.15, 3 * o.size);
  return {
    name: 'cube drop', fps: 30, duration: 3,
    domain: { min: [-half, 0, -half], max: [half, 0.4, half], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: { gel: { kind: 'liquid', density: 1100, viscosity: { value: o.viscosity, unit: 'Pa.s' } } },
    adhesion: [{ between: ['gel', 'gel'], type: 'lennard-jones', strength: o.cohesion ?? 1 }],
    bodies: [{ material: 'gel', shape: { type: 'box', center: [0, o.drop + o.size / 2, 0], size: [o.size, o.size, o.size] } }],
    particle: { radius: o.r, ...o.particle },
    ...o.extra,
  };
}

/** Share of the particles in the largest piece (particles closer than 3 r linked). */
export function largestPiece(pos: Float64Array, n: number, r: number): number {
  if (n === 0) return 1;
  const link = 3 * r, g = new HashGrid(link);
  g.build(pos, n);
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; }
    return i;
  };
  const cells = new Int32Array(27), lim = link * link;
  for (let i = 0; i < n; i++) {
    const m = g.cellsNear(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], cells, 1);
    for (let q = 0; q < m; q++) {
      for (let a = g.start[cells[q]], e = a + g.count[cells[q]]; a < e; a++) {
        const j = g.order[a];
        if (j <= i) continue;
        const d2 = (pos[3 * i] - pos[3 * j]) ** 2 + (pos[3 * i + 1] - pos[3 * j + 1]) ** 2 + (pos[3 * i + 2] - pos[3 * j + 2]) ** 2;
        if (d2 < lim) parent[find(i)] = find(j);
      }
    }
  }
  const size = new Int32Array(n);
  let best = 0;
  for (let i = 0; i < n; i++) best = Math.max(best, ++size[find(i)]);
  return best / n;
}

export interface CubeDrop {
  /** The smallest share of the largest piece over the frames. */
  smallestLargestPiece: number;
  maxSpeed: number;
  /** √(2 g (drop + size)): a free fall from the cube's top to the floor. */
  freeFallSpeed: number;
  peakKinetic: number;
  finalKinetic: number;
}

export function measureCubeDrop(input: SceneInput, frames: number): CubeDrop {
  const s = sim(input), L = s.ctx.liquid;
  const box = input.bodies![0].shape as { center: number[]; size: number[] };
  const top = box.center[1] + box.size[1] / 2;
  let piece = 1, vmax = 0, peak = 0;
  for (let f = 0; f < frames; f++) {
    s.stepFrame();
    const m = s.metrics();
    piece = Math.min(piece, largestPiece(L.pos, L.count, s.ctx.r));
    vmax = Math.max(vmax, m.maxSpeed);
    peak = Math.max(peak, m.kineticEnergy);
  }
  return { smallestLargestPiece: piece, maxSpeed: vmax, freeFallSpeed: Math.sqrt(2 * G * top), peakKinetic: peak, finalKinetic: s.metrics().kineticEnergy };
}
