/**
 * A tipping cup's pour: the liquid left in it drains off its wall as Jeffreys's film, and the rope
 * it pours thins as the flux falls, against the particles that carry it
 * (src/scene/pour-resolution.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScene } from '../../src/index.ts';
import { predictFrameCost } from '../../src/cli/cost.ts';
import { partsAt, pourResolutions, pourResolutionWarnings } from '../../src/scene/pour-resolution.ts';
import { ROPE_PARTICLES_ACROSS } from '../../src/scene/stream-resolution.ts';

const shipped = (name: string, particle: Record<string, unknown> = {}, more: Record<string, unknown> = {}) => {
  const j = JSON.parse(readFileSync(new URL(`../../scenes/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
  return parseScene({ ...j, ...more, particle: { ...(j.particle as object), ...particle } });
};

/** A cup of 5 Pa·s honey (inner radius 3.4 cm, 9.4 cm deep) turned to `tilt` degrees between 0.2 and 1.4 s, its rim 15 cm over a floor, or held there from the start. */
const cup = (tilt: number, held = false, r = 0.002) =>
  parseScene({
    duration: 3,
    materials: { honey: { kind: 'liquid', density: 1420, viscosity: { value: 5, unit: 'Pa.s' } }, cup: { kind: 'solid' }, floor: { kind: 'solid' } },
    bodies: [
      {
        name: 'mug',
        material: 'cup',
        shape: { type: 'cylinder', center: [0, 0.1, 0], radius: 0.04, height: 0.1, wall: 0.006 },
        motion: { type: 'keyframes', pivot: [0.04, 0.15, 0], keys: held ? [{ time: 0, rotation: [0, 0, -tilt] }] : [{ time: 0.2 }, { time: 1.4, rotation: [0, 0, -tilt] }] },
      },
      { material: 'floor', shape: { type: 'plane', point: [0, 0, 0], normal: [0, 1, 0], extent: 0.3 } },
      { material: 'honey', shape: { type: 'cylinder', center: [0, 0.1, 0], radius: 0.031, height: 0.07 } },
    ],
    particle: { radius: r },
  });

describe("a tipping cup's pour", () => {
  const g = 9.81, nu = 5 / 1420, L = 0.094, a = 0.034;

  it("drains as Jeffreys's film in the cylinder's trough: what it holds falls at the flux it pours, and a shallow film has the parabolic trough's depth √(15 ν L / 8 G)", () => {
    // Held at 150° from the start: g_t = g cos 30° throughout, so G = g_t t.
    const [p] = pourResolutions(cup(150, true));
    expect(p.name).toBe('mug');
    expect(p.material).toBe('honey');
    const gt = g * Math.cos(Math.PI / 6);
    for (let i = 4; i < p.samples.length; i++) {
      const [s0, s1] = [p.samples[i - 1], p.samples[i]];
      const lost = (s0.held - s1.held) / (s1.time - s0.time);
      expect(Math.abs(lost / (0.5 * (s0.flux + s1.flux)) - 1)).toBeLessThan(0.02);
    }
    for (const s of p.samples) {
      expect(s.width / (2 * Math.sqrt(2 * a * s.film - s.film * s.film))).toBeCloseTo(1, 9);
      // Where the film is shallow against the trough (h < a/6): d ≈ h − s²/2a, c = (8/15) g_t h² / ν.
      if (s.film < a / 6) expect(Math.abs(s.film / Math.sqrt((15 * nu * L) / (8 * gt * s.time)) - 1)).toBeLessThan(0.05);
    }
    expect(p.samples[p.samples.length - 1].film).toBeLessThan(a / 6);
    // It starts once the film holds no more than the cup held (π 3.1² × 7 cm = 211 mL).
    expect(p.samples[0].held).toBeLessThanOrEqual(Math.PI * 0.031 ** 2 * 0.07);
  });

  it('thins without end: the rope lands thinner each frame, and a finer particle radius puts the parting off', () => {
    const [p] = pourResolutions(cup(115));
    for (let i = 1; i < p.samples.length; i++) expect(p.samples[i].ropeRadius).toBeLessThan(p.samples[i - 1].ropeRadius);
    expect(p.partsAt).toBe(partsAt(p.samples, 0.002));
    // The particles' radius enters only the count across (and the landing's step).
    const at = (r: number) => partsAt(p.samples, r)!;
    expect(at(0.0025)).toBeLessThan(at(0.002));
    expect(at(0.002)).toBeLessThan(at(0.0015));
    // The rope lands from the rim's lowest point as a viscous thread (ℓ = 1.1 cm) after about a 15 cm fall: nearly free fall.
    const s = p.samples[p.samples.length - 1];
    expect(s.fall).toBeGreaterThan(0.14);
    expect(s.fall).toBeLessThan(0.17);
    expect(s.speed).toBeLessThan(Math.sqrt(2 * g * s.fall));
    expect(s.speed).toBeGreaterThan(0.85 * Math.sqrt(2 * g * s.fall));
  });

  it('says nothing of a cup that never turns past level (60°): it keeps a pool and no film drains off its wall', () => {
    expect(pourResolutions(cup(60))).toEqual([]);
    expect(pourResolutionWarnings(cup(60))).toEqual([]);
  });

  it("cup-pour: parts within 6 frames of where the particle engine's stream first parted (bench/rope-components.ts: 54, 58, 56, 62 at 3, 2.5, 2, 1.5 mm), and info warns naming the cup and the radius that holds it", () => {
    // One run each, noisy by 2–4 frames and not monotone in the radius; the model says 51, 55, 60, 68 (docs/decisions.md).
    const scene = shipped('cup-pour');
    const [p] = pourResolutions(scene);
    for (const [r, measured] of [[0.003, 54], [0.0025, 58], [0.002, 56], [0.0015, 62]]) expect(Math.abs(partsAt(p.samples, r)! * 30 - measured)).toBeLessThanOrEqual(6);
    const w = predictFrameCost(scene).warnings.find((x) => x.includes("'cup' pours"))!;
    expect(w).toMatch(/^particle engine: bodies\[0\] 'cup' pours its honey /);
    expect(w).toContain('parts into beads');
    expect(w).toContain(`particle.radius ${+(p.radiusNeeded * 1000).toPrecision(2)} mm or less`);
    // At the radius it names the rope holds to the scene's end; so it does at 2 mm in a scene that ends before frame 56.
    expect(p.samples[p.samples.length - 1].across * (0.002 / p.radiusNeeded)).toBeCloseTo(ROPE_PARTICLES_ACROSS, 9);
    expect(pourResolutionWarnings(shipped('cup-pour', { radius: 0.99 * p.radiusNeeded }))).toEqual([]);
    expect(pourResolutionWarnings(shipped('cup-pour', {}, { duration: 1.8 }))).toEqual([]);
  });
});
