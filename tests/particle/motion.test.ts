/**
 * Whole-engine behaviour on small scenes: free fall, rest, viscosity ordering, objects (static and
 * moving) keep liquid out, determinism and checkpoints.
 */
import { describe, expect, it } from 'vitest';
import { restoreSimulation } from '../../src/index.ts';
import { GUARD } from '../../src/particle/boundaries.ts';
import { liquid, particleSim } from './helpers.ts';

const BLOCK_R = 0.004, BLOCK_DEPTH = 0.056;

/** A block of liquid filling a closed box under gravity, 10 frames: metrics, density passes per sub-timestep, settling (m). */
function gravityBlock(densitySolver: 'pbf' | 'steele', pressureImpulse = true) {
  const half = BLOCK_DEPTH / 2;
  const sim = particleSim({
    domain: { min: [-half, -half, -half], max: [half, half, half] },
    // The paper's form with the paper's tolerance (2 %).
    materials: { w: liquid(2, densitySolver === 'steele' ? { particle: { densityTolerance: 0.02 } } : {}) },
    adhesion: [{ between: ['w', 'w'], type: 'lennard-jones', strength: 0 }],
    bodies: [{ material: 'w', shape: { type: 'box', center: [0, 0, 0], size: [BLOCK_DEPTH, BLOCK_DEPTH, BLOCK_DEPTH] } }],
    // "steele" is the paper's method whole, with the paper's viscosity (the exchange).
    particle: { radius: BLOCK_R, densitySolver, pressureImpulse, ...(densitySolver === 'steele' ? { viscositySolver: 'exchange' as const } : {}) },
  });
  const y0 = sim.metrics().centerOfMass[1];
  let passes = 0, pressurePasses = 0, substeps = 0;
  for (let f = 0; f < 10; f++) {
    const s = sim.stepFrame();
    passes += s.counters.densityPasses ?? 0;
    pressurePasses += s.counters.pressurePasses ?? 0;
    substeps += s.counters.substeps;
  }
  const m = sim.metrics();
  return { sim, m, passesPerSubstep: passes / substeps, pressurePerSubstep: pressurePasses / substeps, settling: Math.abs(m.centerOfMass[1] - y0) };
}

describe('particle engine', () => {
  it('an isolated particle falls exactly g t²/2 (the trapezoid rule in free flight, ballistic.ts)', () => {
    const sim = particleSim({
      fps: 30,
      materials: { w: liquid(1) },
      bodies: [{ material: 'w', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.001 } }],
      particle: { radius: 0.004, substeps: 4, moves: 6, maxMove: 10 },
    });
    expect(sim.fluidPoints().count).toBe(1);
    const frames = 9;
    for (let f = 0; f < frames; f++) sim.stepFrame();
    const g = 9.81, t = frames / 30;
    expect(sim.ctx.liquid.pos[1]).toBeCloseTo(-0.5 * g * t * t, 12);
  });

  it('a block at rest (no gravity, no cohesion) keeps its density within 2 % in under 3 passes and stays put', () => {
    const sim = particleSim({
      gravity: [0, 0, 0],
      materials: { w: liquid(2) },
      adhesion: [{ between: ['w', 'w'], type: 'lennard-jones', strength: 0 }],
      bodies: [{ material: 'w', shape: { type: 'box', center: [0, 0, 0], size: [0.06, 0.06, 0.06] } }],
      particle: { radius: 0.004 },
    });
    const com0 = sim.metrics().centerOfMass;
    let passes = 0, substeps = 0;
    for (let f = 0; f < 5; f++) {
      const s = sim.stepFrame();
      passes += s.counters.densityPasses ?? 0;
      substeps += s.counters.substeps;
    }
    const m = sim.metrics();
    expect(m.densityError!).toBeLessThan(0.02);
    expect(passes / substeps).toBeLessThan(3);
    for (let k = 0; k < 3; k++) expect(Math.abs(m.centerOfMass[k] - com0[k])).toBeLessThan(0.1 * 0.004);
    expect(m.maxSpeed).toBeLessThan(0.05);
  });

  // The paper's figure under gravity. It needs the walls read as mirrors (the lattice next to a
  // wall sees its 26 neighbours, real or mirrored). Density correction's displacement becomes
  // velocity (density.ts, pressureVelocity), so where the correction holds the liquid up it takes
  // back the g δt the moves gave, all but (M − 1)/(2M) g δt (M moves: the moves' displacement
  // holds (M + 1)/(2M) of it): a still pool keeps a uniform 0.43 g δt that each sub-timestep
  // undoes. Measured (10 frames): error 1.8 %, 1.95 passes per sub-timestep, settling 0.14 r,
  // mean speed 0.43 g δt, max speed 0.09–0.13 √(g·depth) over frames 1–20 (before the
  // displacement became velocity: 1.0 %, 1.7, 0.07 r, max 0.09).
  // The default solver: the pressure holds the block (warm-started: the first sub-timestep takes
  // up to 50 passes, the others one a solve, two solves a sub-timestep) and density correction has
  // nothing left to do. Measured (one solve): 2.9 pressure passes a sub-timestep over the 10
  // frames, no density passes, max speed 1e-4 m/s, settling 0.001 r; two solves: 4.8 passes.
  it('a block of liquid filling a box under gravity rests to round-off with the default solver: no density passes', () => {
    const { m, passesPerSubstep, pressurePerSubstep, settling } = gravityBlock('pbf');
    expect(m.densityError!).toBeLessThan(0.005);
    expect(pressurePerSubstep).toBeLessThan(5.5);
    expect(passesPerSubstep).toBe(0);
    expect(settling).toBeLessThan(0.01 * BLOCK_R);
    expect(m.maxSpeed).toBeLessThan(1e-3 * Math.sqrt(9.81 * BLOCK_DEPTH));
  });

  it('densitySolver "steele": a block of liquid filling a box under gravity keeps its density within 2 % in under 3 passes, settles by under r/2 and stays still', () => {
    const { sim, m, passesPerSubstep, settling } = gravityBlock('steele');
    expect(m.densityError!).toBeLessThan(0.02);
    expect(passesPerSubstep).toBeLessThan(3);
    expect(settling).toBeLessThan(0.5 * BLOCK_R);
    expect(m.maxSpeed).toBeLessThan(0.15 * Math.sqrt(9.81 * BLOCK_DEPTH));
    const L = sim.ctx.liquid, gdt = 9.81 / (sim.ctx.scene.fps * sim.ctx.scene.particle.substeps);
    let mean = 0;
    for (let i = 0; i < L.count; i++) mean += Math.hypot(L.vel[3 * i], L.vel[3 * i + 1], L.vel[3 * i + 2]);
    expect(mean / L.count).toBeLessThan(0.5 * gdt);
  });

  // particle.pressureImpulse = false: positions only, as Steele et al. 2004, with the velocity the
  // correction undoes removed (density.ts, damp). Measured (10 frames): error 1.0 %, 1.7 passes
  // per sub-timestep, settling 0.07 r, max speed 0.09 √(g·depth).
  it('densitySolver "steele" with positions-only correction: the block rests too, within 2 % in under 2.5 passes, settling under r/4', () => {
    const { m, passesPerSubstep, settling } = gravityBlock('steele', false);
    expect(m.densityError!).toBeLessThan(0.02);
    expect(passesPerSubstep).toBeLessThan(2.5);
    expect(settling).toBeLessThan(0.25 * BLOCK_R);
    expect(m.maxSpeed).toBeLessThan(0.12 * Math.sqrt(9.81 * BLOCK_DEPTH));
  });

  it('a more viscous blob spreads more slowly on a floor (monotone in viscosity)', () => {
    const spread = (mu: number) => {
      const sim = particleSim({
        materials: { w: liquid(mu), floor: { kind: 'solid', friction: 0 } },
        adhesion: [
          { between: ['w', 'w'], type: 'lennard-jones', strength: 0 },
          { between: ['w', 'floor'], type: 'attract', strength: 0 },
        ],
        bodies: [
          { material: 'floor', shape: { type: 'plane', point: [0, 0, 0], extent: 0.1 } },
          { material: 'w', shape: { type: 'box', center: [0, 0.028, 0], size: [0.04, 0.04, 0.04] } },
        ],
        particle: { radius: 0.004 },
      });
      for (let f = 0; f < 8; f++) sim.stepFrame();
      const b = sim.metrics().bounds;
      return b.max[0] - b.min[0] + (b.max[2] - b.min[2]);
    };
    const widths = [0.05, 1, 20].map(spread);
    expect(widths[0]).toBeGreaterThan(widths[1]);
    expect(widths[1]).toBeGreaterThan(widths[2]);
  });

  it('keeps liquid out of a static ball and a moving paddle (centres at least 0 m outside)', () => {
    const r = 0.004;
    const sim = particleSim({
      materials: { w: liquid(3), solid: { kind: 'solid' } },
      bodies: [
        { material: 'solid', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.03 } },
        {
          material: 'solid',
          shape: { type: 'box', center: [0, 0.04, 0], size: [0.1, 0.008, 0.02] },
          motion: { type: 'spin', axis: [0, 1, 0], center: [0, 0, 0], rate: 12 },
        },
        { material: 'w', shape: { type: 'sphere', center: [0, 0.075, 0], radius: 0.025 } },
      ],
      particle: { radius: r },
    });
    let worst = Infinity;
    for (let f = 0; f < 12; f++) {
      sim.stepFrame();
      const L = sim.ctx.liquid, bodies = sim.ctx.objects.bodies;
      for (let i = 0; i < L.count; i++) {
        for (const b of bodies) {
          const R = b.pose.R, t = b.pose.t;
          const dx = L.pos[3 * i] - t[0], dy = L.pos[3 * i + 1] - t[1], dz = L.pos[3 * i + 2] - t[2];
          const s = b.compiled.sdf(R[0] * dx + R[3] * dy + R[6] * dz, R[1] * dx + R[4] * dy + R[7] * dz, R[2] * dx + R[5] * dy + R[8] * dz);
          worst = Math.min(worst, s);
        }
      }
    }
    // The guard keeps centres GUARD·r outside; allow round-off below that, never inside.
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeGreaterThan(GUARD * r * 0.99 - 1e-9);
  });

  it('friction slows a sliding surface particle by a fraction f per 1/30 s (more f, slower)', () => {
    const r = 0.004;
    const slide = (f: number) => {
      const sim = particleSim({
        materials: { w: liquid(1), floor: { kind: 'solid', friction: f } },
        adhesion: [{ between: ['w', 'floor'], type: 'attract', strength: 0 }],
        bodies: [
          { material: 'floor', shape: { type: 'plane', point: [0, 0, 0], extent: 0.2 } },
          // One particle on the floor, sliding along x.
          { material: 'w', velocity: [0.1, 0, 0], shape: { type: 'sphere', center: [0, 2 * r, 0], radius: 0.0005 } },
        ],
        particle: { radius: r },
      });
      sim.stepFrame();
      expect(sim.ctx.liquid.surface[0]).toBe(1);
      return sim.ctx.liquid.pos[0];
    };
    const d = [0, 0.3, 0.9].map(slide);
    expect(d[0]).toBeGreaterThan(d[1]);
    expect(d[1]).toBeGreaterThan(d[2]);
    // f = 0.9: v = v0 · 0.1^(30 t), so in 1/30 s it slides 0.9/ln 10 = 0.39 of the free distance.
    const free = 0.1 / 30;
    expect(d[2] / free).toBeGreaterThan(0.3);
    expect(d[2] / free).toBeLessThan(0.6);
  });

  const scene = {
    materials: { honey: liquid(4), red: { ...liquid(1), density: 1300 }, ball: { kind: 'solid' as const } },
    bodies: [
      { material: 'ball', shape: { type: 'sphere' as const, center: [0, 0, 0] as [number, number, number], radius: 0.03 } },
      { material: 'honey', shape: { type: 'sphere' as const, center: [0, 0.06, 0] as [number, number, number], radius: 0.02 } },
      { material: 'red', start: 0.1, shape: { type: 'sphere' as const, center: [0.01, 0.11, 0] as [number, number, number], radius: 0.012 } },
    ],
    sources: [{ material: 'red', center: [0, 0.15, 0] as [number, number, number], radius: 0.008, speed: 0.5, end: 0.2 }],
    particle: { radius: 0.004 },
  };

  it('is deterministic: the same scene gives bit-identical particles', () => {
    const a = particleSim(scene), b = particleSim(scene);
    const initial = a.ctx.liquid.count;
    for (let f = 0; f < 5; f++) {
      a.stepFrame();
      b.stepFrame();
    }
    expect(a.ctx.liquid.count).toBe(b.ctx.liquid.count);
    expect(a.ctx.liquid.count).toBeGreaterThan(initial + a.emitters.bodies[1].positions.length / 3); // blob source and spout
    expect(Buffer.from(a.save()).equals(Buffer.from(b.save()))).toBe(true);
  });

  it('continues bit for bit from a checkpoint', () => {
    const a = particleSim(scene);
    for (let f = 0; f < 2; f++) a.stepFrame();
    const bytes = a.save();
    for (let f = 0; f < 3; f++) a.stepFrame();
    const b = restoreSimulation(bytes) as typeof a;
    expect(b.frame).toBe(2);
    for (let f = 0; f < 3; f++) b.stepFrame();
    const n = a.ctx.liquid.count;
    expect(b.ctx.liquid.count).toBe(n);
    expect(Buffer.from(b.ctx.liquid.pos.buffer, 0, 24 * n).equals(Buffer.from(a.ctx.liquid.pos.buffer, 0, 24 * n))).toBe(true);
    expect(Buffer.from(b.ctx.liquid.vel.buffer, 0, 24 * n).equals(Buffer.from(a.ctx.liquid.vel.buffer, 0, 24 * n))).toBe(true);
  });

  it('stops with a SimulationError naming stage, frame and particle on a runaway speed', () => {
    const sim = particleSim({
      materials: { w: liquid(1) },
      bodies: [{ material: 'w', velocity: [0, -60, 0], shape: { type: 'sphere', center: [0, 0, 0], radius: 0.001 } }],
      particle: { radius: 0.004, maxSpeed: 50 },
    });
    expect(() => sim.stepFrame()).toThrowError(/stage 'accelerate', frame 0: liquid particle 0/);
  });
});
