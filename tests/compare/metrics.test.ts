import { describe, expect, it } from 'vitest';
import { type FluidPoints, footprint, frontPosition, parseScene, recordRun, summarizeRun } from '../../src/index.ts';
import { emittedVolume, pointStats, upAxisOf, upperQuantile } from '../../src/compare/metrics.ts';
import { fallingBlock, RecordedSimulation } from './recorded-sim.ts';

const scene = parseScene({
  name: 'recorded', fps: 20,
  materials: { water: { kind: 'liquid', viscosity: { value: 1e-6, unit: 'm2/s' } } },
});

function points(xyz: number[]): FluidPoints {
  const count = xyz.length / 3;
  return { count, positions: Float32Array.from(xyz), velocities: new Float32Array(xyz.length), materials: new Uint16Array(count) };
}

describe('point measures', () => {
  it('upperQuantile is the maximum at q = 0 and leaves a fraction q above it', () => {
    const v = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(upperQuantile(v, 0)).toBe(100);
    expect(upperQuantile(v, 0.1)).toBe(90);
    expect(upperQuantile(new Float64Array(0), 0.1)).toBeNaN();
  });

  it('frontPosition ignores a stated fraction of spray ahead of the liquid', () => {
    const xyz: number[] = [];
    for (let i = 0; i < 99; i++) xyz.push((i / 98) * 1, 0, 0);
    xyz.push(10, 0, 0); // one droplet far ahead
    const p = points(xyz);
    expect(frontPosition(p, 0, 1, 0)).toBe(10);
    expect(frontPosition(p, 0, 1, 0.02)).toBeLessThanOrEqual(1);
    expect(frontPosition(p, 0, 1, 0.02)).toBeGreaterThan(0.95);
    expect(frontPosition(p, 0, -1, 0)).toBe(0);
  });

  it('footprint finds the radius of a disc on the floor and ignores points above the layer', () => {
    const xyz: number[] = [];
    const R = 0.05, cx = 0.3, cz = -0.2;
    for (let k = 0; k < 2000; k++) {
      // Uniform in the disc (sunflower pattern), at floor height 0.001.
      const r = R * Math.sqrt((k + 0.5) / 2000), th = k * 2.399963;
      xyz.push(cx + r * Math.cos(th), 0.001, cz + r * Math.sin(th));
    }
    for (let k = 0; k < 100; k++) xyz.push(cx + 0.5, 0.05, cz); // far out but above the layer
    const f = footprint(points(xyz), 0, 0.005, 1, 0.01);
    expect(f.count).toBe(2000);
    expect(f.center[0]).toBeCloseTo(cx, 3);
    expect(f.center[1]).toBeCloseTo(cz, 3);
    expect(Math.abs(f.radius / R - 1)).toBeLessThan(0.02);
    expect(footprint(points(xyz), -1, 0.005, 1).radius).toBeNaN();
  });

  it('pointStats gives centroid, bounds and the largest speed', () => {
    const p = points([0, 0, 0, 2, 4, 6]);
    p.velocities.set([3, 4, 0, 0, 0, 1]);
    const s = pointStats(p);
    expect(s.centroid).toEqual([1, 2, 3]);
    expect(s.bounds.max).toEqual([2, 4, 6]);
    expect(s.maxSpeed).toBeCloseTo(5, 6);
  });

  it('emittedVolume integrates every source over its emitting time', () => {
    const sc = parseScene({
      duration: 4,
      materials: { w: { kind: 'liquid', viscosity: { value: 1e-6, unit: 'm2/s' } } },
      sources: [
        { material: 'w', center: [0, 0, 0], radius: 0.01, speed: 2, start: 1, end: 3 },
        { material: 'w', shape: 'rect', center: [0, 0, 0], size: [0.02, 0.03], speed: 1, start: 0 },
      ],
    });
    const disk = Math.PI * 1e-4 * 2, rect = 6e-4;
    expect(emittedVolume(sc, 0.5)).toBeCloseTo(rect * 0.5, 12);
    expect(emittedVolume(sc, 2)).toBeCloseTo(disk * 1 + rect * 2, 12);
    expect(emittedVolume(sc, 10)).toBeCloseTo(disk * 2 + rect * 4, 12); // both stop (the second at the duration)
  });

  it('upAxisOf follows gravity', () => {
    expect(upAxisOf([0, -9.81, 0])).toBe(1);
    expect(upAxisOf([1, 0, 0])).toBe(0);
    expect(upAxisOf([0, 0, 0])).toBe(1);
  });
});

describe('recordRun', () => {
  it('records the initial state and every frame of a run', () => {
    const frames = 10, fps = scene.fps, s = 0.01, n = 4, c = 0.5;
    const sim = new RecordedSimulation('particle', scene, fallingBlock(n, s, frames, fps, 9.81, c));
    const seen: number[] = [];
    const run = recordRun(sim, frames, { onFrame: (r) => seen.push(r.frame) });
    expect(run.frames).toHaveLength(frames + 1);
    expect(seen).toEqual(Array.from({ length: frames + 1 }, (_, i) => i));
    const y0 = run.frames[0].centerOfMass[1];
    for (const f of run.frames) {
      expect(f.centerOfMass[1] - y0).toBeCloseTo(-0.5 * 9.81 * f.time * f.time, 4);
      expect(f.volumeRatio).toBeCloseTo(1 - 0.001 * f.frame, 9);
      expect(f.front).toBeCloseTo((n - 1) * s + c * f.time, 5);
    }
    expect(run.frames[3].wallMs).toBe(6);
    expect(run.frames[3].stages).toEqual({ forces: 1, move: 5 });
    expect(run.error).toBeUndefined();
  });

  it('keeps the frames before an engine error and says why it stopped', () => {
    const sim = new RecordedSimulation('grid', scene, fallingBlock(3, 0.01, 10, scene.fps), 4);
    const run = recordRun(sim, 10);
    expect(run.frames).toHaveLength(4);
    expect(run.error).toMatch(/blew up at frame 4/);
  });

  it('summarizeRun averages wall time per stepped frame and finds the largest drift', () => {
    const sim = new RecordedSimulation('particle', scene, fallingBlock(3, 0.01, 4, scene.fps));
    const sum = summarizeRun(recordRun(sim, 4));
    expect(sum.frames).toBe(4);
    expect(sum.meanWallMs).toBeCloseTo((4 + 5 + 6 + 7) / 4, 9);
    expect(sum.meanStages.move).toBeCloseTo((3 + 4 + 5 + 6) / 4, 9);
    expect(sum.maxVolumeDrift).toBeCloseTo(0.004, 9);
    expect(sum.peakSpeed).toBeCloseTo(9.81 * 4 / scene.fps, 4);
  });
});
