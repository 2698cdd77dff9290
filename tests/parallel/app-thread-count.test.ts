/**
 * How many threads the app gives either engine (src/app/threads.ts): 'auto' leaves a core
 * to the page and one to the mesh worker, stops at AUTO_THREADS_MAX and never goes below the
 * scene's own particle.workers (the particle engine's only); a fixed count is taken as it is.
 */
import { describe, expect, it } from 'vitest';
import { parseScene } from '../../src/index.ts';
import { AUTO_THREADS_MAX, autoThreads, threadCount, threadOptions } from '../../src/app/threads.ts';

const scene = (workers?: number) =>
  parseScene({
    name: 't', fps: 30, duration: 1,
    materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-3, unit: 'Pa.s' }, color: '#3366cc' } },
    bodies: [{ material: 'water', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.01 } }],
    particle: { radius: 0.002, ...(workers ? { workers } : {}) },
  });

describe('app thread count', () => {
  it('auto leaves a core to the page and one to the mesh worker, and stops at AUTO_THREADS_MAX', () => {
    expect(autoThreads(1)).toBe(1);
    expect(autoThreads(2)).toBe(1);
    expect(autoThreads(4)).toBe(2);
    expect(autoThreads(10)).toBe(AUTO_THREADS_MAX);
    expect(autoThreads(64)).toBe(AUTO_THREADS_MAX);
  });

  it("auto keeps a scene's larger particle.workers; a fixed count overrides the scene", () => {
    expect(threadCount(scene(), 'auto', 2)).toBe(1);
    expect(threadCount(scene(), 'auto', 6)).toBe(4);
    expect(threadCount(scene(4), 'auto', 2)).toBe(4);
    expect(threadCount(scene(4), 'auto', 16)).toBe(AUTO_THREADS_MAX);
    expect(threadCount(scene(4), 1, 16)).toBe(1);
    expect(threadCount(scene(), 3, 2)).toBe(3);
  });

  it("gives the grid engine the app's count; auto there ignores the particle engine's particle.workers", () => {
    expect(threadCount(scene(4), 'auto', 2, 'grid')).toBe(1);
    expect(threadCount(scene(4), 'auto', 6, 'grid')).toBe(4);
    expect(threadCount(scene(4), 3, 2, 'grid')).toBe(3);
    const o = threadOptions(scene(), 2, 'grid');
    expect(o.workers).toBe(2);
    expect(typeof o.spawnThread).toBe('function');
    expect(threadOptions(scene(4), 'auto', 'grid', 2).workers).toBe(1);
  });

  it('passes the count on with a thread spawner where memory can be shared', () => {
    const o = threadOptions(scene(), 2);
    expect(o.workers).toBe(2);
    expect(typeof o.spawnThread).toBe('function');
  });
});
