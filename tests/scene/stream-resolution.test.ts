/** A spout's stream, followed in free fall to where it lands, against the particles that carry it (src/scene/stream-resolution.ts). */
import { describe, expect, it } from 'vitest';
import { parseScene } from '../../src/index.ts';
import { ROPE_PARTICLES_ACROSS, streamResolutions, streamResolutionWarnings } from '../../src/scene/stream-resolution.ts';

const pour = (radius: number, speed: number, height: number, r: number, floor: 'domain' | 'plate') =>
  parseScene({
    materials: { honey: { kind: 'liquid', density: 1420, viscosity: { value: 5, unit: 'Pa.s' } }, plate: { kind: 'solid' } },
    ...(floor === 'domain' ? { domain: { min: [-0.1, 0, -0.1], max: [0.1, 0.3, 0.1], boundary: 'noslip', faces: { ymax: 'open' } } } : {}),
    bodies: floor === 'plate' ? [{ material: 'plate', shape: { type: 'box', center: [0, -0.005, 0], size: [0.2, 0.01, 0.2] } }] : [],
    sources: [{ name: 'jar', material: 'honey', shape: 'disk', center: [0, height, 0], direction: [0, -1, 0], radius, speed }],
    particle: { radius: r },
  });

describe('stream resolution', () => {
  it('lands where free fall says, thinned by the flux: half width R √(v₀ / v), v = √(v₀² + 2 g H)', () => {
    for (const floor of ['domain', 'plate'] as const) {
      const [s] = streamResolutions(pour(0.006, 0.4, 0.1, 0.002, floor));
      const v = Math.sqrt(0.16 + 2 * 9.81 * 0.1);
      expect(s.fall).toBeCloseTo(0.1, 3);
      expect(s.speed / v).toBeCloseTo(1, 2);
      expect(s.halfWidth / (0.006 * Math.sqrt(0.4 / v))).toBeCloseTo(1, 2);
      expect(s.across).toBeCloseTo(s.halfWidth / 0.002, 9);
    }
  });

  it('warns, naming the source and the radius it needs, when fewer than 2 particles cross it', () => {
    const thin = pour(0.006, 0.4, 0.1, 0.002, 'plate');
    const [w] = streamResolutionWarnings(thin);
    const need = streamResolutions(thin)[0].radiusNeeded;
    expect(w).toMatch(/^particle engine: sources\[0\] 'jar' /);
    expect(w).toContain(`particle.radius ${+(need * 1000).toPrecision(2)} mm or less`);
    expect(need * ROPE_PARTICLES_ACROSS).toBeCloseTo(streamResolutions(thin)[0].halfWidth, 12);
    // At the radius it names, no warning.
    expect(streamResolutionWarnings(pour(0.006, 0.4, 0.1, 0.99 * need, 'plate'))).toEqual([]);
    // A wide, slow stream at the same particles is carried.
    expect(streamResolutionWarnings(pour(0.015, 0.4, 0.1, 0.002, 'plate'))).toEqual([]);
  });

  it('says nothing of a stream that never lands (no floor, no solid under it)', () => {
    const open = parseScene({
      materials: { honey: { kind: 'liquid', density: 1420, viscosity: { value: 5, unit: 'Pa.s' } } },
      sources: [{ material: 'honey', center: [0, 0.1, 0], direction: [0, -1, 0], radius: 0.002, speed: 0.4 }],
      particle: { radius: 0.004 },
    });
    expect(streamResolutions(open)).toEqual([]);
  });
});
