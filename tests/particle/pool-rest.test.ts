/**
 * A still pool rests at any width (issue 26, "Rest at any size"), with the scene's default
 * adhesion (lennard-jones 1 m/s² between the liquid's own particles) and particle.pressureCourant
 * 0.4 with pressureIterations 4 (pressure.ts pressurePieces). The pool is 5 cm deep at 4 mm
 * particles, so its 6 layers start 1 mm above the floor (5 cm is not a whole number of 8 mm
 * layers): it drops, is disturbed off its lattice, and must settle. The 5 cm pool runs by default;
 * the 40 cm one (15 000 particles) with VISCID_LONG=1. bench/pool-rest.ts prints the same runs
 * frame by frame, with where the motion is.
 */
import { describe, expect, it } from 'vitest';
import { describeLong } from '../long.ts';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';

const G = 9.81;

function pool(width: number, depth: number, particle: NonNullable<SceneInput['particle']>): ParticleSimulation {
  const scene: SceneInput = {
    name: 'pool', fps: 30, duration: 3,
    domain: { min: [0, 0, 0], max: [width, 2 * depth, width], boundary: 'noslip' },
    materials: { w: { kind: 'liquid', density: 1000, viscosity: { value: 0.01, unit: 'm2/s' } } },
    bodies: [{ material: 'w', shape: { type: 'box', center: [width / 2, depth / 2, width / 2], size: [width, depth, width] } }],
    particle: { radius: 0.004, ...particle },
  };
  return createSimulation(parseScene(scene), 'particle') as ParticleSimulation;
}

/**
 * Over the frames of seconds (from, to]: the RMS speed of the particles (mean square over those
 * frames) and the largest RMS of one frame in the last half second, both / √(g depth).
 */
function rest(s: ParticleSimulation, depth: number, from: number, to: number): { rms: number; lastWorst: number } {
  const L = s.ctx.liquid;
  let sum = 0, frames = 0, lastWorst = 0;
  for (let f = 1; f <= Math.round(to * 30); f++) {
    s.stepFrame();
    if (f <= Math.round(from * 30)) continue;
    let sq = 0;
    for (let i = 0; i < 3 * L.count; i++) sq += L.vel[i] * L.vel[i];
    sum += sq / L.count;
    frames++;
    if (f > Math.round((to - 0.5) * 30)) lastWorst = Math.max(lastWorst, Math.sqrt(sq / L.count));
  }
  const u = Math.sqrt(G * depth);
  return { rms: Math.sqrt(sum / frames) / u, lastWorst: lastWorst / u };
}

const REST = { pressureCourant: 0.4, pressureIterations: 4 };

describe('a still pool 5 cm deep rests, default adhesion, 4 mm particles', () => {
  // Measured (bench/pool-rest.ts, 2026-11-28): without the bound (4 sub-timesteps a frame) RMS
  // 0.0136 over seconds 1–2, frames up to 0.0183 (pressureIterations 4 alone: 0.0086); with it
  // (12 a frame) 0.0022, the last half second 0.0012–0.0014.
  it('5 cm wide: RMS ≤ 0.005 √(g h) over seconds 1–2, and in every frame of the last half second', () => {
    const m = rest(pool(0.05, 0.05, REST), 0.05, 1, 2);
    expect(m.rms).toBeLessThan(0.005);
    expect(m.lastWorst).toBeLessThan(0.005);
  });
});

describeLong(import.meta, 'a still pool 40 cm wide rests (VISCID_LONG=1)', () => {
  it('40 cm wide: RMS ≤ 0.005 √(g h) over seconds 1–2, and in every frame of the last half second', () => {
    const m = rest(pool(0.4, 0.05, REST), 0.05, 1, 2);
    expect(m.rms).toBeLessThan(0.005);
    expect(m.lastWorst).toBeLessThan(0.005);
  }, 1_200_000);
});
